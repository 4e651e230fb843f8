/*
 * The entry path (entry.h: veccoll_path) of the collectives on one vector
 * per rank (allreduce, reduce, bcast, reduce_scatter_block, scan, exscan,
 * reduce_scatter with its counts per rank): argument checks, selection,
 * the plan, datatypes, MPI_IN_PLACE, execution; or, when the selection
 * chose native, the MPI library's own collective with the user's
 * arguments (src/runtime/native.c).
 *
 * The vector is rcount elements of rtype (coll_args: a family's one count
 * and datatype), or rcounts[r] elements for rank r (reduce_scatter).
 *
 * Plans see the vector as elements of one type at its extent: bytes in
 * type-signature order for bcast (ranks may lay one signature out
 * differently), the predefined type it is built from for a predefined
 * operation (MPI defines MPI_SUM & co. on predefined types only; pair
 * types such as MPI_DOUBLE_INT are predefined), the user's type for a
 * user-defined operation. When the user's data are laid out as those
 * elements, plans run in the user's buffers; otherwise (gaps, strides,
 * structs, elements out of memory order) on scratch filled and emptied by
 * packing or typed copies, so gaps in the user's buffers are never written
 * nor read past.
 */
#include "select.h"
#include "dtype.h"
#include "entry.h"
#include "native.h"
#include "errors.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* MPI's argument checks, all local: count and type, the root, the
 * operation against the type, MPI_IN_PLACE as a send buffer only (for a
 * reduce, at the root only), NULL buffers that hold data, and overlapping
 * send and receive data. */
static int check_args(const coll_args *a, int p, int me)
{
    const coll_desc *c = a->coll;
    const int inplace = a->sbuf == MPI_IN_PLACE;
    int rc;
    CHECK(check_count_type(a->rcount, a->rtype));
    size_t sum = 0;     /* counts per rank: the whole vector */
    CHECK(c->counts && !a->rcounts ? MPI_ERR_ARG : MPI_SUCCESS);
    for (int r = 0; c->counts && r < p; r++) {
        CHECK(check_count_type(a->rcounts[r], a->rtype));
        sum += (size_t)a->rcounts[r];
    }
    CHECK(c->rooted && (a->root < 0 || a->root >= p) ? MPI_ERR_ROOT : MPI_SUCCESS);
    if (c->reduction)
        CHECK(check_op(a->op, a->rtype));
    if (a->rbuf == MPI_IN_PLACE || (inplace && c->reduction && c->rooted && me != a->root))
        CHECK(MPI_ERR_BUFFER);
    /* the elements each buffer holds on this rank: the data model counts
     * vectors */
    const plan_args unit = { .p = p, .rank = me, .root = a->root, .block = 1 };
    const size_t nsend = inplace    ? 0
                         : c->counts ? sum
                                     : c->send_bytes(&unit) * (size_t)a->rcount;
    const size_t nrecv = c->counts ? (size_t)a->rcounts[me]
                                   : c->recv_bytes(&unit) * (size_t)a->rcount;
    CHECK(check_buffer(a->rbuf, nrecv, a->rtype));
    if (!inplace) {
        CHECK(check_buffer(a->sbuf, nsend, a->rtype));
        CHECK(check_disjoint(a->sbuf, nsend, a->rtype, a->rbuf, nrecv, a->rtype));
    }
out:
    return rc;
}

static size_t align64(size_t n) { return (n + 63) & ~(size_t)63; }

/* How plans see the user's vector: count_e elements of etype (esize =
 * its extent), from `lb` on in the user's buffer when direct, else in
 * scratch filled and emptied by copies that touch only the type's data. */
typedef struct layout {
    MPI_Datatype etype;
    size_t esize;
    size_t per;             /* elements of etype per element of the user's type */
    MPI_Aint lb;            /* true lower bound of the plan's view */
    int direct;             /* the user's buffers as they are */
    int packed;             /* the view holds the data packed (MPI_Pack's bytes) */
    int size;               /* data bytes of one user element */
} layout;

/* Without a reduction (bcast) the plan moves the data bytes in type-
 * signature order, which is what MPI puts on the wire: ranks may lay the
 * same signature out differently (the root 3 ints, the others 3 ints in
 * an extent of 16), and each unpacks into its own layout. A predefined
 * operation sees elements of the type's predefined base (MPI, and Open
 * MPI in particular, defines MPI_SUM & co. only on predefined types),
 * which every rank's type shares; a user operation sees the user's type. */
static int get_layout(MPI_Datatype t, MPI_Op op, int reduction, layout *l)
{
    dt_view tv, ev;
    if (dt_view_get(t, &tv) != MPI_SUCCESS)
        return MPI_ERR_TYPE;
    l->size = tv.size;
    l->direct = tv.contig;
    if (!reduction) {
        *l = (layout){ .etype = MPI_BYTE, .esize = 1, .per = (size_t)tv.size,
                       .lb = tv.contig ? tv.true_lb : 0, .direct = tv.contig, .packed = 1,
                       .size = tv.size };
        return MPI_SUCCESS;
    }
    l->etype = op_is_predefined(op) ? dt_base_type(t) : t;
    if (l->etype == MPI_DATATYPE_NULL)
        return MPI_ERR_TYPE;    /* a type mixing predefined types: no predefined op on it */
    if (dt_view_get(l->etype, &ev) != MPI_SUCCESS || ev.size <= 0 || ev.extent <= 0)
        return tv.size == 0 ? MPI_SUCCESS : MPI_ERR_TYPE;
    l->esize = (size_t)ev.extent;
    l->per = (size_t)(tv.size / ev.size);
    /* direct: the user's elements are laid out as the plan's are */
    l->direct = tv.contig && (l->etype == t || ev.contig);
    l->lb = l->direct ? tv.true_lb : ev.true_lb;
    return MPI_SUCCESS;
}

/* The plan's view of a user buffer: the buffer itself (direct), or
 * scratch at `scr` that holds the elements at their extent. */
static char *plan_view(const layout *l, const void *user, char *scr)
{
    return l->direct ? (char *)user + l->lb : scr;
}

/* Copies between a user buffer (n user elements) and a plan view (n·per
 * elements of etype, or n·size packed bytes), touching only the type's
 * data. */
static copy_step to_view(const layout *l, const void *user, char *view, size_t n,
                         MPI_Datatype t)
{
    if (l->packed)
        return (copy_step){ COPY_PACK, user, view, n * (size_t)l->size, n, 0, t,
                            MPI_DATATYPE_NULL };
    return (copy_step){ COPY_TYPED, user, view - l->lb, 0, n, n * l->per, t, l->etype };
}

static copy_step from_view(const layout *l, char *view, void *user, size_t n, MPI_Datatype t)
{
    if (l->packed)
        return (copy_step){ COPY_UNPACK, view, user, n * (size_t)l->size, n, 0,
                            MPI_DATATYPE_NULL, t };
    return (copy_step){ COPY_TYPED, view - l->lb, user, 0, n * l->per, n, l->etype, t };
}

/* reduce_scatter's blocks (a->rcounts) as the plan sees them: bytes of
 * elements of etype, in rank order; *total: the vector's user elements. */
static void count_layout(const coll_args *a, int p, const layout *L, size_t *count,
                         size_t *displ, size_t *total)
{
    size_t off = 0;
    *total = 0;
    for (int r = 0; r < p; r++) {
        count[r] = (size_t)a->rcounts[r] * L->per * L->esize;
        displ[r] = off;
        off += count[r];
        *total += (size_t)a->rcounts[r];
    }
}

/* The call; counts: for reduce_scatter, room for its blocks' bytes and
 * offsets (count_layout: 2p), else NULL. */
static int run_vector(const coll_args *a, const call_mode *mode, comm_state *st,
                      size_t *counts)
{
    const coll_desc *c = a->coll;
    const int p = comm_state_size(st), me = comm_state_rank(st);
    layout L = { 0 };
    int rc = get_layout(a->rtype, a->op, c->reduction, &L);
    if (rc != MPI_SUCCESS)
        return rc;
    size_t total = (size_t)a->rcount;
    if (counts)
        count_layout(a, p, &L, counts, counts + p, &total);
    if (total == 0 || L.size == 0)
        return call_empty(mode, st, c);
    const int inplace = a->sbuf == MPI_IN_PLACE;
    /* the plan's block: the vector's elements (with counts: their mean) */
    const size_t block = (counts ? total / (size_t)p : (size_t)a->rcount) * L.per * L.esize;
    const plan_args shape = { .p = p, .rank = me, .root = a->root, .block = block,
                              .count = counts, .displ = counts ? counts + p : NULL };
    const size_t send_len = c->send_bytes(&shape), recv_len = c->recv_bytes(&shape);
    /* user elements in each buffer */
    const size_t send_n = counts ? total : send_len / block * (size_t)a->rcount;
    const size_t recv_n = counts ? (size_t)a->rcounts[me]
                                 : recv_len / block * (size_t)a->rcount;
    const size_t alias = inplace && c->inplace_offset ? c->inplace_offset(&shape) : NO_ALIAS;

    int commutative = 1;
    if (c->reduction && PMPI_Op_commutative(a->op, &commutative) != MPI_SUCCESS)
        return MPI_ERR_OP;
    /* the message size: the whole vector's data bytes */
    call_info ci = { .p = p, .nnodes = 1, .commutative = commutative,
                     .bytes = (send_n > recv_n ? send_n : recv_n) * (size_t)L.size };
    coll_call call = { .coll = c, .st = st, .reduces = c->reduction };
    plan_args pa = { .block = block, .esize = L.esize, .root = a->root,
                     .commutative = commutative, .inplace = alias != NO_ALIAS,
                     .count = shape.count, .displ = shape.displ };
    /* an operation mpicoll leaves to the library (check_op's verdict) */
    const int lib = c->reduction && op_for_library(a->op, L.etype);
    if (lib && me == 0 && select_verbose())
        fprintf(stderr, "mpicoll: %s native MPI collective (this operation on this datatype "
                "is left to the MPI library)\n", c->name);
    rc = lib ? MPI_SUCCESS
             : select_prepare(st, c, a->spec, &ci, pa, &call.rp, call_own_plan(mode));
    if (rc != MPI_SUCCESS)
        return rc;
    if (!call.rp)       /* native: the MPI library's own, with the user's arguments */
        return call_native(mode, st, a);

    /* scratch: [TMP | after-reduce | receive view | send view] */
    const int own_send = send_len && (!L.direct || (inplace && alias == NO_ALIAS));
    size_t tmp = align64(call.rp->pl.tmp_bytes), aft = align64(call.rp->pl.max_after);
    size_t rv = L.direct ? 0 : align64(recv_len), sv = own_send ? send_len : 0;
    char *scr = call_scratch(mode, st, tmp + aft + rv + sv);
    if (!scr)
        return MPI_ERR_NO_MEM;
    call.bufs[BUF_TMP] = scr;
    call.bufs[BUF_RECV] = recv_len ? plan_view(&L, a->rbuf, scr + tmp + aft) : NULL;
    /* the send data: the user's send buffer, or inside the receive buffer
     * (in place), or a copy of whichever holds it */
    const void *src = inplace ? a->rbuf : a->sbuf;
    if (alias != NO_ALIAS) {
        call.bufs[BUF_SEND] = (char *)call.bufs[BUF_RECV] + alias;
        if (!L.direct)
            call.pre = to_view(&L, src, call.bufs[BUF_SEND], send_n, a->rtype);
    } else if (own_send) {
        call.bufs[BUF_SEND] = scr + tmp + aft + rv;
        call.pre = L.direct ? (copy_step){ COPY_BYTES, (const char *)src + L.lb,
                                           call.bufs[BUF_SEND], send_len, 0, 0,
                                           MPI_DATATYPE_NULL, MPI_DATATYPE_NULL }
                            : to_view(&L, src, call.bufs[BUF_SEND], send_n, a->rtype);
    } else {
        call.bufs[BUF_SEND] = send_len ? (char *)src + L.lb : NULL;
    }
    call.red = (exec_reduce){ .type = L.etype, .op = a->op, .esize = L.esize, .lb = L.lb,
                              .commutative = commutative, .scratch = scr + tmp };
    if (recv_len && !L.direct)
        call.post = from_view(&L, call.bufs[BUF_RECV], a->rbuf, recv_n, a->rtype);
    return call_launch(mode, &call);
}

static int run(const coll_args *a, const call_mode *mode, comm_state *st)
{
    size_t *counts = NULL;     /* reduce_scatter's blocks: count_layout */
    if (a->coll->counts &&
        !(counts = malloc(2 * (size_t)comm_state_size(st) * sizeof *counts)))
        return MPI_ERR_NO_MEM;
    const int rc = run_vector(a, mode, st, counts);
    free(counts);
    return rc;
}

/* A type mpicoll's plans can see as elements (get_layout), and an
 * operation it does not leave to the library (op_for_library). */
static int supported(const coll_args *a)
{
    layout l;
    return a->rtype != MPI_DATATYPE_NULL &&
           get_layout(a->rtype, a->op, a->coll->reduction, &l) == MPI_SUCCESS &&
           !(a->coll->reduction && op_for_library(a->op, l.etype));
}

const entry_path veccoll_path = { check_args, run, supported };
