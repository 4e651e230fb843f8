/*
 * What a non-blocking collective waited at once costs beside the blocking
 * one, through whatever front end the program runs under (Open MPI's coll
 * component, the preload library, or none): a plain MPI program.
 *
 *   mpicc -O2 scripts/nbcost.c -o nbcost
 *   mpirun -n 2 --mca mca_base_component_path <pkglibdir>:build ./nbcost [BYTES] [osu]
 *
 * MPI_Allreduce of BYTES (default 8) of MPI_BYTE with MPI_BOR, blocking
 * against MPI_Iallreduce + MPI_Wait, and MPI_Bcast against MPI_Ibcast +
 * MPI_Wait, in interleaved chunks of 1000 calls after a warm-up (so that
 * both see the same machine). Back to back by default: a chunk's time is
 * the slowest rank's, per call. With `osu`, as the OSU benchmarks time a
 * collective (osu_bcast, and osu_ibcast's pure communication time): each
 * call timed alone, a barrier after it, a chunk's time the mean over the
 * ranks of their mean call. Rank 0 prints the median time per call of
 * each and the ratio nb/blocking.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { CHUNK = 1000, CHUNKS = 21 };

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

/* One call of `kind` (0 allreduce, 1 iallreduce + wait, 2 bcast, 3 ibcast +
 * wait). */
static void call(int kind, char *in, char *out, int bytes)
{
    MPI_Request q;
    switch (kind) {
    case 0:
        MPI_Allreduce(in, out, bytes, MPI_BYTE, MPI_BOR, MPI_COMM_WORLD);
        break;
    case 1:
        MPI_Iallreduce(in, out, bytes, MPI_BYTE, MPI_BOR, MPI_COMM_WORLD, &q);
        MPI_Wait(&q, MPI_STATUS_IGNORE);
        break;
    case 2:
        MPI_Bcast(out, bytes, MPI_BYTE, 0, MPI_COMM_WORLD);
        break;
    default:
        MPI_Ibcast(out, bytes, MPI_BYTE, 0, MPI_COMM_WORLD, &q);
        MPI_Wait(&q, MPI_STATUS_IGNORE);
    }
}

/* One chunk of `kind`: seconds per call, back to back (the slowest rank's)
 * or OSU's way (the ranks' mean). */
static double chunk(int kind, char *in, char *out, int bytes, int osu)
{
    MPI_Barrier(MPI_COMM_WORLD);
    double t = 0, r;
    if (osu) {
        for (int i = 0; i < CHUNK; i++) {
            double t0 = MPI_Wtime();
            call(kind, in, out, bytes);
            t += MPI_Wtime() - t0;
            MPI_Barrier(MPI_COMM_WORLD);
        }
    } else {
        t = MPI_Wtime();
        for (int i = 0; i < CHUNK; i++)
            call(kind, in, out, bytes);
        t = MPI_Wtime() - t;
    }
    t /= CHUNK;
    MPI_Allreduce(&t, &r, 1, MPI_DOUBLE, osu ? MPI_SUM : MPI_MAX, MPI_COMM_WORLD);
    if (osu) {
        int np;
        MPI_Comm_size(MPI_COMM_WORLD, &np);
        r /= np;
    }
    return r;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, np, bytes = argc > 1 ? atoi(argv[1]) : 8;
    const int osu = argc > 2 && strcmp(argv[2], "osu") == 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    char *in = calloc((size_t)bytes + 1, 1), *out = calloc((size_t)bytes + 1, 1);
    double t[4][CHUNKS];
    for (int k = 0; k < 4; k++)
        chunk(k, in, out, bytes, osu);  /* warm-up */
    for (int c = 0; c < CHUNKS; c++)
        for (int k = 0; k < 4; k++)
            t[k][c] = chunk(k, in, out, bytes, osu);
    if (rank == 0) {
        double m[4];
        for (int k = 0; k < 4; k++)
            m[k] = median(t[k], CHUNKS);
        printf("np=%d bytes=%d allreduce %.2f us iallreduce+wait %.2f us ratio %.3f | "
               "bcast %.2f us ibcast+wait %.2f us ratio %.3f\n", np, bytes, m[0] * 1e6,
               m[1] * 1e6, m[1] / m[0], m[2] * 1e6, m[3] * 1e6, m[3] / m[2]);
    }
    free(in);
    free(out);
    MPI_Finalize();
    return 0;
}
