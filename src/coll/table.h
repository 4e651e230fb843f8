/*
 * The part of a collective's table that is alike for every collective,
 * included by src/coll/<c>/<c>.c after `#define COLL <c>` and its
 * algorithms' parameter arrays: the array of its algorithms, one entry per
 * MPICOLL_ALGO line of <c>/<c>.def; COLL_TABLE_FIELDS, the coll_desc
 * fields that name it, its algorithms and its built-in rules (<c>.rules,
 * embedded by the build as mpicoll_<c>_rules); and the pieces of data
 * model that several collectives share.
 */
#include "../model/coll.h"

#define COLL_STR_(x) #x
#define COLL_STR(x) COLL_STR_(x)
#define COLL_CAT_(a, b) a##_##b
#define COLL_CAT(a, b) COLL_CAT_(a, b)

/* The builder of algorithm `name`: <c>_<name> (<c>_algos.h), but NULL for
 * native, which has none (R_NATIVE: the MPI library runs it).
 * COLL_IS_native_ is the one name that expands to two arguments, so that
 * COLL_SECOND picks NULL for native and <c>_<name> for the others. */
#define COLL_IS_native_ ~, NULL
#define COLL_SECOND_(a, b, ...) b
#define COLL_SECOND(...) COLL_SECOND_(__VA_ARGS__)
#define COLL_BUILDER(name) COLL_SECOND(COLL_IS_##name##_, COLL_CAT(COLL, name), ~)

static const coll_algo algos[] = {
#define MPICOLL_ALGO(name, id, aliases, restrictions, fallback, params, summary) \
    { #name, id, aliases, COLL_BUILDER(name), restrictions, fallback, params, summary },
#include COLL_STR(COLL/COLL.def)
#undef MPICOLL_ALGO
};

extern const char COLL_CAT(COLL_CAT(mpicoll, COLL), rules)[];

/* env: "MPICOLL_<C>"; tag: the tag of its traffic */
#define COLL_TABLE_FIELDS(env_, tag_)                                                  \
    .name = COLL_STR(COLL), .index = COLL_CAT(coll_index, COLL), .env = env_, .tag = tag_, \
    .algos = algos,                                                                    \
    .nalgos = (int)(sizeof algos / sizeof algos[0]),                                   \
    .builtin_rules = COLL_CAT(COLL_CAT(mpicoll, COLL), rules)

/* Data models (coll_desc's send_bytes, recv_bytes, inplace_offset,
 * expect_label) that several collectives share. */
/* one block (or vector) of a->block bytes */
static inline size_t model_block(const plan_args *a) { return a->block; }
/* p blocks */
static inline size_t model_p_blocks(const plan_args *a) { return (size_t)a->p * a->block; }
/* a block at the root, nothing elsewhere */
static inline size_t model_at_root(const plan_args *a)
{
    return a->rank == a->root ? a->block : 0;
}
/* in place at the root only, at the start of its buffer */
static inline size_t model_root_in_place(const plan_args *a)
{
    return a->rank == a->root ? 0 : NO_ALIAS;
}
/* in place at the start of the receive buffer */
static inline size_t model_at_start(const plan_args *a)
{
    (void)a;
    return 0;
}
/* byte i holds label i: its position (the whole result of allgather, a
 * reduction's vector) */
static inline int64_t model_position(const expect_args *e, size_t i)
{
    (void)e;
    return (int64_t)i;
}

/* Collectives with counts per rank (plan_args count, displ): the bytes of
 * all blocks, and the label byte i of the counted buffer holds, rank r's
 * byte j of its block (r * S + j, S the largest count, as the checker
 * labels send data: symbolic.c); without counts, i. */
static inline size_t model_all_counts(const plan_args *a)
{
    size_t n = 0;
    for (int r = 0; r < a->p; r++)
        n += args_count(a, r);
    return n;
}

static inline int64_t model_counted_label(const expect_args *e, size_t i)
{
    const plan_args *a = &e->call;
    if (!a->count)
        return (int64_t)i;
    size_t most = 0;
    for (int r = 0; r < a->p; r++)
        most = a->count[r] > most ? a->count[r] : most;
    for (int r = 0; r < a->p; r++)
        if (i >= a->displ[r] && i - a->displ[r] < a->count[r])
            return (int64_t)r * (int64_t)most + (int64_t)(i - a->displ[r]);
    return EXPECT_ANY;
}
