/*
 * Data beyond 2^31 bytes: byte offsets and message sizes that do not fit
 * in an int.
 *
 *   test_huge COLLECTIVE MIB ALGORITHM...     (ALGORITHM "auto": the rules' choice)
 *
 *   allgather MIB:  blocks of MIB MiB (MPI_BYTE counts), in place; with 4
 *                   ranks and 700 MiB the receive buffer is 2800 MiB and the
 *                   last block starts at byte 2100 MiB > 2^31.
 *   alltoall MIB:   blocks of MIB MiB; with 3 ranks and 700 MiB, send and
 *                   receive buffers of 2100 MiB each.
 *   allreduce MIB:  MPI_SUM over MIB MiB of doubles, in place (2150: more
 *                   than 2^31 bytes in one vector).
 *   bcast MIB:      MIB elements of a contiguous type of 1 MiB: with 2100, one
 *                   message of more than INT_MAX bytes, sent in pieces.
 *
 * Each algorithm runs once on fresh data, checked word by word (a value
 * that names its source rank, destination and position). Rank 0 first
 * checks that the machine has the memory (MemAvailable); if not, the test
 * says so and exits with 77, which ctest reports as skipped.
 */
#include <mpicoll.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rank, size, failures;

#define MIB ((size_t)1 << 20)

/* Word i of the data rank `src` sends to `dst` (dst = -1: to everyone). */
static uint64_t word(int src, int dst, size_t i)
{
    return ((uint64_t)(src + 1) << 56) ^ ((uint64_t)(dst + 1) << 48) ^ (uint64_t)i;
}

static void fill(uint64_t *p, size_t words, int src, int dst)
{
    for (size_t i = 0; i < words; i++)
        p[i] = word(src, dst, i);
}

static int check(const char *what, const uint64_t *p, size_t words, int src, int dst)
{
    for (size_t i = 0; i < words; i++)
        if (p[i] != word(src, dst, i)) {
            printf("FAIL huge: rank %d: %s: word %zu (byte %zu) from rank %d is 0x%016llx, "
                   "expected 0x%016llx\n", rank, what, i, i * 8, src, (unsigned long long)p[i],
                   (unsigned long long)word(src, dst, i));
            return 1;
        }
    return 0;
}

static long long mem_available_mib(void)
{
    FILE *f = fopen("/proc/meminfo", "r");
    char line[256];
    long long kb = -1;
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "MemAvailable: %lld kB", &kb) == 1)
            break;
    if (f)
        fclose(f);
    return kb < 0 ? -1 : kb / 1024;
}

/* The buffers of one rank for `coll` with blocks of `mib` MiB, in MiB. */
static size_t buffer_mib(const char *coll, size_t mib)
{
    if (!strcmp(coll, "allgather"))
        return (size_t)size * mib;
    if (!strcmp(coll, "alltoall"))
        return 2 * (size_t)size * mib;
    return mib;
}

/* What one rank needs: its buffers and the scratch of the algorithms the
 * tests run (allreduce's reduce-scatter + allgather ones: one vector). */
static size_t need_mib(const char *coll, size_t mib)
{
    return buffer_mib(coll, mib) + (!strcmp(coll, "allreduce") ? mib : 0);
}

static int run(const char *coll, const char *alg, size_t mib, void *a, void *b)
{
    const char *spec = strcmp(alg, "auto") ? alg : NULL;
    const size_t bytes = mib * MIB, words = bytes / 8;
    char what[160];
    int rc, bad = 0;
    snprintf(what, sizeof what, "%s %s", coll, alg);
    if (!strcmp(coll, "allgather")) {
        uint64_t *r = a;
        /* the other blocks cleared: what the last algorithm left there
         * must not pass for this one's result */
        memset(r, 0, (size_t)size * bytes);
        fill(r + (size_t)rank * words, words, rank, -1);
        rc = mpicoll_allgather_with(spec, MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, r, (int)bytes,
                                    MPI_BYTE, MPI_COMM_WORLD);
        for (int s = 0; rc == MPI_SUCCESS && s < size && !bad; s++)
            bad = check(what, r + (size_t)s * words, words, s, -1);
    } else if (!strcmp(coll, "alltoall")) {
        uint64_t *sb = a, *r = b;
        for (int d = 0; d < size; d++)
            fill(sb + (size_t)d * words, words, rank, d);
        memset(r, 0, (size_t)size * bytes);
        rc = mpicoll_alltoall_with(spec, sb, (int)bytes, MPI_BYTE, r, (int)bytes, MPI_BYTE,
                                   MPI_COMM_WORLD);
        for (int s = 0; rc == MPI_SUCCESS && s < size && !bad; s++)
            bad = check(what, r + (size_t)s * words, words, s, rank);
    } else if (!strcmp(coll, "allreduce")) {
        double *v = a;
        const size_t n = bytes / sizeof(double);
        const double ranks = (double)size * (size - 1) / 2;
        for (size_t i = 0; i < n; i++)
            v[i] = (double)(i % 1000003) + rank;
        rc = mpicoll_allreduce_with(spec, MPI_IN_PLACE, v, (int)n, MPI_DOUBLE, MPI_SUM,
                                    MPI_COMM_WORLD);
        for (size_t i = 0; rc == MPI_SUCCESS && i < n && !bad; i++)
            if (v[i] != (double)size * (double)(i % 1000003) + ranks) {
                printf("FAIL huge: rank %d: %s: element %zu (byte %zu) is %.17g, expected "
                       "%.17g\n", rank, what, i, i * 8, v[i],
                       (double)size * (double)(i % 1000003) + ranks);
                bad = 1;
            }
    } else {
        uint64_t *buf = a;
        MPI_Datatype mb;
        MPI_Type_contiguous((int)MIB, MPI_BYTE, &mb);
        MPI_Type_commit(&mb);
        if (rank == 0)
            fill(buf, words, 0, -1);
        else
            memset(buf, 0, bytes);
        rc = mpicoll_bcast_with(spec, buf, (int)mib, mb, 0, MPI_COMM_WORLD);
        MPI_Type_free(&mb);
        if (rc == MPI_SUCCESS)
            bad = check(what, buf, words, 0, -1);
    }
    if (rc != MPI_SUCCESS) {
        char s[MPI_MAX_ERROR_STRING];
        int len;
        MPI_Error_string(rc, s, &len);
        printf("FAIL huge: rank %d: %s: %s\n", rank, what, s);
        bad = 1;
    }
    return bad;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (argc < 4) {
        if (rank == 0)
            printf("FAIL huge: usage: test_huge COLLECTIVE MIB ALGORITHM...\n");
        MPI_Finalize();
        return 2;
    }
    const char *coll = argv[1];
    const size_t mib = strtoull(argv[2], NULL, 10);
    const size_t need = need_mib(coll, mib) * (size_t)size + 1024;
    int enough = 1;
    if (rank == 0) {
        long long avail = mem_available_mib();
        enough = avail < 0 || (size_t)avail >= need;
        if (!enough)
            printf("huge %s: needs %zu MiB, the machine has %lld MiB available: skipped\n",
                   coll, need, avail);
    }
    MPI_Bcast(&enough, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (!enough) {
        MPI_Finalize();
        return 77;
    }
    const size_t per_rank = buffer_mib(coll, mib) * MIB;
    char *mem = malloc(per_rank);
    int oom = !mem, any_oom;
    MPI_Allreduce(&oom, &any_oom, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (any_oom) {
        printf("FAIL huge: rank %d: cannot allocate %zu MiB\n", rank, per_rank / MIB);
        free(mem);
        MPI_Finalize();
        return 1;
    }
    /* alltoall: send buffer first, then the receive buffer */
    void *a = mem, *b = mem + (size_t)size * mib * MIB;
    for (int i = 3; i < argc; i++) {
        double t = MPI_Wtime();
        failures += run(coll, argv[i], mib, a, b);
        int any;
        MPI_Allreduce(&failures, &any, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        if (rank == 0)
            printf("huge %s %s: %d ranks, %zu MiB blocks, receive buffer %zu bytes: %s "
                   "(%.1f s with filling and checking)\n", coll, argv[i], size, mib,
                   (!strcmp(coll, "allgather") || !strcmp(coll, "alltoall") ? (size_t)size : 1) *
                   mib * MIB, any ? "failed" : "passed", MPI_Wtime() - t);
        fflush(stdout);
    }
    free(mem);
    int any;
    MPI_Allreduce(&failures, &any, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Finalize();
    return any != 0;
}
