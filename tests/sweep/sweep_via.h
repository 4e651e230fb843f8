/*
 * The MPI_ entry points' forms of the checkers' calls (sweep_via.c): one
 * via_<coll>_with and via_<coll> per collective, with the signatures of
 * mpicoll_<coll>_with and mpicoll_<coll>. coll_sweep_via's checkers are
 * compiled with a header CMake makes from the list of collectives that
 * renames the latter to the former, and mpicoll_last_choice to
 * via_last_choice, and includes this one.
 */
#ifndef MPICOLL_TEST_SWEEP_VIA_H
#define MPICOLL_TEST_SWEEP_VIA_H

#include <mpicoll.h>

#define VIA_DECLARE_(name, Name, family)                                \
    int via_##name##_with(const char *algorithm, MPICOLL_ARGS_##family); \
    int via_##name(MPICOLL_ARGS_##family);
MPICOLL_COLLECTIVES(VIA_DECLARE_)
#undef VIA_DECLARE_

/* mpicoll_last_choice as of the last via_ call on comm. */
int via_last_choice(MPI_Comm comm, char *buf, size_t buflen);

#endif
