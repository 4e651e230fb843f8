/*
 * The public entry points of every collective, made from the list of
 * collectives (include/mpicoll_collectives.h) and their signature
 * families: each is the family's path (api.h) with the collective's table
 * (<c>_desc), an algorithm named for the call or not, and how it runs.
 */
#include "api.h"

int api_block(const coll_desc *c, const char *spec, const void *sbuf, int scount,
              MPI_Datatype stype, void *rbuf, int rcount, MPI_Datatype rtype, int root,
              MPI_Comm comm, mpicoll_request *request, api_kind kind)
{
    if (kind != API_BLOCKING && !request)
        return mpicoll_raise(comm, MPI_ERR_ARG);
    const call_mode mode = { kind == API_BLOCKING ? NULL : request, kind == API_PERSISTENT };
    return blockcoll_call(c, spec, sbuf, scount, stype, rbuf, rcount, rtype, root, comm,
                          &mode);
}

int api_vector(const coll_desc *c, const char *spec, const void *sbuf, void *rbuf, int count,
               MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm, mpicoll_request *request,
               api_kind kind)
{
    if (kind != API_BLOCKING && !request)
        return mpicoll_raise(comm, MPI_ERR_ARG);
    const call_mode mode = { kind == API_BLOCKING ? NULL : request, kind == API_PERSISTENT };
    const vec_call v = { c, spec, sbuf, rbuf, count, type, op, root, comm, NULL };
    return veccoll_call(&v, &mode);
}

int api_vreduction(const coll_desc *c, const char *spec, const void *sbuf, void *rbuf,
                   const int *counts, MPI_Datatype type, MPI_Op op, MPI_Comm comm,
                   mpicoll_request *request, api_kind kind)
{
    if (kind != API_BLOCKING && !request)
        return mpicoll_raise(comm, MPI_ERR_ARG);
    const call_mode mode = { kind == API_BLOCKING ? NULL : request, kind == API_PERSISTENT };
    const vec_call v = { c, spec, sbuf, rbuf, 0, type, op, -1, comm, counts };
    return veccoll_call(&v, &mode);
}

int api_vblock(const coll_desc *c, const char *spec, const void *sbuf, int scount,
               MPI_Datatype stype, void *rbuf, const int *rcounts, const int *displs,
               MPI_Datatype rtype, MPI_Comm comm, mpicoll_request *request, api_kind kind)
{
    if (kind != API_BLOCKING && !request)
        return mpicoll_raise(comm, MPI_ERR_ARG);
    const call_mode mode = { kind == API_BLOCKING ? NULL : request, kind == API_PERSISTENT };
    const vcoll_args v = { .coll = c, .spec = spec, .sbuf = sbuf, .scount = scount,
                           .stype = stype, .rbuf = rbuf, .counts = rcounts, .displs = displs,
                           .rtype = rtype, .root = -1, .comm = comm };
    return vcoll_call(&v, &mode);
}

int api_vgather(const coll_desc *c, const char *spec, const void *sbuf, int scount,
                MPI_Datatype stype, void *rbuf, const int *rcounts, const int *displs,
                MPI_Datatype rtype, int root, MPI_Comm comm, mpicoll_request *request,
                api_kind kind)
{
    if (kind != API_BLOCKING && !request)
        return mpicoll_raise(comm, MPI_ERR_ARG);
    const call_mode mode = { kind == API_BLOCKING ? NULL : request, kind == API_PERSISTENT };
    const vcoll_args v = { .coll = c, .spec = spec, .sbuf = sbuf, .scount = scount,
                           .stype = stype, .rbuf = rbuf, .counts = rcounts, .displs = displs,
                           .rtype = rtype, .root = root, .comm = comm };
    return vcoll_call(&v, &mode);
}

int api_vscatter(const coll_desc *c, const char *spec, const void *sbuf, const int *scounts,
                 const int *displs, MPI_Datatype stype, void *rbuf, int rcount,
                 MPI_Datatype rtype, int root, MPI_Comm comm, mpicoll_request *request,
                 api_kind kind)
{
    if (kind != API_BLOCKING && !request)
        return mpicoll_raise(comm, MPI_ERR_ARG);
    const call_mode mode = { kind == API_BLOCKING ? NULL : request, kind == API_PERSISTENT };
    const vcoll_args v = { .coll = c, .spec = spec, .sbuf = sbuf, .stype = stype, .rbuf = rbuf,
                           .rcount = rcount, .counts = scounts, .displs = displs,
                           .rtype = rtype, .root = root, .counted_send = 1, .comm = comm };
    return vcoll_call(&v, &mode);
}

int api_vexchange(const coll_desc *c, const char *spec, const void *sbuf, const int *scounts,
                  const int *sdispls, MPI_Datatype stype, void *rbuf, const int *rcounts,
                  const int *rdispls, MPI_Datatype rtype, MPI_Comm comm,
                  mpicoll_request *request, api_kind kind)
{
    if (kind != API_BLOCKING && !request)
        return mpicoll_raise(comm, MPI_ERR_ARG);
    const call_mode mode = { kind == API_BLOCKING ? NULL : request, kind == API_PERSISTENT };
    const vxcoll_args v = { .coll = c, .spec = spec, .sbuf = sbuf, .scounts = scounts,
                            .sdispls = sdispls, .stype = stype, .rbuf = rbuf,
                            .rcounts = rcounts, .rdispls = rdispls, .rtype = rtype,
                            .comm = comm };
    return vxcoll_call(&v, &mode);
}

int api_barrier(const coll_desc *c, const char *spec, MPI_Comm comm, mpicoll_request *request,
                api_kind kind)
{
    if (kind != API_BLOCKING && !request)
        return mpicoll_raise(comm, MPI_ERR_ARG);
    const call_mode mode = { kind == API_BLOCKING ? NULL : request, kind == API_PERSISTENT };
    return barrier_call(c, spec, comm, &mode);
}

#define ENTRY_POINTS(name, Name, family)                                                     \
    int mpicoll_##name##_with(const char *algorithm, MPICOLL_ARGS_##family)                  \
    {                                                                                        \
        return API_PATH(api_, family)(&name##_desc, algorithm, API_CALL_##family, NULL,      \
                                      API_BLOCKING);                                         \
    }                                                                                        \
    int mpicoll_##name(MPICOLL_ARGS_##family)                                                \
    {                                                                                        \
        return mpicoll_##name##_with(NULL, API_ARGS_##family);                               \
    }                                                                                        \
    int mpicoll_i##name##_with(const char *algorithm, MPICOLL_ARGS_##family,                 \
                               mpicoll_request *request)                                     \
    {                                                                                        \
        return API_PATH(api_, family)(&name##_desc, algorithm, API_CALL_##family, request,   \
                                      API_NB);                                               \
    }                                                                                        \
    int mpicoll_i##name(MPICOLL_ARGS_##family, mpicoll_request *request)                     \
    {                                                                                        \
        return mpicoll_i##name##_with(NULL, API_ARGS_##family, request);                     \
    }                                                                                        \
    int mpicoll_##name##_init_with(const char *algorithm, MPICOLL_ARGS_##family,             \
                                   mpicoll_request *request)                                 \
    {                                                                                        \
        return API_PATH(api_, family)(&name##_desc, algorithm, API_CALL_##family, request,   \
                                      API_PERSISTENT);                                       \
    }                                                                                        \
    int mpicoll_##name##_init(MPICOLL_ARGS_##family, mpicoll_request *request)               \
    {                                                                                        \
        return mpicoll_##name##_init_with(NULL, API_ARGS_##family, request);                 \
    }

MPICOLL_COLLECTIVES(ENTRY_POINTS)
