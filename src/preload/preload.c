/*
 * libmpicoll_preload.so: mpicoll under unmodified MPI programs.
 *
 *   mpirun -x LD_PRELOAD=/path/libmpicoll_preload.so -n 4 ./app      (Open MPI)
 *   mpiexec -genv LD_PRELOAD /path/libmpicoll_preload.so -n 4 ./app  (MPICH)
 *
 * Defines the MPI_ entry points of the collectives mpicoll implements and
 * calls mpicoll, which calls only PMPI_ entry points, so the two never
 * recurse into each other. What mpicoll does not handle goes to the MPI
 * library's own collective (PMPI_, through native_run: src/runtime/native.c,
 * the path of the algorithm native too), and MPICOLL_VERBOSE says so:
 * intercommunicators, datatypes the vector collectives refuse, and the
 * predefined operations on types that mpicoll leaves to the library
 * (op_for_library: src/runtime/errors.c).
 * MPICOLL_DISABLE=1 sends every call to the MPI library's own.
 *
 * The ranks must agree on it: the first call that mpicoll would take on a
 * communicator creates mpicoll's state there, collectively, and checks that
 * every rank has the same settings; a rank under MPICOLL_DISABLE makes the
 * same check at the same call (comm_settings_native), so that a setting on
 * some ranks only fails every rank with MPI_ERR_ARG and a message instead
 * of hanging them.
 */
#include "../api/api.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static int disabled;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void read_env(void)
{
    const char *v = getenv("MPICOLL_DISABLE");
    disabled = v && *v && strcmp(v, "0") != 0;
}

enum { NATIVE, OURS, FAILED };

/* OURS when mpicoll takes the call (coll_takes); NATIVE when the MPI
 * library's own collective runs; FAILED when the settings differ between
 * the ranks (raised on a->comm, *rc set). */
static int route(const coll_args *a, int *rc)
{
    pthread_once(&once, read_env);
    const int takes = coll_takes(a, disabled);
    if (!disabled)
        return takes ? OURS : NATIVE;
    /* where the other ranks would create mpicoll's state */
    if (takes && a->comm != MPI_COMM_NULL && (*rc = comm_settings_native(a->comm)) != MPI_SUCCESS) {
        mpicoll_raise(a->comm, *rc);
        return FAILED;
    }
    return NATIVE;
}

/* The call a: mpicoll's, or the MPI library's own with the program's
 * arguments as they are (route; also when mpicoll refuses the datatype or
 * leaves the operation to the library: coll_supported). */
static int preload_call(const coll_args *a)
{
    int rc = MPI_SUCCESS, how = route(a, &rc);
    if (how == FAILED)
        return rc;
    if (how == NATIVE)
        return native_run(a, NULL);
    return api_call(a, NULL, API_BLOCKING);
}

/* MPI_<MPI name> of every collective (include/mpicoll_collectives.h), its
 * call filled as the entry points' (API_CALL_<family>). */
#define PRELOAD_(name, Name, family)                                                     \
    int MPI_##Name(MPICOLL_ARGS_##family)                                                \
    {                                                                                    \
        return preload_call(&API_COLL_ARGS(name, NULL, family));                         \
    }
MPICOLL_COLLECTIVES(PRELOAD_)
