/* The MPI executor: runs a plan with non-blocking point-to-point calls. */
#include "runtime.h"

#include <limits.h>
#include <string.h>

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
            if (op->kind != OP_COPY)
                n += pieces(op->bytes);
        }
        if (n > most)
            most = n;
    }
    return most;
}

static int post(const plan_op *op, char *base, MPI_Comm comm, int tag, MPI_Request *reqs,
                size_t *n)
{
    for (size_t done = 0; done < op->bytes; done += PIECE) {
        size_t len = op->bytes - done < PIECE ? op->bytes - done : PIECE;
        char *at = base + op->off + done;
        int rc = op->kind == OP_RECV
                     ? PMPI_Irecv(at, (int)len, MPI_BYTE, op->peer, tag, comm, &reqs[*n])
                     : PMPI_Isend(at, (int)len, MPI_BYTE, op->peer, tag, comm, &reqs[*n]);
        if (rc != MPI_SUCCESS)
            return rc;
        (*n)++;
    }
    return MPI_SUCCESS;
}

int exec_plan(const plan *pl, void *const bufs[PLAN_NBUF], MPI_Comm comm, int tag,
              MPI_Request *reqs)
{
    for (size_t r = 0; r < pl->nrounds; r++) {
        const plan_op *ops = pl->ops + pl->rounds[r].first;
        size_t nops = pl->rounds[r].nops, n = 0;
        /* receives first, so that a send's peer finds its receive posted */
        for (int pass = 0; pass < 2; pass++) {
            for (size_t i = 0; i < nops; i++) {
                if (ops[i].kind != (pass ? OP_SEND : OP_RECV))
                    continue;
                int rc = post(&ops[i], bufs[ops[i].buf], comm, tag, reqs, &n);
                if (rc != MPI_SUCCESS)
                    return rc;
            }
        }
        if (n) {
            int rc = PMPI_Waitall((int)n, reqs, MPI_STATUSES_IGNORE);
            if (rc != MPI_SUCCESS)
                return rc;
        }
        for (size_t i = 0; i < nops; i++)
            if (ops[i].kind == OP_COPY)
                memmove((char *)bufs[ops[i].dst_buf] + ops[i].dst_off,
                        (char *)bufs[ops[i].buf] + ops[i].off, ops[i].bytes);
    }
    return MPI_SUCCESS;
}
