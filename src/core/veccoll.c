/*
 * The entry path shared by the collectives on one vector per rank
 * (allreduce, reduce, bcast, reduce_scatter_block): argument checks,
 * selection, the plan, datatypes, MPI_IN_PLACE, execution.
 *
 * Plans see the vector as elements of one type at its extent: the user's
 * type for a user-defined operation (and for bcast), the predefined type
 * it is built from for a predefined operation (MPI defines MPI_SUM & co.
 * on predefined types only; pair types such as MPI_DOUBLE_INT are
 * predefined). When the user's data are laid out as those elements, plans
 * run in the user's buffers; otherwise (gaps, strides, structs) on scratch
 * filled and emptied by typed copies, so gaps in the user's buffers are
 * never written nor read past.
 */
#include "runtime.h"

#include <limits.h>
#include <string.h>

static int check_args(const vec_call *v, int *p, int *me)
{
    int rc = check_comm(v->comm);
    if (rc == MPI_SUCCESS)
        rc = check_count_type(v->count, v->type);
    if (rc != MPI_SUCCESS)
        return rc;
    if (v->coll->reduction && v->op == MPI_OP_NULL)
        return MPI_ERR_OP;
    PMPI_Comm_size(v->comm, p);
    PMPI_Comm_rank(v->comm, me);
    if (v->coll->rooted && (v->root < 0 || v->root >= *p))
        return MPI_ERR_ROOT;
    return MPI_SUCCESS;
}

static size_t align64(size_t n) { return (n + 63) & ~(size_t)63; }

/* How plans see the user's vector: count_e elements of etype (esize =
 * its extent), from `lb` on in the user's buffer when direct, else in
 * scratch filled and emptied by typed copies. */
typedef struct layout {
    MPI_Datatype etype;
    size_t esize;
    size_t per;             /* elements of etype per element of the user's type */
    MPI_Aint lb;            /* true lower bound of the plan's view */
    int direct;             /* the user's buffers as they are */
    int size;               /* data bytes of one user element */
} layout;

static int is_predefined_op(MPI_Op op)
{
    static const MPI_Op ops[] = { MPI_MAX, MPI_MIN, MPI_SUM, MPI_PROD, MPI_LAND, MPI_BAND,
                                  MPI_LOR, MPI_BOR, MPI_LXOR, MPI_BXOR, MPI_MAXLOC,
                                  MPI_MINLOC, MPI_REPLACE, MPI_NO_OP };
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
        if (op == ops[i])
            return 1;
    return 0;
}

/* The one predefined type a datatype is built from, or MPI_DATATYPE_NULL
 * when it mixes several (or is too deep). */
static MPI_Datatype base_type(MPI_Datatype t, int depth)
{
    int ni, na, nd, combiner;
    if (depth > 16 || PMPI_Type_get_envelope(t, &ni, &na, &nd, &combiner) != MPI_SUCCESS)
        return MPI_DATATYPE_NULL;
    if (combiner == MPI_COMBINER_NAMED)
        return t;
    int ints[ni > 0 ? ni : 1];
    MPI_Aint addrs[na > 0 ? na : 1];
    MPI_Datatype types[nd > 0 ? nd : 1], base = MPI_DATATYPE_NULL;
    if (PMPI_Type_get_contents(t, ni, na, nd, ints, addrs, types) != MPI_SUCCESS)
        return MPI_DATATYPE_NULL;
    int mixed = 0;
    for (int i = 0; i < nd; i++) {
        MPI_Datatype b = base_type(types[i], depth + 1);
        if (b == MPI_DATATYPE_NULL || (base != MPI_DATATYPE_NULL && b != base))
            mixed = 1;
        base = b;
        int tni, tna, tnd, tc;
        PMPI_Type_get_envelope(types[i], &tni, &tna, &tnd, &tc);
        if (tc != MPI_COMBINER_NAMED)
            PMPI_Type_free(&types[i]);
    }
    return mixed ? MPI_DATATYPE_NULL : base;
}

static int contiguous(MPI_Datatype t, MPI_Aint *true_lb)
{
    dt_view v;
    MPI_Aint tlb, text;
    if (dt_view_get(t, &v) != MPI_SUCCESS || PMPI_Type_get_true_extent(t, &tlb, &text))
        return -1;
    *true_lb = tlb;
    return v.contig;
}

/* A predefined operation sees elements of the type's predefined base
 * (MPI, and Open MPI in particular, defines MPI_SUM & co. only on
 * predefined types); a user operation sees the user's type. */
static int get_layout(MPI_Datatype t, MPI_Op op, int reduction, layout *l)
{
    dt_view tv;
    MPI_Aint tlb, text, elb, eext;
    if (dt_view_get(t, &tv) != MPI_SUCCESS || PMPI_Type_get_true_extent(t, &tlb, &text))
        return MPI_ERR_TYPE;
    l->etype = t;
    if (reduction && is_predefined_op(op))
        l->etype = base_type(t, 0);
    if (l->etype == MPI_DATATYPE_NULL)
        return MPI_ERR_TYPE;    /* a type mixing predefined types: no predefined op on it */
    int esize;
    if (PMPI_Type_size(l->etype, &esize) || PMPI_Type_get_extent(l->etype, &elb, &eext) ||
        esize <= 0 || eext <= 0)
        return tv.size == 0 ? MPI_SUCCESS : MPI_ERR_TYPE;
    MPI_Aint etlb;
    int econtig = contiguous(l->etype, &etlb);
    if (econtig < 0 || etlb < 0 || tlb < 0 || text > tv.extent)
        return MPI_ERR_TYPE;    /* negative or overlapping layouts: not supported */
    l->esize = (size_t)eext;
    l->per = (size_t)(tv.size / esize);
    l->size = tv.size;
    /* direct: the user's elements are laid out as the plan's are */
    l->direct = tv.contig && (l->etype == t || econtig);
    l->lb = l->direct ? tlb : etlb;
    return MPI_SUCCESS;
}

/* The plan's view of a user buffer: the buffer itself (direct), or
 * scratch at `scr` that holds the elements at their extent. */
static char *plan_view(const layout *l, const void *user, char *scr)
{
    return l->direct ? (char *)user + l->lb : scr;
}

/* Typed copies between a user buffer (n user elements) and a plan view
 * (n·per elements of etype), touching only the type's data. */
static copy_step to_view(const layout *l, const void *user, char *view, size_t n,
                         MPI_Datatype t)
{
    return (copy_step){ COPY_TYPED, user, view - l->lb, 0, n, n * l->per, t, l->etype };
}

static copy_step from_view(const layout *l, char *view, void *user, size_t n, MPI_Datatype t)
{
    return (copy_step){ COPY_TYPED, view - l->lb, user, 0, n * l->per, n, l->etype, t };
}

/* Whether a predefined operation is defined on the element type, asked
 * on every rank before any message moves: MPI_Reduce_local would only
 * fail on the ranks that reduce, and the others would wait forever. */
static int probe_op(const layout *l, MPI_Op op)
{
    _Alignas(16) unsigned char a[256] = { 0 }, b[256] = { 0 };
    if (!is_predefined_op(op) || l->esize + (size_t)l->lb > sizeof a)
        return MPI_SUCCESS;     /* user operations are the user's to match */
    return PMPI_Reduce_local(a, b, 1, l->etype, op) == MPI_SUCCESS ? MPI_SUCCESS : MPI_ERR_OP;
}

static int run(const vec_call *v, int p, int me, const call_mode *mode)
{
    const coll_desc *c = v->coll;
    comm_state *st;
    layout L;
    int rc = comm_state_get(v->comm, &st);
    if (rc == MPI_SUCCESS)
        rc = get_layout(v->type, v->op, c->reduction, &L);
    if (rc == MPI_SUCCESS && c->reduction && L.size > 0)
        rc = probe_op(&L, v->op);
    if (rc != MPI_SUCCESS)
        return rc;
    if (v->count == 0 || L.size == 0)
        return call_empty(mode, st, c);
    const int inplace = v->sbuf == MPI_IN_PLACE;
    const size_t n_e = (size_t)v->count * L.per;    /* the plan's elements */
    const size_t block = n_e * L.esize;
    const coll_shape shape = { .p = p, .rank = me, .root = v->root, .block = block };
    const size_t send_len = c->send_bytes(&shape), recv_len = c->recv_bytes(&shape);
    /* user elements in each buffer */
    const size_t send_n = send_len / block * (size_t)v->count;
    const size_t recv_n = recv_len / block * (size_t)v->count;
    const size_t alias = inplace && c->inplace_offset ? c->inplace_offset(&shape) : NO_ALIAS;
    if ((recv_len && !v->rbuf) || (send_len && !inplace && !v->sbuf))
        return MPI_ERR_BUFFER;

    int commutative = 1;
    if (c->reduction && PMPI_Op_commutative(v->op, &commutative) != MPI_SUCCESS)
        return MPI_ERR_OP;
    /* the message size: the whole vector's data bytes */
    call_info ci = { .p = p, .nnodes = 1, .commutative = commutative,
                     .bytes = (send_n > recv_n ? send_n : recv_n) * (size_t)L.size };
    coll_call call = { .coll = c, .st = st, .reduces = c->reduction };
    plan_args pa = { .block = block, .esize = L.esize, .root = v->root,
                     .commutative = commutative, .inplace = alias != NO_ALIAS };
    rc = comm_state_prepare(st, c, v->spec, &ci, pa, &call.rp, call_own_plan(mode));
    if (rc != MPI_SUCCESS)
        return rc;

    /* scratch: [TMP | after-reduce | receive view | send view] */
    const int own_send = send_len && (!L.direct || (inplace && alias == NO_ALIAS));
    size_t tmp = align64(call.rp->pl.tmp_bytes), aft = align64(call.rp->pl.max_after);
    size_t rv = L.direct ? 0 : align64(recv_len), sv = own_send ? send_len : 0;
    char *scr = call_scratch(mode, st, tmp + aft + rv + sv);
    if (!scr)
        return MPI_ERR_NO_MEM;
    call.bufs[BUF_TMP] = scr;
    call.bufs[BUF_RECV] = recv_len ? plan_view(&L, v->rbuf, scr + tmp + aft) : NULL;
    /* the send data: the user's send buffer, or inside the receive buffer
     * (in place), or a copy of whichever holds it */
    const void *src = inplace ? v->rbuf : v->sbuf;
    if (alias != NO_ALIAS) {
        call.bufs[BUF_SEND] = (char *)call.bufs[BUF_RECV] + alias;
        if (!L.direct)
            call.pre = to_view(&L, src, call.bufs[BUF_SEND], send_n, v->type);
    } else if (own_send) {
        call.bufs[BUF_SEND] = scr + tmp + aft + rv;
        call.pre = L.direct ? (copy_step){ COPY_BYTES, (const char *)src + L.lb,
                                           call.bufs[BUF_SEND], send_len, 0, 0,
                                           MPI_DATATYPE_NULL, MPI_DATATYPE_NULL }
                            : to_view(&L, src, call.bufs[BUF_SEND], send_n, v->type);
    } else {
        call.bufs[BUF_SEND] = send_len ? (char *)src + L.lb : NULL;
    }
    call.red = (exec_reduce){ .type = L.etype, .op = v->op, .esize = L.esize, .lb = L.lb,
                              .commutative = commutative, .scratch = scr + tmp };
    if (recv_len && !L.direct)
        call.post = from_view(&L, call.bufs[BUF_RECV], v->rbuf, recv_n, v->type);
    return call_launch(mode, &call);
}

int veccoll_type_supported(MPI_Datatype t, MPI_Op op, int reduction)
{
    layout l;
    return t != MPI_DATATYPE_NULL && get_layout(t, op, reduction, &l) == MPI_SUCCESS;
}

int veccoll_call(const vec_call *v, const call_mode *mode)
{
    req_t *nbreq = NULL;
    call_mode nb = { &nbreq, 0 };
    mode = call_mode_for(v->coll, v->spec, mode, &nb);
    int p = 0, me = 0;
    int rc = check_args(v, &p, &me);
    if (rc == MPI_SUCCESS && mode->req)
        rc = request_new(mode->req);
    if (rc == MPI_SUCCESS)
        rc = run(v, p, me, mode);
    if (rc != MPI_SUCCESS)
        call_abandon(mode);
    else if (mode == &nb)
        rc = request_run_once(&nbreq);
    return mpicoll_raise(rc == MPI_ERR_COMM ? MPI_COMM_NULL : v->comm, rc);
}
