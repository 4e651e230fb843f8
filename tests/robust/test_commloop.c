/*
 * Communicators created and freed in a loop leave nothing behind.
 *
 *   test_commloop [LOOPS]
 *
 * LOOPS times (default 1000): MPI_Comm_dup of MPI_COMM_WORLD (every
 * tenth time an MPI_Comm_split instead), every collective on it (one of
 * them non-blocking, one persistent and freed before the communicator),
 * MPI_Comm_free. Checked: every result; the number of mpicoll's
 * communicator states (back to its value before the loop after each
 * free); and mpicoll's heap: this program's malloc and free count the
 * blocks allocated and freed from inside libmpicoll (found with dladdr),
 * and the balance after the loop must be the one after the first pass
 * (no growth). Sanitizer builds (ROBUST_NO_MALLOC_HOOKS) leave malloc to
 * AddressSanitizer, whose leak check at exit takes this part's place.
 */
#define _GNU_SOURCE
#include "robust.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int comm_state_live(void);      /* libmpicoll's count of communicator states */

/* ---- mpicoll's live heap blocks --------------------------------------- */
static long live_count;

#ifndef ROBUST_NO_MALLOC_HOOKS
static long seen;
extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void __libc_free(void *);

/* Blocks allocated from libmpicoll minus blocks freed from it: mpicoll
 * frees only its own blocks and hands none out. */

static int from_mpicoll(void *ret)
{
    static __thread int busy;   /* dladdr may allocate itself */
    Dl_info info;
    int yes = 0;
    if (busy)
        return 0;
    busy = 1;
    yes = dladdr(ret, &info) && info.dli_fname && strstr(info.dli_fname, "libmpicoll");
    busy = 0;
    return yes;
}

static void count(void *ret, long delta)
{
    if (from_mpicoll(ret)) {
        __atomic_add_fetch(&live_count, delta, __ATOMIC_RELAXED);
        if (delta > 0)
            __atomic_add_fetch(&seen, 1, __ATOMIC_RELAXED);
    }
}

void *malloc(size_t n)
{
    void *p = __libc_malloc(n);
    if (p)
        count(__builtin_return_address(0), 1);
    return p;
}

void *calloc(size_t n, size_t m)
{
    void *p = __libc_calloc(n, m);
    if (p)
        count(__builtin_return_address(0), 1);
    return p;
}

void *realloc(void *old, size_t n)
{
    void *p = __libc_realloc(old, n);
    if (p && !old)
        count(__builtin_return_address(0), 1);
    return p;
}

void free(void *p)
{
    if (p)
        count(__builtin_return_address(0), -1);
    __libc_free(p);
}
#endif

/* ---- the loop ----------------------------------------------------------- */
static int rank, size, failures;

#define FAIL(...)                                                                         \
    do {                                                                                  \
        failures++;                                                                       \
        if (failures < 20) {                                                              \
            printf("FAIL commloop: rank %d: ", rank);                                     \
            printf(__VA_ARGS__);                                                          \
            printf("\n");                                                                 \
        }                                                                                 \
    } while (0)

static void pass(int i, int live0)
{
    MPI_Comm c;
    if (i % 10 == 9)
        MPI_Comm_split(MPI_COMM_WORLD, 0, size - rank, &c);
    else
        MPI_Comm_dup(MPI_COMM_WORLD, &c);
    MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN);
    struct rb_data d;
    if (rb_data_init(&d, 3 + i % 5, c)) {
        FAIL("out of memory");
        return;
    }
    for (int k = 0; k < NCOLL; k++) {
        enum rb_form f = k == i % NCOLL ? NB : k == (i + 1) % NCOLL ? PERSISTENT : BLOCKING;
        struct rb_args a = rb_prepare((enum rb_coll)k, &d, c);
        int rc = rb_run((enum rb_coll)k, f, &a), at, got, want;
        if (rc != MPI_SUCCESS)
            FAIL("pass %d: %s %s: error %d", i, rb_names[k], rb_form_names[f], rc);
        else if ((at = rb_check((enum rb_coll)k, &d, &got, &want)) >= 0)
            FAIL("pass %d: %s %s: element %d is %d, expected %d", i, rb_names[k],
                 rb_form_names[f], at, got, want);
    }
    rb_data_free(&d);
    if (comm_state_live() != live0 + 1)
        FAIL("pass %d: %d communicator states alive with the communicator, expected %d", i,
             comm_state_live(), live0 + 1);
    MPI_Comm_free(&c);
    if (comm_state_live() != live0)
        FAIL("pass %d: %d communicator states alive after MPI_Comm_free, expected %d", i,
             comm_state_live(), live0);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const int loops = argc > 1 ? atoi(argv[1]) : 1000;
    const int live0 = comm_state_live();
    pass(0, live0);
    const long blocks_after_first = __atomic_load_n(&live_count, __ATOMIC_RELAXED);
    for (int i = 1; i < loops && failures == 0; i++)
        pass(i, live0);
    const long blocks_after = __atomic_load_n(&live_count, __ATOMIC_RELAXED);
#ifndef ROBUST_NO_MALLOC_HOOKS
    if (__atomic_load_n(&seen, __ATOMIC_RELAXED) == 0)
        FAIL("the allocation counter saw no allocation in libmpicoll");
#endif
    if (blocks_after != blocks_after_first)
        FAIL("mpicoll's live heap blocks: %ld after the first pass, %ld after %d passes",
             blocks_after_first, blocks_after, loops);
    int any;
    MPI_Allreduce(&failures, &any, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf("commloop: %d communicators created and freed on %d ranks; mpicoll's live heap "
               "blocks %ld after the first, %ld after the last: %s\n", loops, size,
               blocks_after_first, blocks_after, any ? "failed" : "passed");
    MPI_Finalize();
    return any != 0;
}
