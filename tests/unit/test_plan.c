/*
 * Receives posted ahead (plan_lookahead, src/model/plan.h), on small plans
 * written out by hand: how far ahead each receive may be posted (the
 * rounds' `early` bounds) and how many at once (max_early), against what
 * the rules say. Then every algorithm of a few collectives on 1..64 ranks:
 * no receive is posted before a round that touches its bytes, outside
 * plan_ahead, past a round without a receive from its peer, or before an
 * earlier receive (checked here by brute force, the rules written again
 * independently of plan.c).
 */
#include "model/coll.h"
#include "model/plan.h"

#include <stdio.h>
#include <string.h>

static int failures;

static void expect(int ok, const char *what)
{
    if (!ok) {
        printf("FAIL %s\n", what);
        failures++;
    }
}

/* The round that posts op i: the first round x <= its own with
 * rounds[x].early > i (the plan's rounds in order). */
static size_t posted_with(const plan *pl, size_t i)
{
    size_t x = 0;
    while (pl->rounds[x].first + pl->rounds[x].nops <= i && pl->rounds[x].early <= i)
        x++;
    return x;
}

static size_t round_of(const plan *pl, size_t i)
{
    size_t x = 0;
    while (pl->rounds[x].first + pl->rounds[x].nops <= i)
        x++;
    return x;
}

/* A pipeline of s receives from rank 0, each into its own bytes. */
static void pipeline(plan *pl, int s)
{
    plan_init(pl, 2, 1);
    plan_ahead(pl, 1);
    for (int k = 0; k < s; k++) {
        plan_recv(pl, BUF_RECV, (size_t)k * 8, 8, 0);
        plan_end_round(pl);
    }
    plan_finish(pl);
    plan_lookahead(pl, 0);
}

/* Five: receives 1-4 posted with round 0 (PLAN_LOOKAHEAD is 4); six: the
 * sixth with round 1, four ahead at most. */
static void test_pipeline(void)
{
    plan pl;
    pipeline(&pl, 5);
    expect(posted_with(&pl, 1) == 0 && posted_with(&pl, 4) == 0, "pipeline: ahead to 4 rounds");
    plan_free(&pl);
    pipeline(&pl, 6);
    expect(posted_with(&pl, 4) == 0 && posted_with(&pl, 5) == 1,
           "pipeline of 6: the sixth ahead of round 1, not 0");
    expect(pl.max_early == 4, "pipeline of 6: four posted ahead at most");
    plan_free(&pl);
}

/* One scratch block for every step's receive, reduced in its round: the
 * next receive waits for the reduction; two blocks in turn: one round
 * ahead. */
static void test_scratch(void)
{
    for (int blocks = 1; blocks <= 2; blocks++) {
        plan pl;
        plan_init(&pl, 3, 0);
        plan_ahead(&pl, 1);
        for (int k = 0; k < 4; k++) {
            const size_t in = (size_t)(k % blocks) * 8;
            plan_send(&pl, BUF_RECV, (size_t)k * 8, 8, 1);
            plan_recv(&pl, BUF_TMP, in, 8, 2);
            plan_reduce(&pl, BUF_TMP, in, BUF_RECV, (size_t)(k + 1) * 8 % 32, 8);
            plan_end_round(&pl);
        }
        plan_finish(&pl);
        plan_lookahead(&pl, 0);
        for (size_t i = 0; i < pl.nops; i++) {
            if (pl.ops[i].kind != OP_RECV)
                continue;
            const size_t r = round_of(&pl, i), want = blocks == 1 || r == 0 ? r : r - 1;
            char what[96];
            snprintf(what, sizeof what, "%d scratch block(s): round %zu's receive with round %zu",
                     blocks, r, want);
            expect(posted_with(&pl, i) == want, what);
        }
        expect(pl.max_early == (size_t)(blocks - 1), "scratch: how many ahead");
        plan_free(&pl);
    }
}

/* A node barrier, a single copy and SHM stop it; so does an earlier
 * receive that cannot go (each peer's messages in order); a send of the
 * bytes too, and with MPI_IN_PLACE a send of SEND the receive into RECV. */
static void test_stops(void)
{
    plan pl;
    plan_init(&pl, 2, 1);
    plan_ahead(&pl, 1);
    plan_recv(&pl, BUF_RECV, 0, 8, 0);
    plan_sync(&pl);
    plan_recv(&pl, BUF_RECV, 8, 8, 0);
    plan_finish(&pl);
    plan_lookahead(&pl, 0);
    expect(posted_with(&pl, 1) == 1, "not before a node barrier");
    plan_free(&pl);

    plan_init(&pl, 2, 1);
    plan_ahead(&pl, 1);
    plan_send(&pl, BUF_RECV, 0, 8, 0);      /* round 0 sends bytes 0-7 */
    plan_recv(&pl, BUF_RECV, 64, 8, 0);
    plan_end_round(&pl);
    plan_recv(&pl, BUF_RECV, 0, 8, 0);      /* round 1 receives into them */
    plan_recv(&pl, BUF_RECV, 8, 8, 0);
    plan_end_round(&pl);
    plan_recv(&pl, BUF_RECV, 16, 8, 0);     /* free, but after the blocked one */
    plan_end_round(&pl);
    plan_finish(&pl);
    plan_lookahead(&pl, 0);
    expect(posted_with(&pl, 2) == 1, "not while a send reads its bytes");
    expect(posted_with(&pl, 3) == 1, "a receive beside it: with its round");
    expect(posted_with(&pl, 4) == 1, "not before an earlier receive");
    plan_free(&pl);

    for (int inplace = 0; inplace < 2; inplace++) {
        plan_init(&pl, 2, 1);
        plan_ahead(&pl, 1);
        plan_send(&pl, BUF_SEND, 0, 8, 0);
        plan_recv(&pl, BUF_RECV, 128, 8, 0);
        plan_end_round(&pl);
        plan_recv(&pl, BUF_RECV, 64, 8, 0);
        plan_end_round(&pl);
        plan_finish(&pl);
        plan_lookahead(&pl, inplace);
        expect(posted_with(&pl, 2) == (size_t)inplace,
               inplace ? "in place: SEND and RECV one buffer" : "SEND and RECV apart");
        plan_free(&pl);
    }

    plan_init(&pl, 2, 1);
    plan_ahead(&pl, 1);
    plan_publish(&pl, 0);
    plan_recv(&pl, BUF_RECV, 64, 8, 0);
    plan_end_round(&pl);
    plan_recv(&pl, BUF_RECV, 0, 8, 0);
    plan_end_round(&pl);
    plan_finish(&pl);
    plan_lookahead(&pl, 0);
    expect(posted_with(&pl, 2) == 1, "not before a single copy's record");
    plan_free(&pl);

    plan_init(&pl, 2, 1);
    plan_ahead(&pl, 1);
    plan_recv(&pl, BUF_RECV, 0, PLAN_AHEAD_BYTES, 0);
    plan_end_round(&pl);
    plan_recv(&pl, BUF_RECV, PLAN_AHEAD_BYTES, PLAN_AHEAD_BYTES + 1, 0);
    plan_end_round(&pl);
    plan_finish(&pl);
    plan_lookahead(&pl, 0);
    expect(posted_with(&pl, 1) == 1, "not a message longer than PLAN_AHEAD_BYTES");
    plan_free(&pl);

    /* only from a peer each round between receives from, only where the
     * builder asks */
    for (int ask = 0; ask < 2; ask++) {
        plan_init(&pl, 3, 2);
        plan_ahead(&pl, ask);
        plan_recv(&pl, BUF_RECV, 0, 8, 0);
        plan_end_round(&pl);
        plan_recv(&pl, BUF_RECV, 8, 8, 0);
        plan_end_round(&pl);
        plan_recv(&pl, BUF_RECV, 16, 8, 1);     /* another peer */
        plan_end_round(&pl);
        plan_recv(&pl, BUF_RECV, 24, 8, 0);
        plan_end_round(&pl);
        plan_finish(&pl);
        plan_lookahead(&pl, 0);
        expect(posted_with(&pl, 1) == (ask ? 0u : 1u),
               ask ? "asked: the same peer's next receive ahead" : "not asked: none ahead");
        expect(posted_with(&pl, 2) == 2 && posted_with(&pl, 3) == 3,
               "not past a round that receives from another peer");
        plan_free(&pl);
    }
}

/* Every receive an algorithm posts ahead: no op of a round from the one
 * that posts it to its own (that one excluded) reads or writes its bytes
 * (SEND and RECV one buffer in place), none of those rounds but the first
 * begins with a barrier, and every receive before it is posted no later. */
static int touches(const plan *pl, const plan_op *x, const plan_op *op, int inplace)
{
    if (op->kind == OP_PUBLISH || op->kind == OP_PULL)
        return 1;
    size_t lo[2] = { 0 }, hi[2] = { 0 };
    int bufs[2] = { -1, -1 }, n = 0;
    if (op->kind == OP_SEND || op->kind == OP_RECV) {
        if (op->nseg) {
            for (uint32_t k = 0; k < op->nseg; k++) {
                const plan_seg *sg = &pl->segs[op->off + k];
                if (op->buf == x->buf && sg->off < x->off + x->bytes &&
                    x->off < sg->off + sg->bytes)
                    return 1;
            }
            return inplace && op->buf != x->buf && op->buf <= BUF_RECV && x->buf <= BUF_RECV;
        }
        bufs[n] = op->buf, lo[n] = op->off, hi[n++] = op->off + op->bytes;
    } else {
        bufs[n] = op->buf, lo[n] = op->off, hi[n++] = op->off + op->bytes;
        bufs[n] = op->dst_buf, lo[n] = op->dst_off, hi[n++] = op->dst_off + op->bytes;
    }
    for (int j = 0; j < n; j++) {
        if (bufs[j] == x->buf && lo[j] < x->off + x->bytes && x->off < hi[j])
            return 1;
        if (inplace && bufs[j] != x->buf && bufs[j] <= BUF_RECV && x->buf <= BUF_RECV)
            return 1;
    }
    return 0;
}

static void check_plan(const plan *pl, int inplace, const char *name, int p, int rank)
{
    size_t last = 0;
    for (size_t i = 0; i < pl->nops; i++) {
        const plan_op *x = &pl->ops[i];
        if (x->kind != OP_RECV)
            continue;
        const size_t own = round_of(pl, i), from = posted_with(pl, i);
        int bad = from < last || from > own || own - from > PLAN_LOOKAHEAD;
        for (size_t r = from; r < own && !bad; r++) {
            int peer = 0;
            for (size_t k = pl->rounds[r].first; k < pl->rounds[r].first + pl->rounds[r].nops;
                 k++)
                peer |= pl->ops[k].kind == OP_RECV && pl->ops[k].peer == x->peer;
            bad |= !peer || !pl->rounds[r].ahead || !pl->rounds[r + 1].ahead;
            bad |= r > from && pl->rounds[r].sync;
            for (size_t k = pl->rounds[r].first;
                 k < pl->rounds[r].first + pl->rounds[r].nops && !bad; k++)
                bad |= x->bytes > 0 && touches(pl, x, &pl->ops[k], inplace);
        }
        bad |= own > from && (pl->rounds[own].sync || x->buf == BUF_SHM || x->nseg ||
                              x->bytes > PLAN_AHEAD_BYTES);
        if (bad) {
            printf("FAIL %s p=%d rank %d: receive %zu of round %zu posted with round %zu\n",
                   name, p, rank, i, own, from);
            failures++;
            return;
        }
        last = from;
    }
}

static void test_algorithms(void)
{
    const char *colls[] = { "bcast", "allgather", "allreduce", "reduce_scatter_block",
                            "reduce", "alltoall" };
    for (size_t c = 0; c < sizeof colls / sizeof *colls; c++) {
        const coll_desc *cd = coll_find(colls[c]);
        for (int i = 0; cd && i < cd->nalgos; i++) {
            const coll_algo *al = &cd->algos[i];
            if (!al->build)
                continue;
            for (int p = 1; p <= 64; p += p < 16 ? 1 : 7) {
                int node_of[64];
                for (int r = 0; r < p; r++)
                    node_of[r] = r / 4;
                for (int inplace = 0; inplace < 2; inplace++) {
                    for (int r = 0; r < p; r++) {
                        plan_args a = { .p = p, .rank = r, .block = 4096, .esize = 4,
                                        .commutative = 1, .inplace = inplace,
                                        .node_of = node_of };
                        for (int k = 0; k < coll_algo_nparams(al); k++)
                            a.param[k] = strcmp(al->params[k].name, "segsize") == 0
                                             ? 1024     /* a pipeline of 4 segments */
                                             : al->params[k].def;
                        plan pl;
                        if (plan_build(&pl, al->build, &a) != 0)
                            continue;
                        check_plan(&pl, inplace, al->name, p, r);
                        plan_free(&pl);
                    }
                }
            }
        }
    }
}

int main(void)
{
    test_pipeline();
    test_scratch();
    test_stops();
    test_algorithms();
    printf("%s\n", failures ? "FAILED" : "all passed");
    return failures != 0;
}
