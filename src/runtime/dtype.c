/* Datatype views and packing. */
#include "dtype.h"

#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

static int ordered(MPI_Datatype t, int depth);

/* Walks a type's blocks in type-map order, each `bl` copies of an old
 * type at `disp` bytes, and keeps whether their data come in increasing
 * memory order, each block at or after the end of the one before. */
typedef struct order_walk {
    int ok, seen;
    MPI_Aint end;
    int depth;
    MPI_Datatype old;           /* the last old type met, and what it is */
    int size, old_ordered;
    MPI_Aint ext, tlb, text;
} order_walk;

static void walk_block(order_walk *w, MPI_Aint disp, MPI_Aint bl, MPI_Datatype old)
{
    MPI_Aint lb;
    if (!w->ok || bl == 0)
        return;
    if (w->old != old) {
        w->old = old;
        if (PMPI_Type_size(old, &w->size) != MPI_SUCCESS ||
            PMPI_Type_get_extent(old, &lb, &w->ext) != MPI_SUCCESS ||
            PMPI_Type_get_true_extent(old, &w->tlb, &w->text) != MPI_SUCCESS) {
            w->ok = 0;
            return;
        }
        w->old_ordered = w->size == 0 || ordered(old, w->depth + 1);
    }
    if (w->size == 0)
        return;
    /* copies of old must follow one another: extent at least the true extent */
    if (bl < 0 || (bl > 1 && w->ext < w->text) || !w->old_ordered) {
        w->ok = 0;
        return;
    }
    const MPI_Aint lo = disp + w->tlb, hi = lo + (bl - 1) * w->ext + w->text;
    if (w->seen && lo < w->end)
        w->ok = 0;
    w->seen = 1;
    w->end = hi;
}

/* Whether t's data lie in increasing memory order in its type map (the
 * order MPI packs them in). Combiners the walk does not know (subarray,
 * darray, Fortran types) and types nested too deep count as unordered:
 * they are packed, which is always right. */
static int ordered(MPI_Datatype t, int depth)
{
    int ni, na, nd, combiner;
    if (depth > 16 || PMPI_Type_get_envelope(t, &ni, &na, &nd, &combiner) != MPI_SUCCESS)
        return 0;
    if (combiner == MPI_COMBINER_NAMED)
        return 1;
    int *ints = malloc(sizeof(int) * (size_t)(ni + 1));
    MPI_Aint *addrs = malloc(sizeof(MPI_Aint) * (size_t)(na + 1));
    MPI_Datatype *types = malloc(sizeof(MPI_Datatype) * (size_t)(nd + 1));
    order_walk w = { .ok = 0, .depth = depth, .old = MPI_DATATYPE_NULL };
    if (!ints || !addrs || !types ||
        PMPI_Type_get_contents(t, ni, na, nd, ints, addrs, types) != MPI_SUCCESS) {
        nd = 0;
        goto done;
    }
    w.ok = 1;
    MPI_Aint ext = 0, lb;
    if (nd > 0 && PMPI_Type_get_extent(types[0], &lb, &ext) != MPI_SUCCESS)
        w.ok = 0;
    switch (combiner) {
    case MPI_COMBINER_DUP:
    case MPI_COMBINER_RESIZED:      /* the extent is checked by the caller */
        walk_block(&w, 0, 1, types[0]);
        break;
    case MPI_COMBINER_CONTIGUOUS:
        walk_block(&w, 0, ints[0], types[0]);
        break;
    case MPI_COMBINER_VECTOR:
        for (int i = 0; i < ints[0]; i++)
            walk_block(&w, (MPI_Aint)i * ints[2] * ext, ints[1], types[0]);
        break;
    case MPI_COMBINER_HVECTOR:
        for (int i = 0; i < ints[0]; i++)
            walk_block(&w, (MPI_Aint)i * addrs[0], ints[1], types[0]);
        break;
    case MPI_COMBINER_INDEXED:
        for (int i = 0; i < ints[0]; i++)
            walk_block(&w, (MPI_Aint)ints[1 + ints[0] + i] * ext, ints[1 + i], types[0]);
        break;
    case MPI_COMBINER_HINDEXED:
        for (int i = 0; i < ints[0]; i++)
            walk_block(&w, addrs[i], ints[1 + i], types[0]);
        break;
    case MPI_COMBINER_INDEXED_BLOCK:
        for (int i = 0; i < ints[0]; i++)
            walk_block(&w, (MPI_Aint)ints[2 + i] * ext, ints[1], types[0]);
        break;
    case MPI_COMBINER_HINDEXED_BLOCK:
        for (int i = 0; i < ints[0]; i++)
            walk_block(&w, addrs[i], ints[1], types[0]);
        break;
    case MPI_COMBINER_STRUCT:
        for (int i = 0; i < ints[0]; i++)
            walk_block(&w, addrs[i], ints[1 + i], types[i]);
        break;
    default:
        w.ok = 0;
    }
done:
    for (int i = 0; i < nd; i++) {
        int tni, tna, tnd, tc;
        if (PMPI_Type_get_envelope(types[i], &tni, &tna, &tnd, &tc) == MPI_SUCCESS &&
            tc != MPI_COMBINER_NAMED)
            PMPI_Type_free(&types[i]);
    }
    free(ints);
    free(addrs);
    free(types);
    return w.ok;
}

static int query(MPI_Datatype t, dt_view *v)
{
    int ni, na, nd, combiner;
    MPI_Aint lb;
    if (PMPI_Type_size(t, &v->size) != MPI_SUCCESS
        || PMPI_Type_get_extent(t, &lb, &v->extent) != MPI_SUCCESS
        || PMPI_Type_get_true_extent(t, &v->true_lb, &v->true_extent) != MPI_SUCCESS
        || PMPI_Type_get_envelope(t, &ni, &na, &nd, &combiner) != MPI_SUCCESS)
        return MPI_ERR_TYPE;
    v->named = combiner == MPI_COMBINER_NAMED;
    /* bytes only when the data fill the extent without gaps, in the order
     * MPI packs them: {int at 4, int at 0} fills 8 bytes but is not */
    v->contig = v->size == 0 || (v->true_extent == v->size && v->extent == v->size &&
                                 (v->named || ordered(t, 0)));
    return MPI_SUCCESS;
}

/* The predefined types seen so far: entries below `named_n` are complete
 * and never change (written under the lock, then published). */
static struct { MPI_Datatype t; dt_view v; } named[DT_NAMED_MAX];
static atomic_int named_n;
static pthread_mutex_t named_lock = PTHREAD_MUTEX_INITIALIZER;

static int slot_of(MPI_Datatype t, int n)
{
    for (int i = 0; i < n; i++)
        if (named[i].t == t)
            return i;
    return -1;
}

/* The cache slot of t (or -1), after caching it if it is predefined. */
static int view_slot(MPI_Datatype t, dt_view *v)
{
    int i = slot_of(t, atomic_load_explicit(&named_n, memory_order_acquire));
    if (i >= 0) {
        *v = named[i].v;
        return i;
    }
    int rc = query(t, v);
    if (rc != MPI_SUCCESS)
        return -2;
    if (!v->named)
        return -1;
    pthread_mutex_lock(&named_lock);
    int n = atomic_load_explicit(&named_n, memory_order_relaxed);
    i = slot_of(t, n);
    if (i < 0 && n < DT_NAMED_MAX) {
        named[n].t = t;
        named[n].v = *v;
        atomic_store_explicit(&named_n, n + 1, memory_order_release);
        i = n;
    }
    pthread_mutex_unlock(&named_lock);
    return i;
}

int dt_view_get(MPI_Datatype t, dt_view *v)
{
    return view_slot(t, v) == -2 ? MPI_ERR_TYPE : MPI_SUCCESS;
}

int dt_named_slot(MPI_Datatype t)
{
    dt_view v;
    const int i = view_slot(t, &v);
    return i < 0 ? -1 : i;
}

int dt_pack(const void *buf, int count, MPI_Datatype t, void *out, size_t outlen)
{
    int pos = 0;
    if (outlen > INT_MAX)
        return MPI_ERR_COUNT;
    return PMPI_Pack(buf, count, t, out, (int)outlen, &pos, MPI_COMM_SELF);
}

int dt_copy(const void *src, void *dst, size_t count, MPI_Datatype t)
{
    if (count > INT_MAX)
        return MPI_ERR_COUNT;
    return PMPI_Sendrecv(src, (int)count, t, 0, 0, dst, (int)count, t, 0, 0, MPI_COMM_SELF,
                         MPI_STATUS_IGNORE);
}

int dt_unpack(const void *in, size_t inlen, void *buf, int count, MPI_Datatype t)
{
    int pos = 0;
    if (inlen > INT_MAX)
        return MPI_ERR_COUNT;
    return PMPI_Unpack(in, (int)inlen, &pos, buf, count, t, MPI_COMM_SELF);
}

void counts_span(const int *counts, const int *displs, int p, long long *lo, long long *hi)
{
    *lo = *hi = 0;
    for (int r = 0, any = 0; r < p; r++) {
        if (counts[r] <= 0)
            continue;
        long long a = displs[r], b = a + counts[r];
        *lo = any && *lo < a ? *lo : a;
        *hi = any && *hi > b ? *hi : b;
        any = 1;
    }
}
