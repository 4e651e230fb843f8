/*
 * The symbolic checker must catch every kind of broken plan: these
 * builders exist only here, each with one deliberate fault, and each must
 * be reported with the right diagnosis. A correct one must pass.
 */
#include "core/symbolic.h"
#include "patterns/patterns.h"

#include <stdio.h>
#include <string.h>

extern const coll_desc allgather_desc;

/* A correct ring, and variants with one fault each. */
static void ring_with(plan *pl, const plan_args *a, int fault)
{
    const int p = a->p, r = a->rank;
    const size_t B = a->block;
    if (fault != 1)
        plan_copy(pl, BUF_SEND, 0, BUF_RECV, (size_t)r * B, B);
    plan_end_round(pl);
    for (int i = 0; i < p - 1; i++) {
        size_t sb = (size_t)pat_mod(r - i, p) * B, rb = (size_t)pat_mod(r - i - 1, p) * B;
        int from = pat_mod(r - 1, p);
        if (fault == 2)
            from = pat_mod(r + 1, p);               /* waits for the wrong peer */
        if (fault == 3)
            rb = sb;                                /* receives over what it sends */
        if (fault == 4 && i == 0)
            rb = (size_t)p * B;                     /* past the end */
        if (fault == 6 && r == 0)
            plan_send(pl, BUF_RECV, sb, B, pat_mod(r + 1, p));   /* one message too many */
        plan_send(pl, BUF_RECV, sb, fault == 7 ? B + 1 : B, pat_mod(r + 1, p));
        plan_recv(pl, fault == 5 ? BUF_SEND : BUF_RECV, fault == 5 ? 0 : rb, B, from);
        plan_end_round(pl);
    }
    if (fault == 8 && r == p - 1)
        plan_copy(pl, BUF_RECV, 0, BUF_RECV, B, B);  /* overwrites block 1 with block 0 */
}

#define FAULT(n) static void fault##n(plan *pl, const plan_args *a) { ring_with(pl, a, n); }
FAULT(0) FAULT(1) FAULT(2) FAULT(3) FAULT(4) FAULT(5) FAULT(6) FAULT(7) FAULT(8)

static const struct {
    plan_builder build;
    const char *expect;         /* in the diagnosis; NULL: must pass */
} cases[] = {
    { fault0, NULL },
    { fault1, "never written" },
    { fault2, "deadlock" },
    { fault3, "overlaps" },
    { fault4, "outside the buffer" },
    { fault5, "receives into the send buffer" },
    { fault6, "deadlock" },
    { fault7, "sends 2 bytes" },
    { fault8, "holds rank 0's byte" },
};

int main(void)
{
    int failures = 0, n = (int)(sizeof cases / sizeof cases[0]);
    for (int i = 0; i < n; i++) {
        coll_algo a = { .name = "ring_under_test", .build = cases[i].build };
        int params[PLAN_MAX_PARAMS] = { 0 };
        for (int inplace = 0; inplace < 2; inplace++) {
            sym_result r;
            if (sym_run(&allgather_desc, &a, params, 5, 1, inplace, NULL, NULL, NULL, &r)) {
                printf("FAIL case %d: out of memory\n", i);
                return 1;
            }
            /* a plan without the initial copy is right in place */
            const char *expect = i == 1 && inplace ? NULL : cases[i].expect;
            int ok = expect ? !r.ok && strstr(r.why, expect) != NULL : r.ok;
            if (!ok) {
                printf("FAIL case %d inplace=%d: expected %s, got: %s\n", i, inplace,
                       expect ? expect : "a pass", r.ok ? "a pass" : r.why);
                failures++;
            }
        }
    }
    printf("%d passed, %d failed\n", 2 * n - failures, failures);
    return failures != 0;
}
