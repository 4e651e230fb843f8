/*
 * The public entry points of every collective, made from the list of
 * collectives (include/mpicoll_collectives.h) and their signature
 * families: each fills the call's coll_args (api.h: API_CALL_<family>)
 * with the collective's table (<c>_desc) and an algorithm named for the
 * call or not, and runs it (coll_entry) as it says: blocking,
 * non-blocking or persistent.
 */
#include "api.h"

int api_call(const coll_args *a, mpicoll_request *request, api_kind kind)
{
    if (kind != API_BLOCKING && !request)
        return mpicoll_raise(a->comm, MPI_ERR_ARG);
    const call_mode mode = { .req = kind == API_BLOCKING ? NULL : request,
                             .persistent = kind == API_PERSISTENT };
    return coll_entry(a, &mode);
}

static RUNTIME_TLS const char *thread_spec;

void api_thread_spec_set(const char *spec) { thread_spec = spec; }
const char *api_thread_spec(void) { return thread_spec; }

#define ENTRY_POINTS(name, Name, family)                                                     \
    int mpicoll_##name##_with(const char *algorithm, MPICOLL_ARGS_##family)                  \
    {                                                                                        \
        return api_call(&API_COLL_ARGS(name, algorithm, family), NULL, API_BLOCKING);        \
    }                                                                                        \
    int mpicoll_##name(MPICOLL_ARGS_##family)                                                \
    {                                                                                        \
        return mpicoll_##name##_with(NULL, API_ARGS_##family);                               \
    }                                                                                        \
    int mpicoll_i##name##_with(const char *algorithm, MPICOLL_ARGS_##family,                 \
                               mpicoll_request *request)                                     \
    {                                                                                        \
        return api_call(&API_COLL_ARGS(name, algorithm, family), request, API_NB);           \
    }                                                                                        \
    int mpicoll_i##name(MPICOLL_ARGS_##family, mpicoll_request *request)                     \
    {                                                                                        \
        return mpicoll_i##name##_with(NULL, API_ARGS_##family, request);                     \
    }                                                                                        \
    int mpicoll_##name##_init_with(const char *algorithm, MPICOLL_ARGS_##family,             \
                                   mpicoll_request *request)                                 \
    {                                                                                        \
        return api_call(&API_COLL_ARGS(name, algorithm, family), request, API_PERSISTENT);   \
    }                                                                                        \
    int mpicoll_##name##_init(MPICOLL_ARGS_##family, mpicoll_request *request)               \
    {                                                                                        \
        return mpicoll_##name##_init_with(NULL, API_ARGS_##family, request);                 \
    }

MPICOLL_COLLECTIVES(ENTRY_POINTS)
