/*
 * The sweep through the MPI_ entry points (coll_sweep_via: run with Open
 * MPI's coll component, or under the preload library with any MPI): every mpicoll_<coll>_with(algorithm, ...) and
 * mpicoll_<coll>(...) of the checkers (tests/mpi) is renamed to the
 * via_ function of the same arguments (sweep_via.h; the renames are made
 * by CMake from the list of collectives), which names the algorithm for the thread's next
 * call (api_thread_spec_set: what the component reads where the API
 * would take an argument) and calls MPI_<Name>, MPI_I<name> and MPI_Wait,
 * or MPI_<Name>_init (MPI-4; Open MPI 4.1: MPIX_<Name>_init), MPI_Start,
 * MPI_Wait and MPI_Request_free, as SWEEP_VIA_MODE says (blocking, nb,
 * persistent). So the whole matrix runs through Open MPI's MPI layer, the
 * component's three forms and its Open MPI requests, or through the
 * preload library's wrappers and its generalized requests;
 * mpicoll_last_choice still reads the runtime that runs the calls (the
 * component links libmpicoll.so; the preload library's copy of the
 * runtime, preloaded, comes before the program's libmpicoll.so).
 */
#include "sweep_via.h"
#include "../../src/api/api.h"
#if defined(OPEN_MPI) && MPI_VERSION < 4
#include <mpi-ext.h>
#endif

#if MPI_VERSION >= 4
#define VIA_INIT_(Name) MPI_##Name##_init
#else
#define VIA_INIT_(Name) MPIX_##Name##_init
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { VIA_BLOCKING, VIA_NB, VIA_PERSISTENT };

static int via_mode(void)
{
    static int mode = -1;
    if (mode < 0) {
        const char *v = getenv("SWEEP_VIA_MODE");
        mode = v && strcmp(v, "nb") == 0           ? VIA_NB
             : v && strcmp(v, "persistent") == 0 ? VIA_PERSISTENT
                                                   : VIA_BLOCKING;
    }
    return mode;
}

/* The choice of the last call through via_ (its communicator's), read
 * right after it: the checkers' own collectives on that communicator (an
 * agreement, a barrier) also run through the component since, with no
 * algorithm named, and would replace it before mpicoll_last_choice reads
 * it. */
static MPI_Comm last_comm = MPI_COMM_NULL;
static char last_choice[256];

static void record(MPI_Comm comm)
{
    last_comm = comm;
    if (mpicoll_last_choice(comm, last_choice, sizeof last_choice) != 0)
        last_comm = MPI_COMM_NULL;
}

int via_last_choice(MPI_Comm comm, char *buf, size_t buflen)
{
    if (comm != last_comm || comm == MPI_COMM_NULL)
        return mpicoll_last_choice(comm, buf, buflen);
    snprintf(buf, buflen, "%s", last_choice);
    return 0;
}

/* The end of a request's call: started if persistent, waited, freed. */
static int via_finish(int rc, MPI_Request *q, int persistent)
{
    api_thread_spec_set(NULL);
    if (rc == MPI_SUCCESS && persistent)
        rc = MPI_Start(q);
    if (rc == MPI_SUCCESS)
        rc = MPI_Wait(q, MPI_STATUS_IGNORE);
    if (persistent && *q != MPI_REQUEST_NULL)
        MPI_Request_free(q);
    return rc;
}

#define VIA_(name, Name, family)                                                          \
    int via_##name##_with(const char *algorithm, MPICOLL_ARGS_##family)                   \
    {                                                                                     \
        MPI_Request q = MPI_REQUEST_NULL;                                                 \
        int rc;                                                                           \
        api_thread_spec_set(algorithm);                                                   \
        switch (via_mode()) {                                                             \
        case VIA_BLOCKING:                                                                \
            rc = MPI_##Name(API_ARGS_##family);                                           \
            api_thread_spec_set(NULL);                                                    \
            break;                                                                        \
        case VIA_NB:                                                                      \
            rc = via_finish(MPI_I##name(API_ARGS_##family, &q), &q, 0);                   \
            break;                                                                        \
        default:                                                                          \
            rc = via_finish(VIA_INIT_(Name)(API_ARGS_##family, MPI_INFO_NULL, &q),        \
                            &q, 1);                                                       \
        }                                                                                 \
        record(comm);                                                                     \
        return rc;                                                                        \
    }                                                                                     \
    int via_##name(MPICOLL_ARGS_##family)                                                 \
    {                                                                                     \
        return via_##name##_with(NULL, API_ARGS_##family);                                \
    }
MPICOLL_COLLECTIVES(VIA_)
