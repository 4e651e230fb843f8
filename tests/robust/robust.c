/* What the robustness tests share (robust.h). */
#include "robust.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The names: the rows of include/mpicoll_collectives.h, whose order
 * enum rb_coll follows (a row more without its entry fails here). */
#define RB_NAME_(name, Name, family) #name,
#define RB_ONE_(name, Name, family) +1
const char *const rb_names[NCOLL] = { MPICOLL_COLLECTIVES(RB_NAME_) };
_Static_assert(NCOLL == 0 MPICOLL_COLLECTIVES(RB_ONE_),
               "enum rb_coll: one entry per row of include/mpicoll_collectives.h, in its order");
const char *const rb_form_names[NFORMS] = { "blocking", "with", "nonblocking", "persistent" };

int rb_coll_index(const char *name)
{
    for (int c = 0; c < NCOLL; c++)
        if (!strcmp(name, rb_names[c]))
            return c;
    return -1;
}

int rb_main_colls(int argc, char **argv, const char *test, int *rank, int *size,
                  void (*each)(enum rb_coll), const int *failures)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, rank);
    MPI_Comm_size(MPI_COMM_WORLD, size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    const int n = argc - 1;
    int colls[NCOLL], bad = n < 1 || n > NCOLL;
    for (int i = 0; !bad && i < n; i++)
        bad = (colls[i] = rb_coll_index(argv[i + 1])) < 0;
    if (bad) {
        if (*rank == 0)
            printf("FAIL %s: usage: test_%s COLLECTIVE... (at most %d)\n", test, test, NCOLL);
        MPI_Finalize();
        return 2;
    }
    for (int i = 0; i < n; i++)
        each((enum rb_coll)colls[i]);
    int any;
    MPI_Allreduce(failures, &any, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Finalize();
    return any != 0;
}

int rb_start(enum rb_coll c, enum rb_form f, const struct rb_args *a, mpicoll_request *r)
{
    const char *alg = a->algorithm ? a->algorithm : mpicoll_algorithm_name(rb_names[c], 0);
    mpicoll_request *rq = a->null_request ? NULL : r;
    const void *sb = a->sbuf;
    void *rb = a->rbuf;
    const int sn = a->scount, n = a->rcount, root = a->root;
    const MPI_Datatype st = a->stype, t = a->rtype;
    const MPI_Op op = a->op;
    const MPI_Comm comm = a->comm;
    switch (c) {
    case AG:
        return f == BLOCKING ? mpicoll_allgather(sb, sn, st, rb, n, t, comm)
             : f == WITH ? mpicoll_allgather_with(alg, sb, sn, st, rb, n, t, comm)
             : f == NB ? mpicoll_iallgather(sb, sn, st, rb, n, t, comm, rq)
             : mpicoll_allgather_init(sb, sn, st, rb, n, t, comm, rq);
    case A2A:
        return f == BLOCKING ? mpicoll_alltoall(sb, sn, st, rb, n, t, comm)
             : f == WITH ? mpicoll_alltoall_with(alg, sb, sn, st, rb, n, t, comm)
             : f == NB ? mpicoll_ialltoall(sb, sn, st, rb, n, t, comm, rq)
             : mpicoll_alltoall_init(sb, sn, st, rb, n, t, comm, rq);
    case AR:
        return f == BLOCKING ? mpicoll_allreduce(sb, rb, n, t, op, comm)
             : f == WITH ? mpicoll_allreduce_with(alg, sb, rb, n, t, op, comm)
             : f == NB ? mpicoll_iallreduce(sb, rb, n, t, op, comm, rq)
             : mpicoll_allreduce_init(sb, rb, n, t, op, comm, rq);
    case RED:
        return f == BLOCKING ? mpicoll_reduce(sb, rb, n, t, op, root, comm)
             : f == WITH ? mpicoll_reduce_with(alg, sb, rb, n, t, op, root, comm)
             : f == NB ? mpicoll_ireduce(sb, rb, n, t, op, root, comm, rq)
             : mpicoll_reduce_init(sb, rb, n, t, op, root, comm, rq);
    case AGV: {
        /* every rank's count n, in rank order (robust tests run on at most
         * RB_MAX_P ranks); requests keep their own copy */
        enum { RB_MAX_P = 64 };
        static _Thread_local int counts[RB_MAX_P], displs[RB_MAX_P];
        for (int i = 0; i < RB_MAX_P; i++) {
            counts[i] = n;
            displs[i] = i * n;
        }
        return f == BLOCKING ? mpicoll_allgatherv(sb, sn, st, rb, counts, displs, t, comm)
             : f == WITH ? mpicoll_allgatherv_with(alg, sb, sn, st, rb, counts, displs, t, comm)
             : f == NB ? mpicoll_iallgatherv(sb, sn, st, rb, counts, displs, t, comm, rq)
             : mpicoll_allgatherv_init(sb, sn, st, rb, counts, displs, t, comm, rq);
    }
    case RS: {
        enum { RB_MAX_P = 64 };
        static _Thread_local int counts[RB_MAX_P];
        for (int i = 0; i < RB_MAX_P; i++)
            counts[i] = n;
        return f == BLOCKING ? mpicoll_reduce_scatter(sb, rb, counts, t, op, comm)
             : f == WITH ? mpicoll_reduce_scatter_with(alg, sb, rb, counts, t, op, comm)
             : f == NB ? mpicoll_ireduce_scatter(sb, rb, counts, t, op, comm, rq)
             : mpicoll_reduce_scatter_init(sb, rb, counts, t, op, comm, rq);
    }
    case BC:
        return f == BLOCKING ? mpicoll_bcast(rb, n, t, root, comm)
             : f == WITH ? mpicoll_bcast_with(alg, rb, n, t, root, comm)
             : f == NB ? mpicoll_ibcast(rb, n, t, root, comm, rq)
             : mpicoll_bcast_init(rb, n, t, root, comm, rq);
    case SCAN:
        return f == BLOCKING ? mpicoll_scan(sb, rb, n, t, op, comm)
             : f == WITH ? mpicoll_scan_with(alg, sb, rb, n, t, op, comm)
             : f == NB ? mpicoll_iscan(sb, rb, n, t, op, comm, rq)
             : mpicoll_scan_init(sb, rb, n, t, op, comm, rq);
    case EXS:
        return f == BLOCKING ? mpicoll_exscan(sb, rb, n, t, op, comm)
             : f == WITH ? mpicoll_exscan_with(alg, sb, rb, n, t, op, comm)
             : f == NB ? mpicoll_iexscan(sb, rb, n, t, op, comm, rq)
             : mpicoll_exscan_init(sb, rb, n, t, op, comm, rq);
    case GA:
        return f == BLOCKING ? mpicoll_gather(sb, sn, st, rb, n, t, root, comm)
             : f == WITH ? mpicoll_gather_with(alg, sb, sn, st, rb, n, t, root, comm)
             : f == NB ? mpicoll_igather(sb, sn, st, rb, n, t, root, comm, rq)
             : mpicoll_gather_init(sb, sn, st, rb, n, t, root, comm, rq);
    case GV:
    case SCV: {     /* the counted side's count for every rank, in rank order (as AGV) */
        enum { RB_MAX_P = 64 };
        static _Thread_local int counts[RB_MAX_P], displs[RB_MAX_P];
        const int cn = c == GV ? n : sn;
        for (int i = 0; i < RB_MAX_P; i++) {
            counts[i] = cn;
            displs[i] = i * cn;
        }
        if (c == GV)
            return f == BLOCKING ? mpicoll_gatherv(sb, sn, st, rb, counts, displs, t, root, comm)
                 : f == WITH ? mpicoll_gatherv_with(alg, sb, sn, st, rb, counts, displs, t, root,
                                                    comm)
                 : f == NB ? mpicoll_igatherv(sb, sn, st, rb, counts, displs, t, root, comm, rq)
                 : mpicoll_gatherv_init(sb, sn, st, rb, counts, displs, t, root, comm, rq);
        return f == BLOCKING ? mpicoll_scatterv(sb, counts, displs, st, rb, n, t, root, comm)
             : f == WITH ? mpicoll_scatterv_with(alg, sb, counts, displs, st, rb, n, t, root, comm)
             : f == NB ? mpicoll_iscatterv(sb, counts, displs, st, rb, n, t, root, comm, rq)
             : mpicoll_scatterv_init(sb, counts, displs, st, rb, n, t, root, comm, rq);
    }
    case A2AV: {    /* every pair's count (sn sent, n received), in rank order (as AGV) */
        enum { RB_MAX_P = 64 };
        static _Thread_local int sc[RB_MAX_P], sd[RB_MAX_P], rc[RB_MAX_P], rd[RB_MAX_P];
        for (int i = 0; i < RB_MAX_P; i++) {
            sc[i] = sn;
            sd[i] = i * sn;
            rc[i] = n;
            rd[i] = i * n;
        }
        return f == BLOCKING ? mpicoll_alltoallv(sb, sc, sd, st, rb, rc, rd, t, comm)
             : f == WITH ? mpicoll_alltoallv_with(alg, sb, sc, sd, st, rb, rc, rd, t, comm)
             : f == NB ? mpicoll_ialltoallv(sb, sc, sd, st, rb, rc, rd, t, comm, rq)
             : mpicoll_alltoallv_init(sb, sc, sd, st, rb, rc, rd, t, comm, rq);
    }
    case SC:
        return f == BLOCKING ? mpicoll_scatter(sb, sn, st, rb, n, t, root, comm)
             : f == WITH ? mpicoll_scatter_with(alg, sb, sn, st, rb, n, t, root, comm)
             : f == NB ? mpicoll_iscatter(sb, sn, st, rb, n, t, root, comm, rq)
             : mpicoll_scatter_init(sb, sn, st, rb, n, t, root, comm, rq);
    case BAR:
        return f == BLOCKING ? mpicoll_barrier(comm)
             : f == WITH ? mpicoll_barrier_with(alg, comm)
             : f == NB ? mpicoll_ibarrier(comm, rq)
             : mpicoll_barrier_init(comm, rq);
    default:
        return f == BLOCKING ? mpicoll_reduce_scatter_block(sb, rb, n, t, op, comm)
             : f == WITH ? mpicoll_reduce_scatter_block_with(alg, sb, rb, n, t, op, comm)
             : f == NB ? mpicoll_ireduce_scatter_block(sb, rb, n, t, op, comm, rq)
             : mpicoll_reduce_scatter_block_init(sb, rb, n, t, op, comm, rq);
    }
}

int rb_run(enum rb_coll c, enum rb_form f, const struct rb_args *a)
{
    mpicoll_request r = MPICOLL_REQUEST_NULL;
    int rc = rb_start(c, f, a, &r);
    if (rc != MPI_SUCCESS || f == BLOCKING || f == WITH)
        return rc;
    if (f == PERSISTENT && (rc = mpicoll_start(&r)) != MPI_SUCCESS)
        return rc;
    rc = mpicoll_wait(&r);
    if (rc == MPI_SUCCESS && f == PERSISTENT)
        rc = mpicoll_request_free(&r);
    return rc;
}

int rb_data_init(struct rb_data *d, int n, MPI_Comm comm)
{
    MPI_Comm_size(comm, &d->p);
    MPI_Comm_rank(comm, &d->rank);
    d->n = n;
    d->send = malloc(((size_t)d->p * (size_t)n + 1) * sizeof(int));
    d->recv = malloc(((size_t)d->p * (size_t)n + 1) * sizeof(int));
    return d->send && d->recv ? 0 : -1;
}

void rb_data_free(struct rb_data *d)
{
    free(d->send);
    free(d->recv);
    d->send = d->recv = NULL;
}

static int value(int r, int i) { return r * 10000 + i; }

struct rb_args rb_prepare(enum rb_coll c, struct rb_data *d, MPI_Comm comm)
{
    const int total = d->p * d->n, root = d->p - 1;
    for (int i = 0; i < total; i++) {
        d->send[i] = value(d->rank, i);
        d->recv[i] = c == BC && d->rank == root ? value(root, i) : -1;
    }
    d->recv[total] = -1;
    struct rb_args a = { d->send, d->recv, d->n, d->n, MPI_INT, MPI_INT,
                         c == BC || c == AG || c == AGV || c == A2A || c == GA || c == SC ||
                         c == GV || c == SCV || c == A2AV ||
                         c == BAR ? MPI_OP_NULL : MPI_SUM,
                         root, comm,
                         NULL, 0 };
    return a;
}

int rb_in_place(enum rb_coll c, struct rb_data *d, struct rb_args *a)
{
    c = c == GV ? GA : c == SCV ? SC : c == A2AV ? A2A : c;
    if (c == AGV)
        c = AG;
    if (c == RS)
        c = RSB;
    const int n = d->n, p = d->p, r = d->rank;
    if (c == BAR)
        return 0;
    if (c == BC || ((c == RED || c == GA || c == SC) && r != p - 1))
        return c != BC;     /* a rooted collective's non-roots call as usual */
    if (c == SC) {          /* the root's block stays in its send buffer */
        for (int i = 0; i < n; i++)
            d->recv[i] = value(r, r * n + i);
        a->rbuf = MPI_IN_PLACE;
        return 1;
    }
    /* the elements of the send data that sit in the receive buffer */
    const int first = c == AG || c == GA ? r * n : 0;
    const int len = c == AG || c == GA || c == AR || c == RED || c == SCAN || c == EXS ? n : p * n;
    for (int i = 0; i < len; i++)
        d->recv[first + i] = value(r, i);
    a->sbuf = MPI_IN_PLACE;
    return 1;
}

int rb_check(enum rb_coll c, const struct rb_data *d, int *got, int *want)
{
    c = c == GV ? GA : c == SCV ? SC : c == A2AV ? A2A : c;
    if (c == AGV)
        c = AG;
    if (c == RS)
        c = RSB;
    const int n = d->n, p = d->p, r = d->rank, root = p - 1, sum = 10000 * (p * (p - 1) / 2);
    const int len = c == AG || c == A2A || (c == GA && r == root) ? p * n
                  : ((c == RED || c == GA) && r != root) || (c == EXS && r == 0) || c == BAR ? 0
                  : n;
    /* scan's and exscan's sums: over ranks 0..q - 1 */
    const int q = c == SCAN ? r + 1 : r, prefix = 10000 * (q * (q - 1) / 2);
    for (int i = 0; i < len; i++) {
        int w = c == AG || c == GA ? value(i / n, i % n)
              : c == SC ? value(root, r * n + i)
              : c == A2A ? value(i / n, r * n + i % n)
              : c == BC ? value(root, i)
              : c == RSB ? sum + p * (r * n + i)
              : c == SCAN || c == EXS ? prefix + q * i
              : sum + p * i;
        if (d->recv[i] != w) {
            *got = d->recv[i];
            *want = w;
            return i;
        }
    }
    /* a reduce's or gather's non-root buffer, and the element past every
     * buffer, untouched */
    if ((c == RED || c == GA) && r != root && d->recv[0] != -1) {
        *got = d->recv[0];
        *want = -1;
        return 0;
    }
    if (d->recv[p * n] != -1) {
        *got = d->recv[p * n];
        *want = -1;
        return p * n;
    }
    return -1;
}
