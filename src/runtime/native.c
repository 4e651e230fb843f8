/*
 * native: the MPI library's own collectives, as an algorithm of every
 * collective (R_NATIVE in each table). The one piece of code that calls
 * the PMPI_ collectives: the entry paths after checks and selection
 * (blockcoll.c, veccoll.c, vcoll.c, vxcoll.c, barriercoll.c, through
 * call_native), requests (request.c: PMPI_I<coll>, MPI-3) and the preload
 * library's calls that mpicoll does not take. Arguments go through as the user gave them, on the user's
 * communicator, so the MPI library sees exactly what the program passed;
 * but for one case (native_prepare): a predefined operation on a derived
 * datatype, where the library reduces the predefined type beneath it.
 */
#include "native.h"
#include "dtype.h"
#include "errors.h"

#include <limits.h>

/* The arguments of a family's MPI collective (include/mpicoll.h), from
 * the coll_args, up to the communicator (each ends with its comma, so
 * that a family of the communicator alone has none). */
#define NATIVE_ARGS_block(a) a->sbuf, a->scount, a->stype, a->rbuf, a->rcount, a->rtype,
#define NATIVE_ARGS_reduction(a) a->sbuf, a->rbuf, a->rcount, a->rtype, a->op,
#define NATIVE_ARGS_rooted_reduction(a) a->sbuf, a->rbuf, a->rcount, a->rtype, a->op, a->root,
#define NATIVE_ARGS_bcast(a) a->rbuf, a->rcount, a->rtype, a->root,
#define NATIVE_ARGS_vreduction(a) a->sbuf, a->rbuf, a->rcounts, a->rtype, a->op,
#define NATIVE_ARGS_vblock(a) a->sbuf, a->scount, a->stype, a->rbuf, a->rcounts, a->rdispls, \
    a->rtype,
#define NATIVE_ARGS_rooted_block(a) \
    a->sbuf, a->scount, a->stype, a->rbuf, a->rcount, a->rtype, a->root,
#define NATIVE_ARGS_barrier(a)
#define NATIVE_ARGS_rooted_vblock(a) a->sbuf, a->scount, a->stype, a->rbuf, a->rcounts, \
    a->rdispls, a->rtype, a->root,
/* scatterv: the counted arrays are the send side's */
#define NATIVE_ARGS_vscatter(a) a->sbuf, a->rcounts, a->rdispls, a->stype, a->rbuf, a->rcount, \
    a->rtype, a->root,
#define NATIVE_ARGS_vexchange(a) a->sbuf, a->scounts, a->sdispls, a->stype, a->rbuf, \
    a->rcounts, a->rdispls, a->rtype,

/* Busy meanwhile (runtime_busy): a persistent request's start comes here
 * outside any call, and the library's collective must not come back to
 * mpicoll through the Open MPI component. */
int native_run(const coll_args *a, MPI_Request *req)
{
    const coll_desc *c = a->coll;
    int rc = MPI_ERR_INTERN;
    runtime_enter();
#define NATIVE_RUN_(name, Name, family)                                              \
    if (c == &name##_desc)                                                           \
        rc = req ? PMPI_I##name(NATIVE_ARGS_##family(a) a->comm, req)                \
                 : PMPI_##Name(NATIVE_ARGS_##family(a) a->comm);
    MPICOLL_COLLECTIVES(NATIVE_RUN_)
#undef NATIVE_RUN_
    runtime_leave();
    return rc;
}

static size_t align64(size_t n) { return (n + 63) & ~(size_t)63; }

/* Bytes of n elements of a type laid out from its true lower bound. */
static size_t span(const dt_view *v, size_t n)
{
    return n ? (n - 1) * (size_t)v->extent + (size_t)v->true_extent : 0;
}

/* MPICH's blocking MPI_Reduce crashes with MPI_IN_PLACE at a root other
 * than 0 once the vector passes 2 KiB (4.0.2 here; ch4's reduce
 * compositions read the send buffer at a bad address: pmodels/mpich#6540
 * and #6893, fixed by #6543 and its backport #6916 of 2024-02, so taken
 * as fixed from 4.2.1 on), where mpicoll's own algorithms take the call.
 * There the root's input goes to the library as a send buffer apart from
 * the receive buffer. MPI_Ireduce is not affected. */
static int reduce_in_place_crashes(const coll_args *a, const call_mode *m)
{
#if defined(MPICH_NUMVERSION) && MPICH_NUMVERSION < 40201300
    return a->coll == &reduce_desc && a->sbuf == MPI_IN_PLACE && a->root != 0 && !m->req;
#else
    (void)a;
    (void)m;
    return 0;
#endif
}

/* Open MPI 4.1 and MPICH refuse a predefined operation (MPI_SUM & co.) on
 * a derived datatype in their own reductions, and on some ranks only (Open
 * MPI at the root), so the other ranks would wait forever; mpicoll's own
 * algorithms take such calls and reduce the type's predefined elements
 * (veccoll.c), and native must not be stricter. So the library gets the
 * view mpicoll's plans get: count·n elements of the predefined type b the
 * user's type is built from (n of them per user element; pair types such
 * as MPI_DOUBLE_INT are predefined). Ranks may pass different types of
 * one signature, and every rank's view is the same (count·n, b). The view
 * is the user's buffers when the type lies there as an array of b (no
 * gaps, elements in memory order, and b without padding); otherwise
 * scratch [receive view | send view], filled from the user's buffer by a
 * typed copy (MPI_Sendrecv on MPI_COMM_SELF from (count, type) to
 * (count·n, b): signatures match, which is right for pair types too, whose
 * data bytes are fewer than their extent) and emptied into the receive
 * buffer only where MPI defines a result (reduce: the root;
 * reduce_scatter_block: the rank's block; not exscan's rank 0), so gaps
 * are never touched.
 * A user-defined operation keeps the user's type (b is the type itself),
 * as does a predefined type. */
/* Open MPI 4.1's MPI_Ialltoallv in place (coll/libnbc; 4.1.4 here) sends
 * a peer the block meant for the rank before it once the blocks are large
 * (1000 ints and more, in the sweep's non-blocking and persistent modes;
 * the blocking MPI_Alltoallv is right): most likely libnbc's in-place
 * path reading the extent of a send type it never set, reported on its
 * master as open-mpi/ompi#9749. There the library gets a copy of the receive blocks as a
 * send buffer apart. */
static int alltoallv_in_place_wrong(const coll_args *a, const call_mode *m)
{
#if defined(OMPI_MAJOR_VERSION)
    return a->coll == &alltoallv_desc && a->sbuf == MPI_IN_PLACE && m->req;
#else
    (void)a;
    (void)m;
    return 0;
#endif
}

/* The receive blocks' span copied into scratch before each start, and the
 * library's send side there: the receive counts and type, the
 * displacements from the span's first element. */
static int send_apart(const coll_args *a, const call_mode *m, comm_state *st,
                      native_call *nc)
{
    const int np = comm_state_size(st);
    dt_view rv;
    if (dt_view_get(a->rtype, &rv) != MPI_SUCCESS)
        return MPI_ERR_TYPE;
    long long lo, hi;
    counts_span(a->rcounts, a->rdispls, np, &lo, &hi);
    const size_t bytes = hi > lo ? span(&rv, (size_t)(hi - lo)) : 0;
    char *scr = call_scratch(m, st, align64(bytes) + (size_t)np * sizeof(int));
    if (!scr)
        return MPI_ERR_NO_MEM;
    int *sd = (int *)(scr + align64(bytes));
    for (int r = 0; r < np; r++)
        sd[r] = (int)(a->rdispls[r] - lo);
    /* element d of the send side at sbuf + d·extent + true_lb: scr at lo */
    nc->lib.sbuf = scr - rv.true_lb;
    nc->lib.scounts = a->rcounts;
    nc->lib.sdispls = sd;
    nc->lib.stype = a->rtype;
    nc->pre = (copy_step){ COPY_BYTES, (const char *)a->rbuf + (MPI_Aint)lo * rv.extent +
                           rv.true_lb, scr, bytes, 0, 0, MPI_DATATYPE_NULL, MPI_DATATYPE_NULL };
    return MPI_SUCCESS;
}

/* Open MPI 4.1's blocking MPI_Allgatherv (coll/tuned's fixed decision)
 * sizes the call as the send type's size times the receive counts, so
 * ranks whose send and receive types differ in size (legal: one
 * signature, two MPI_INTs against one two-int type) choose another
 * algorithm than the others and every rank waits forever. Such a rank
 * gives the library its block in place instead, copied to its place in
 * the receive buffer before the call: in place the library sizes with the
 * receive type, as every rank whose two types have one size does. */
static int allgatherv_sizes_differ(const coll_args *a, const call_mode *m)
{
#if defined(OMPI_MAJOR_VERSION)
    int ss, rs;
    return a->coll == &allgatherv_desc && !m->req && a->sbuf != MPI_IN_PLACE &&
           PMPI_Type_size(a->stype, &ss) == MPI_SUCCESS &&
           PMPI_Type_size(a->rtype, &rs) == MPI_SUCCESS && ss != rs;
#else
    (void)a;
    (void)m;
    return 0;
#endif
}

int native_prepare(const coll_args *a, const call_mode *m, comm_state *st, native_call *nc)
{
    *nc = (native_call){ .lib = *a };
    if (alltoallv_in_place_wrong(a, m))
        return send_apart(a, m, st, nc);
    if (allgatherv_sizes_differ(a, m)) {
        MPI_Aint lb, extent;
        const int me = comm_state_rank(st);
        if (PMPI_Type_get_extent(a->rtype, &lb, &extent) != MPI_SUCCESS)
            return MPI_ERR_TYPE;
        nc->lib.sbuf = MPI_IN_PLACE;
        nc->pre = (copy_step){ COPY_TYPED, a->sbuf,
                               (char *)a->rbuf + (MPI_Aint)a->rdispls[me] * extent, 0,
                               (size_t)a->scount, (size_t)a->rcounts[me], a->stype, a->rtype };
        return MPI_SUCCESS;
    }
    if (!a->coll->reduction)
        return MPI_SUCCESS;
    const MPI_Datatype t = a->rtype;
    MPI_Datatype b = op_is_predefined(a->op) ? dt_base_type(t) : t;
    if (b == MPI_DATATYPE_NULL)
        b = t;                  /* mixed: check_op refused it before */
    const int apart = reduce_in_place_crashes(a, m);
    if (b == t && !apart)
        return MPI_SUCCESS;     /* the user's arguments as they are */
    dt_view tv, bv;
    if (dt_view_get(t, &tv) != MPI_SUCCESS || dt_view_get(b, &bv) != MPI_SUCCESS)
        return MPI_ERR_TYPE;
    const int np = comm_state_size(st), me = comm_state_rank(st);
    size_t sum = 0;     /* reduce_scatter: the vector's user elements */
    for (int r = 0; a->rcounts && r < np; r++)
        sum += (size_t)a->rcounts[r];
    if (tv.size <= 0 || (a->rcounts ? sum == 0 : a->rcount == 0)) {
        nc->lib.rcount = nc->lib.scount = 0;    /* no data: nothing to copy */
        nc->lib.rtype = nc->lib.stype = b;
        return MPI_SUCCESS;
    }
    if (bv.size <= 0 || bv.extent <= 0)     /* b predefined: only a user's own type */
        return b == t ? MPI_SUCCESS : MPI_ERR_TYPE;
    const size_t per = (size_t)(tv.size / bv.size);
    /* user elements sent and received on this rank (the data model counts
     * vectors when a block is one), and the library's */
    const plan_args unit = { .p = np, .rank = me, .root = a->root, .block = 1 };
    const size_t send_n = a->rcounts ? sum : a->coll->send_bytes(&unit) * (size_t)a->rcount;
    const size_t recv_n = a->rcounts ? (size_t)a->rcounts[me]
                                     : a->coll->recv_bytes(&unit) * (size_t)a->rcount;
    const size_t n_e = (a->rcounts ? 0 : (size_t)a->rcount) * per;
    if (n_e > INT_MAX || send_n * per > INT_MAX)
        return MPI_ERR_COUNT;   /* the library's counts and the copies' are ints */
    nc->lib.rcount = nc->lib.scount = (int)n_e;
    nc->lib.rtype = nc->lib.stype = b;

    /* the user's buffers are the library's (from the data's first byte), or
     * scratch of its own for either side */
    const int direct = b == t || (tv.contig && bv.extent == bv.size);
    const MPI_Aint off = b == t ? 0 : tv.true_lb;
    const int inplace = a->sbuf == MPI_IN_PLACE && !apart;
    const void *src = a->sbuf == MPI_IN_PLACE ? a->rbuf : a->sbuf;
    /* a receive view: where a result is defined, and in place where the
     * input is (exscan's rank 0 has no result but an input in place; a
     * reduce_scatter rank whose block is empty still gives its vector) */
    const int has_recv = recv_n || (inplace && send_n);
    const int own_recv = has_recv && (!direct || apart);
    const int own_send = !inplace && !direct;
    /* in place, the receive view holds the input (reduce_scatter_block's
     * p blocks), and the result comes out of its start */
    const size_t rv = own_recv ? align64(span(&bv, (inplace ? send_n : recv_n) * per)) : 0;
    const size_t sv = own_send ? align64(span(&bv, send_n * per)) : 0;
    const size_t cv = a->rcounts ? (size_t)np * sizeof(int) : 0;   /* the counts in b */
    char *scr = NULL;
    if (rv + sv + cv && !(scr = call_scratch(m, st, rv + sv + cv)))
        return MPI_ERR_NO_MEM;
    if (a->rcounts) {
        int *scaled = (int *)(void *)(scr + rv + sv);
        for (int r = 0; r < np; r++)
            scaled[r] = (int)((size_t)a->rcounts[r] * per);
        nc->lib.rcounts = scaled;
    }
    char *rview = scr ? scr - bv.true_lb : NULL, *sview = scr ? scr + rv - bv.true_lb : NULL;
    if (inplace) {
        nc->lib.sbuf = MPI_IN_PLACE;
        if (own_recv)
            nc->pre = (copy_step){ COPY_TYPED, a->rbuf, rview, 0, send_n, send_n * per, t, b };
    } else if (own_send) {
        nc->lib.sbuf = sview;
        nc->pre = (copy_step){ COPY_TYPED, src, sview, 0, send_n, send_n * per, t, b };
    } else {
        nc->lib.sbuf = (const char *)src + off;
    }
    if (own_recv) {
        nc->lib.rbuf = rview;
        if (recv_n)
            nc->post = (copy_step){ COPY_TYPED, rview, a->rbuf, 0, recv_n * per, recv_n, b, t };
    } else if (has_recv) {
        nc->lib.rbuf = (char *)a->rbuf + off;
    }   /* else (a reduce's other ranks) the receive buffer is not used */
    return MPI_SUCCESS;
}

int native_start(const native_call *nc, MPI_Request *req)
{
    int rc = copy_step_run(&nc->pre);
    return rc == MPI_SUCCESS ? native_run(&nc->lib, req) : rc;
}
