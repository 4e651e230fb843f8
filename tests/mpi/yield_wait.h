/*
 * yield_wait: completes a request by testing it and yielding the processor
 * in between. The tests' reference calls to the MPI library's own
 * collectives go through their non-blocking forms and this wait: MPICH's
 * blocking calls spin without yielding, so with more ranks than cores
 * (8 ranks on 2 cores in CI) each one costs scheduler ticks (an
 * MPI_Barrier of MPICH 4.0 took 34 ms at 8 ranks here, Ibarrier and this
 * wait 54 us).
 */
#ifndef MPICOLL_TEST_YIELD_WAIT_H
#define MPICOLL_TEST_YIELD_WAIT_H

#include <mpi.h>
#include <sched.h>

/* rc of the call that started the request; returns that of the wait */
static inline int yield_wait(int rc, MPI_Request *req)
{
    int done = 0;
    if (rc != MPI_SUCCESS)
        return rc;
    while ((rc = MPI_Test(req, &done, MPI_STATUS_IGNORE)) == MPI_SUCCESS && !done)
        sched_yield();
    return rc;
}

#endif
