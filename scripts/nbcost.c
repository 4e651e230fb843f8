/*
 * What a collective costs through whatever front end the program runs
 * under (Open MPI's coll component, the preload library, or none), and
 * what its non-blocking form waited at once costs beside the blocking
 * one: a plain MPI program.
 *
 *   mpicc -O2 scripts/nbcost.c -o nbcost
 *   mpirun -n 2 --mca mca_base_component_path <pkglibdir>:build ./nbcost [BYTES [osu|b2b [COLL,...]]]
 *
 * Each collective (default allreduce,bcast; "all": the 16) with BYTES
 * (default 8) of MPI_BYTE in each block (a rank's block; the vector of
 * the reductions, MPI_BOR; the counts of the v-collectives all BYTES,
 * their blocks in rank order), root 0, blocking against the non-blocking
 * call + MPI_Wait, in interleaved chunks of 1000 calls after a warm-up
 * (so that both see the same machine). Back to back by default: a
 * chunk's time is the slowest rank's, per call. With `osu`, as the OSU
 * benchmarks time a collective (osu_bcast, and osu_ibcast's pure
 * communication time): each call timed alone, a barrier after it, a
 * chunk's time the mean over the ranks of their mean call. Rank 0 prints
 * a line per collective: the median time per call of each form and the
 * ratio nb/blocking.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { CHUNK = 1000, CHUNKS = 21, NCOLL = 16 };

static const char *names[NCOLL] = {
    "allreduce", "bcast", "reduce", "allgather", "allgatherv", "alltoall", "alltoallv",
    "gather", "gatherv", "scatter", "scatterv", "reduce_scatter", "reduce_scatter_block",
    "scan", "exscan", "barrier",
};

static int np, bytes;
static char *in, *out;
static int *counts, *displs;

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp);
    return v[n / 2];
}

/* MPI_<Name>(args), or MPI_I<name>(args) + MPI_Wait */
#define FORM(nb, Name, name, ...)                           \
    do {                                                    \
        if (nb) {                                           \
            MPI_Request q_;                                 \
            MPI_I##name(__VA_ARGS__, &q_);                  \
            MPI_Wait(&q_, MPI_STATUS_IGNORE);               \
        } else {                                            \
            MPI_##Name(__VA_ARGS__);                        \
        }                                                   \
    } while (0)

/* One call of collective c, blocking or not. */
static void call(int c, int nb)
{
    const MPI_Comm w = MPI_COMM_WORLD;
    const MPI_Datatype b = MPI_BYTE;
    switch (c) {
    case 0: FORM(nb, Allreduce, allreduce, in, out, bytes, b, MPI_BOR, w); break;
    case 1: FORM(nb, Bcast, bcast, out, bytes, b, 0, w); break;
    case 2: FORM(nb, Reduce, reduce, in, out, bytes, b, MPI_BOR, 0, w); break;
    case 3: FORM(nb, Allgather, allgather, in, bytes, b, out, bytes, b, w); break;
    case 4: FORM(nb, Allgatherv, allgatherv, in, bytes, b, out, counts, displs, b, w); break;
    case 5: FORM(nb, Alltoall, alltoall, in, bytes, b, out, bytes, b, w); break;
    case 6: FORM(nb, Alltoallv, alltoallv, in, counts, displs, b, out, counts, displs, b, w);
        break;
    case 7: FORM(nb, Gather, gather, in, bytes, b, out, bytes, b, 0, w); break;
    case 8: FORM(nb, Gatherv, gatherv, in, bytes, b, out, counts, displs, b, 0, w); break;
    case 9: FORM(nb, Scatter, scatter, in, bytes, b, out, bytes, b, 0, w); break;
    case 10: FORM(nb, Scatterv, scatterv, in, counts, displs, b, out, bytes, b, 0, w); break;
    case 11: FORM(nb, Reduce_scatter, reduce_scatter, in, out, counts, b, MPI_BOR, w); break;
    case 12: FORM(nb, Reduce_scatter_block, reduce_scatter_block, in, out, bytes, b, MPI_BOR, w);
        break;
    case 13: FORM(nb, Scan, scan, in, out, bytes, b, MPI_BOR, w); break;
    case 14: FORM(nb, Exscan, exscan, in, out, bytes, b, MPI_BOR, w); break;
    default:
        if (nb) {
            MPI_Request q;
            MPI_Ibarrier(w, &q);
            MPI_Wait(&q, MPI_STATUS_IGNORE);
        } else {
            MPI_Barrier(w);
        }
    }
}

/* One chunk: seconds per call, back to back (the slowest rank's) or OSU's
 * way (the ranks' mean). */
static double chunk(int c, int nb, int osu)
{
    MPI_Barrier(MPI_COMM_WORLD);
    double t = 0, r;
    if (osu) {
        for (int i = 0; i < CHUNK; i++) {
            double t0 = MPI_Wtime();
            call(c, nb);
            t += MPI_Wtime() - t0;
            MPI_Barrier(MPI_COMM_WORLD);
        }
    } else {
        t = MPI_Wtime();
        for (int i = 0; i < CHUNK; i++)
            call(c, nb);
        t = MPI_Wtime() - t;
    }
    t /= CHUNK;
    MPI_Allreduce(&t, &r, 1, MPI_DOUBLE, osu ? MPI_SUM : MPI_MAX, MPI_COMM_WORLD);
    return osu ? r / np : r;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank;
    bytes = argc > 1 ? atoi(argv[1]) : 8;
    const int osu = argc > 2 && strcmp(argv[2], "osu") == 0;
    const char *list = argc > 3 ? argv[3] : "allreduce,bcast";
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    int run[NCOLL], nrun = 0;
    for (int c = 0; c < NCOLL; c++) {
        const char *at = strstr(list, names[c]);
        const size_t n = strlen(names[c]);
        /* a whole name of the comma-separated list */
        while (at && !((at == list || at[-1] == ',') && (at[n] == ',' || at[n] == '\0')))
            at = strstr(at + 1, names[c]);
        if (strcmp(list, "all") == 0 || at)
            run[nrun++] = c;
    }
    if (nrun == 0) {
        if (rank == 0)
            fprintf(stderr, "nbcost: no collective in \"%s\"\n", list);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    const size_t all = (size_t)bytes * (size_t)np + 1;
    in = calloc(all, 1);
    out = calloc(all, 1);
    counts = malloc(2 * sizeof(int) * (size_t)np);
    displs = counts + np;
    for (int r = 0; r < np; r++) {
        counts[r] = bytes;
        displs[r] = r * bytes;
    }
    static double t[NCOLL][2][CHUNKS];
    for (int i = 0; i < nrun; i++)
        for (int nb = 0; nb < 2; nb++)
            chunk(run[i], nb, osu);     /* warm-up */
    for (int k = 0; k < CHUNKS; k++)
        for (int i = 0; i < nrun; i++)
            for (int nb = 0; nb < 2; nb++)
                t[i][nb][k] = chunk(run[i], nb, osu);
    for (int i = 0; rank == 0 && i < nrun; i++) {
        const double b = median(t[i][0], CHUNKS), n = median(t[i][1], CHUNKS);
        printf("np=%d bytes=%d %s blocking %.3f us nb+wait %.3f us ratio %.3f\n", np, bytes,
               names[run[i]], b * 1e6, n * 1e6, n / b);
    }
    free(in);
    free(out);
    free(counts);
    MPI_Finalize();
    return 0;
}
