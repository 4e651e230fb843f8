/*
 * The communicators of a sweep: splits of the world that give every size
 * from 1 to the world's, some in reverse rank order or strided so that
 * communicator ranks differ from world ranks, as Gloo's and MPICH's tests
 * do. All the communicators of a layout run at once, each its own matrix.
 */
#include "sweep.h"

#include <stdio.h>
#include <time.h>

static struct layout *next(struct layout *out, int *k, int max)
{
    return *k < max ? &out[(*k)++] : NULL;
}

int sweep_layouts(int n, struct layout *out, int max)
{
    int k = 0;
    struct layout *l;

    if (n > SWEEP_MAX_NP)
        return 0;
    if ((l = next(out, &k, max))) {   /* MPI_COMM_WORLD itself */
        snprintf(l->label, sizeof l->label, "world");
        for (int r = 0; r < n; r++) {
            l->color[r] = 0;
            l->key[r] = r;
        }
    }
    /* first h ranks | the other n - h: sizes 1..n-1 */
    for (int h = 1; 2 * h < n && (l = next(out, &k, max)); h++) {
        snprintf(l->label, sizeof l->label, "%d+%d%s", h, n - h, h % 2 ? ",reversed" : "");
        for (int r = 0; r < n; r++) {
            l->color[r] = r < h ? 0 : 1;
            l->key[r] = h % 2 ? n - r : r;
        }
    }
    /* strided, reverse rank order: rank % 2 (the sizes n/2), rank % 3 */
    for (int m = 2; m <= 3; m++) {
        if (n < 2 * m - 2 || n < 2 || !(l = next(out, &k, max)))
            continue;
        snprintf(l->label, sizeof l->label, "rank%%%d,reversed", m);
        for (int r = 0; r < n; r++) {
            l->color[r] = r % m;
            l->key[r] = n - r;
        }
    }
    return k;
}

void sweep_idle_barrier(void)
{
    MPI_Request req;
    int done = 0;
    const struct timespec nap = { 0, 200000 };  /* 0.2 ms */
    MPI_Ibarrier(MPI_COMM_WORLD, &req);
    for (;;) {
        MPI_Test(&req, &done, MPI_STATUS_IGNORE);
        if (done)
            break;
        nanosleep(&nap, NULL);
    }
}
