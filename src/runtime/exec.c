/* The MPI executor: runs a plan with non-blocking point-to-point calls. */
#include "exec.h"
#include "../../include/mpicoll.h"
#include "shm.h"
#include "errors.h"

#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Largest piece of one message: counts are int in MPI-3. */
#define PIECE ((size_t)1 << 30)

static size_t pieces(size_t bytes) { return (bytes + PIECE - 1) / PIECE; }

size_t exec_requests(const plan *pl)
{
    size_t most = 0;
    for (size_t r = 0; r < pl->nrounds; r++) {
        size_t n = 0;
        for (size_t i = 0; i < pl->rounds[r].nops; i++) {
            const plan_op *op = &pl->ops[pl->rounds[r].first + i];
            if (op->kind == OP_SEND || op->kind == OP_RECV)
                n += op->nseg || plan_op_token(op) ? 1 : pieces(op->bytes);
        }
        if (n > most)
            most = n;
    }
    return pl->max_early + most;
}

int exec_types_make(const plan *pl, MPI_Datatype **types)
{
    *types = NULL;
    if (pl->nsegops == 0)
        return MPI_SUCCESS;
    MPI_Datatype *t = malloc(pl->nsegs * sizeof *t);
    int *lens = malloc(pl->nsegs * sizeof *lens);
    MPI_Aint *displs = malloc(pl->nsegs * sizeof *displs);
    int rc;
    for (size_t i = 0; t && i < pl->nsegs; i++)
        t[i] = MPI_DATATYPE_NULL;
    CHECK(t && lens && displs ? MPI_SUCCESS : MPI_ERR_NO_MEM);
    for (size_t i = 0; i < pl->nops; i++) {
        const plan_op *op = &pl->ops[i];
        if ((op->kind != OP_SEND && op->kind != OP_RECV) || op->nseg == 0)
            continue;
        for (uint32_t k = 0; k < op->nseg; k++) {
            const plan_seg *sg = &pl->segs[op->off + k];
            CHECK(sg->bytes > INT_MAX ? MPI_ERR_COUNT : MPI_SUCCESS);
            lens[k] = (int)sg->bytes;
            displs[k] = (MPI_Aint)sg->off;
        }
        CHECK(PMPI_Type_create_hindexed((int)op->nseg, lens, displs, MPI_BYTE, &t[op->off]));
        CHECK(PMPI_Type_commit(&t[op->off]));
    }
    *types = t;
    t = NULL;
out:
    free(lens);
    free(displs);
    exec_types_free(pl, t);
    return rc;
}

void exec_types_free(const plan *pl, MPI_Datatype *types)
{
    for (size_t i = 0; types && i < pl->nsegs; i++)
        if (types[i] != MPI_DATATYPE_NULL)
            PMPI_Type_free(&types[i]);
    free(types);
}

static int post(const plan_op *op, char *base, MPI_Comm comm, int tag, MPI_Request *reqs,
                size_t *n, const MPI_Datatype *types)
{
    int rc = MPI_SUCCESS;
    if (op->nseg) {
        MPI_Datatype t = types[op->off];
        CHECK(op->kind == OP_RECV ? PMPI_Irecv(base, 1, t, op->peer, tag, comm, &reqs[*n])
                                  : PMPI_Isend(base, 1, t, op->peer, tag, comm, &reqs[*n]));
        (*n)++;
    } else if (plan_op_token(op)) {     /* a synchronisation message: 0 bytes */
        CHECK(op->kind == OP_RECV ? PMPI_Irecv(NULL, 0, MPI_BYTE, op->peer, tag, comm, &reqs[*n])
                                  : PMPI_Isend(NULL, 0, MPI_BYTE, op->peer, tag, comm, &reqs[*n]));
        (*n)++;
    } else {
        for (size_t done = 0; done < op->bytes; done += PIECE) {
            size_t len = op->bytes - done < PIECE ? op->bytes - done : PIECE;
            char *at = base + op->off + done;
            CHECK(op->kind == OP_RECV
                      ? PMPI_Irecv(at, (int)len, MPI_BYTE, op->peer, tag, comm, &reqs[*n])
                      : PMPI_Isend(at, (int)len, MPI_BYTE, op->peer, tag, comm, &reqs[*n]));
            (*n)++;
        }
    }
out:
    return rc;
}

/* dst = src ⊕ dst, or dst = dst ⊕ src ("after"), over `bytes` (at most
 * INT_MAX elements); MPI_Reduce_local(in, inout) computes inout = in ⊕ inout. */
static int reduce_piece(char *src, char *dst, size_t bytes, int after,
                        const exec_reduce *red)
{
    int n = (int)(bytes / red->esize);
    src -= red->lb;
    dst -= red->lb;
    if (!after || red->commutative)
        return PMPI_Reduce_local(src, dst, n, red->type, red->op);
    char *old = (char *)red->scratch - red->lb;
    memcpy(old + red->lb, dst + red->lb, bytes);
    memcpy(dst + red->lb, src + red->lb, bytes);
    return PMPI_Reduce_local(old, dst, n, red->type, red->op);
}

/* MPI-3.1's counts are int: more elements are reduced in pieces. */
static int reduce(const plan_op *op, char *src, char *dst, const exec_reduce *red)
{
    if (!red)
        return MPI_ERR_INTERN;
    const size_t most = (size_t)INT_MAX * red->esize;
    for (size_t done = 0; done < op->bytes; done += most) {
        size_t bytes = op->bytes - done < most ? op->bytes - done : most;
        int rc = reduce_piece(src + done, dst + done, bytes, op->after, red);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    return MPI_SUCCESS;
}

/* MPICH's MPI_STATUSES_IGNORE is (MPI_Status *)1, which GCC's access
 * analysis takes for an empty array: a false warning. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wstringop-overflow"
#endif
/* Whether this node runs more ranks than it has processors, as the
 * launcher tells each rank (Open MPI's OMPI_COMM_WORLD_LOCAL_SIZE, MPICH
 * hydra's MPI_LOCALNRANKS); 0 when it does not say. */
static int oversubscribed;
static pthread_once_t oversubscribed_once = PTHREAD_ONCE_INIT;

static void find_oversubscribed(void)
{
    const char *v = getenv("OMPI_COMM_WORLD_LOCAL_SIZE");
    if (!v)
        v = getenv("MPI_LOCALNRANKS");
    long ranks = v ? strtol(v, NULL, 10) : 0, cores = sysconf(_SC_NPROCESSORS_ONLN);
    oversubscribed = cores > 0 && ranks > cores;
}

int exec_wait_yields(void)
{
    pthread_once(&oversubscribed_once, find_oversubscribed);
    return oversubscribed;
}

int mpicoll_node_oversubscribed(void)
{
    return exec_wait_yields();
}

/* A blocking wait on an oversubscribed node tests and yields the
 * processor between tests, as Open MPI's mpi_yield_when_idle does: the
 * rank it waits for may need this core (MPICH's MPI_Waitall spins, and 8
 * ranks on 2 cores then crawl). Otherwise MPI_Waitall. */
int exec_waitall(int n, MPI_Request *reqs)
{
    if (!exec_wait_yields())
        return PMPI_Waitall(n, reqs, MPI_STATUSES_IGNORE);
    for (;;) {
        int flag, rc = PMPI_Testall(n, reqs, &flag, MPI_STATUSES_IGNORE);
        if (rc != MPI_SUCCESS || flag)
            return rc;
        sched_yield();
    }
}

static int wait_round(exec_state *x, int blocking, int *flag)
{
    MPI_Request *reqs = x->reqs + x->pl->max_early;
    *flag = 1;
    if (x->nreq == 0)
        return MPI_SUCCESS;
    if (blocking)
        return exec_waitall((int)x->nreq, reqs);
    return PMPI_Testall((int)x->nreq, reqs, flag, MPI_STATUSES_IGNORE);
}
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

/* Posts the round: its receives (those posted ahead are in the ring
 * already), its sends, then the next rounds' receives that may go now
 * (plan_lookahead). */
static int post_round(exec_state *x)
{
    const plan *pl = x->pl;
    const plan_round *rd = &pl->rounds[x->round];
    const size_t end = rd->first + rd->nops, ring = pl->max_early;
    const size_t ahead = ring ? x->early_next : 0;     /* receives below it are posted */
    MPI_Request *reqs = x->reqs + ring;
    int rc = MPI_SUCCESS;
    x->nreq = 0;
    /* receives first, so that a send's peer finds its receive posted */
    for (size_t i = rd->first; i < end; i++) {
        const plan_op *op = &pl->ops[i];
        if (op->kind != OP_RECV)
            continue;
        if (i < ahead) {
            reqs[x->nreq++] = x->reqs[x->ring_head];
            x->ring_head = (x->ring_head + 1) % ring;
            x->ring_len--;
        } else {
            CHECK(post(op, x->bufs[op->buf], x->comm, x->tag, reqs, &x->nreq, x->types));
        }
    }
    for (size_t i = rd->first; i < end; i++) {
        const plan_op *op = &pl->ops[i];
        if (op->kind == OP_SEND)
            CHECK(post(op, x->bufs[op->buf], x->comm, x->tag, reqs, &x->nreq, x->types));
    }
    if (ring) {
        for (size_t i = ahead > end ? ahead : end; i < rd->early; i++) {
            const plan_op *op = &pl->ops[i];
            if (op->kind != OP_RECV)
                continue;
            size_t n = 0;
            CHECK(post(op, x->bufs[op->buf], x->comm, x->tag,
                       x->reqs + (x->ring_head + x->ring_len) % ring, &n, x->types));
            x->ring_len++;
        }
        x->early_next = rd->early > end ? rd->early : end;
        if (x->early_next < ahead)
            x->early_next = ahead;
    }
    x->posted = 1;
out:
    return rc;
}

static int phase_on;            /* mpicoll_phases_record */
static mpicoll_phases phase;

void mpicoll_phases_record(int on)
{
    if (on)
        phase = (mpicoll_phases){ 0 };
    phase_on = on;
}

void mpicoll_phases_get(mpicoll_phases *out) { *out = phase; }

/* Where an op's time goes when phases are timed (NULL: not a phase). */
static double *phase_of(mpicoll_phases *ph, const plan_op *op)
{
    if (op->kind == OP_PULL)
        return &ph->pull;
    if (op->kind != OP_COPY)
        return NULL;
    if (op->dst_buf == BUF_SHM)
        return &ph->copy_in;
    return op->buf == BUF_SHM ? &ph->copy_out : NULL;
}

/* ph: NULL, or the phases that each op's time is added to. */
static int local_ops(exec_state *x, mpicoll_phases *ph)
{
    const plan_op *ops = x->pl->ops + x->pl->rounds[x->round].first;
    for (size_t i = 0; i < x->pl->rounds[x->round].nops; i++) {
        const plan_op *op = &ops[i];
        if (op->kind == OP_SEND || op->kind == OP_RECV)
            continue;
        char *dst = (char *)x->bufs[op->dst_buf] + op->dst_off;
        int rc = MPI_SUCCESS;
        double t0 = ph ? PMPI_Wtime() : 0;
        if (op->kind == OP_COPY)
            memmove(dst, (char *)x->bufs[op->buf] + op->off, op->bytes);
        else if (op->kind == OP_REDUCE)
            rc = reduce(op, (char *)x->bufs[op->buf] + op->off, dst, x->red);
        else if (op->kind == OP_PUBLISH)
            shm_publish(dst, x->bufs);
        else if (op->kind == OP_PULL)
            rc = shm_pull((char *)x->bufs[BUF_SHM] + op->pub, op->buf, op->off, dst, op->bytes);
        double *acc = ph ? phase_of(ph, op) : NULL;
        if (acc)
            *acc += PMPI_Wtime() - t0;
        if (rc != MPI_SUCCESS)
            return rc;
    }
    return MPI_SUCCESS;
}

void exec_begin(exec_state *x)
{
    x->round = 0;
    x->nreq = 0;
    x->early_next = 0;
    x->ring_head = 0;
    x->ring_len = 0;
    x->posted = 0;
    x->arrived = 0;
    if (x->shm)
        x->bufs[BUF_SHM] = shm_begin_call(x->shm);
    if (x->shm && phase_on)
        phase.seg = x->bufs[BUF_SHM];
}

/* A round that begins with a node barrier: 1 once passed (blocking: waits). */
static int barrier(exec_state *x, int blocking)
{
    if (!x->arrived) {
        shm_arrive(x->shm);
        x->arrived = 1;
    }
    if (blocking)
        shm_wait(x->shm);
    else if (!shm_passed(x->shm)) {
        x->spinning = shm_spin_more(x->shm);
        return 0;
    }
    return 1;
}

/* Whether the round may begin: one that begins with a node barrier once
 * that is passed; the first of a call once the barrier an earlier call on
 * the channel left (shm_left) is, since the call may write the copy of
 * the segment that barrier guards; any other at once. */
static int may_begin(exec_state *x, int blocking)
{
    if (x->pl->rounds[x->round].sync)
        return barrier(x, blocking);
    if (x->round == 0 && x->shm && shm_left(x->shm)) {
        x->arrived = 1;     /* there already */
        return barrier(x, blocking);
    }
    return 1;
}

/* Whether the round is the plan's last and only a node barrier, which the
 * call may leave unpassed (shm_leave): nothing of it follows on this
 * rank, and no peer reads this rank's buffers (plan_publish: the single
 * copy, whose last barrier keeps its owner from returning too early). */
static int may_leave(const exec_state *x)
{
    const plan_round *r = &x->pl->rounds[x->round];
    return x->round + 1 == x->pl->nrounds && r->sync && r->nops == 0 && !x->pl->npubs;
}

int exec_progress(exec_state *x, int blocking, int *done)
{
    int rc = MPI_SUCCESS, flag = 0, passed;
    mpicoll_phases *ph = phase_on && x->shm ? &phase : NULL;
    double t0;
    *done = 0;
    x->spinning = 0;
    if (x->pl->shm_bytes && !x->shm)
        return MPI_ERR_INTERN;
    while (x->round < x->pl->nrounds) {
        if (may_leave(x)) {
            /* one test: passed when the others are there already (a
             * barrier after each call, as OSU times them), so that the
             * next call need not fetch their flags first */
            if (!x->arrived)
                shm_arrive(x->shm);
            if (!shm_passed(x->shm))
                shm_leave(x->shm);
            x->round++;
            x->arrived = 0;
            break;
        }
        t0 = ph ? PMPI_Wtime() : 0;
        passed = x->posted || may_begin(x, blocking);
        if (passed && !x->posted)
            CHECK(post_round(x));
        if (passed)
            CHECK(wait_round(x, blocking, &flag));
        if (ph)
            ph->wait += PMPI_Wtime() - t0;
        if (!passed || !flag)
            return MPI_SUCCESS;     /* not yet: never blocks unless asked to */
        CHECK(local_ops(x, ph));
        x->round++;
        x->posted = 0;
        x->arrived = 0;
    }
    *done = 1;
    if (ph)
        ph->calls++;
out:
    return rc;
}
