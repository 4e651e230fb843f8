/*
 * The entry path shared by the collectives on one vector per rank
 * (allreduce, reduce, bcast, reduce_scatter_block): argument checks,
 * selection, the plan, datatypes, MPI_IN_PLACE, execution.
 *
 * Plans see an element as one item of the user's datatype at its extent
 * (esize = extent), the vector starting at the buffer's true lower bound.
 * A contiguous type is used in the user's buffers as it is. Any other
 * type (pair types, vectors with gaps, structs) runs on scratch, filled and
 * emptied with typed copies, so gaps in the user's buffers are never
 * written nor read past; MPI_Reduce_local is called with the type itself,
 * which serves predefined pair types and user operations alike.
 */
#include "runtime.h"

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

typedef struct layout {
    dt_view dv;
    MPI_Aint lb;            /* true lower bound: where element 0's data starts */
    size_t ext;
    int direct;             /* contiguous: plans run in the user's buffers */
} layout;

static int get_layout(MPI_Datatype t, layout *l)
{
    MPI_Aint true_extent;
    int rc = dt_view_get(t, &l->dv);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Type_get_true_extent(t, &l->lb, &true_extent);
    if (rc != MPI_SUCCESS)
        return MPI_ERR_TYPE;
    if (l->dv.extent <= 0 || true_extent > l->dv.extent || l->lb < 0)
        return MPI_ERR_TYPE;    /* overlapping or negative layouts: not supported */
    l->ext = (size_t)l->dv.extent;
    l->direct = l->dv.contig;
    return MPI_SUCCESS;
}

/* The plan's view of a user buffer of n elements: the buffer itself
 * (contiguous types), or scratch at `scr` that holds the elements at their
 * extent, as the user's buffer would, from its true lower bound. */
static char *plan_view(const layout *l, const void *user, char *scr)
{
    return l->direct ? (char *)user + l->lb : scr;
}

static int run(const vec_call *v, int p, int me)
{
    const coll_desc *c = v->coll;
    comm_state *st;
    layout L;
    int rc = comm_state_get(v->comm, &st);
    if (rc == MPI_SUCCESS)
        rc = get_layout(v->type, &L);
    if (rc != MPI_SUCCESS)
        return rc;
    if (v->count == 0 || L.dv.size == 0)
        return MPI_SUCCESS;
    const int inplace = v->sbuf == MPI_IN_PLACE;
    const size_t block = (size_t)v->count * L.ext;
    const coll_shape shape = { .p = p, .rank = me, .root = v->root, .block = block };
    const size_t send_len = c->send_bytes(&shape), recv_len = c->recv_bytes(&shape);
    const size_t alias = inplace && c->inplace_offset ? c->inplace_offset(&shape) : NO_ALIAS;
    if ((recv_len && !v->rbuf) || (send_len && !inplace && !v->sbuf))
        return MPI_ERR_BUFFER;

    int commutative = 1;
    if (c->reduction && PMPI_Op_commutative(v->op, &commutative) != MPI_SUCCESS)
        return MPI_ERR_OP;
    /* the message size: the whole vector's data bytes */
    call_info ci = { .p = p, .nnodes = 1, .commutative = commutative,
                     .bytes = (send_len > recv_len ? send_len : recv_len) / L.ext *
                              (size_t)L.dv.size };
    if (select_needs_nodes(c) && (rc = comm_state_nodes(st, &ci.nnodes)) != MPI_SUCCESS)
        return rc;
    choice ch;
    char err[512];
    rc = select_choose(c, v->spec, 1, &ci, &ch, err, sizeof err);
    if (rc != MPI_SUCCESS) {
        if (me == 0)
            mpicoll_print_error(err);
        return rc;
    }
    select_log(c, &ch, &ci, me);
    const ready_plan *rp;
    plan_args pa = { .block = block, .esize = L.ext, .root = v->root,
                     .commutative = commutative, .inplace = alias != NO_ALIAS };
    rc = comm_state_plan(st, c, &ch, pa, &rp);
    if (rc != MPI_SUCCESS)
        return rc;

    /* scratch: [TMP | after-reduce | receive view | send view] */
    const int own_send = send_len && (!L.direct || (inplace && alias == NO_ALIAS));
    size_t tmp = align64(rp->pl.tmp_bytes), aft = align64(rp->pl.max_after);
    size_t rv = L.direct ? 0 : align64(recv_len), sv = own_send ? send_len : 0;
    char *scr = comm_state_scratch(st, tmp + aft + rv + sv);
    if (!scr)
        return MPI_ERR_NO_MEM;
    void *bufs[PLAN_NBUF];
    bufs[BUF_TMP] = scr;
    bufs[BUF_RECV] = recv_len ? plan_view(&L, v->rbuf, scr + tmp + aft) : NULL;
    /* the send data: the user's send buffer, or inside the receive buffer
     * (in place), or a copy of whichever holds it */
    const void *src = inplace ? v->rbuf : v->sbuf;
    if (alias != NO_ALIAS) {
        bufs[BUF_SEND] = (char *)bufs[BUF_RECV] + alias;
        if (!L.direct)
            rc = dt_copy(src, (char *)bufs[BUF_SEND] - L.lb, send_len / L.ext, v->type);
    } else if (own_send) {
        bufs[BUF_SEND] = scr + tmp + aft + rv;
        if (L.direct)
            memcpy(bufs[BUF_SEND], (const char *)src + L.lb, send_len);
        else
            rc = dt_copy(src, (char *)bufs[BUF_SEND] - L.lb, send_len / L.ext, v->type);
    } else {
        bufs[BUF_SEND] = send_len ? (char *)src + L.lb : NULL;
    }
    exec_reduce red = { .type = v->type, .op = v->op, .esize = L.ext, .lb = L.lb,
                        .commutative = commutative, .scratch = scr + tmp };
    if (rc == MPI_SUCCESS)
        rc = comm_state_run(st, c, rp, bufs, c->reduction ? &red : NULL);
    if (rc == MPI_SUCCESS && recv_len && !L.direct)
        rc = dt_copy((char *)bufs[BUF_RECV] - L.lb, v->rbuf, recv_len / L.ext, v->type);
    return rc;
}

int veccoll_call(const vec_call *v)
{
    int p = 0, me = 0;
    int rc = check_args(v, &p, &me);
    if (rc == MPI_SUCCESS)
        rc = run(v, p, me);
    return mpicoll_raise(rc == MPI_ERR_COMM ? MPI_COMM_NULL : v->comm, rc);
}
