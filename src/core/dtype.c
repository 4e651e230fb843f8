/* Datatype views and packing. */
#include "runtime.h"

#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>

static int query(MPI_Datatype t, dt_view *v)
{
    int ni, na, nd, combiner;
    MPI_Aint lb;
    int rc = PMPI_Type_size(t, &v->size);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Type_get_extent(t, &lb, &v->extent);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Type_get_true_extent(t, &v->true_lb, &v->true_extent);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Type_get_envelope(t, &ni, &na, &nd, &combiner);
    if (rc != MPI_SUCCESS)
        return MPI_ERR_TYPE;
    v->contig = v->size == 0 || (v->true_extent == v->size && v->extent == v->size);
    v->named = combiner == MPI_COMBINER_NAMED;
    return MPI_SUCCESS;
}

/* The predefined types seen so far: entries below `named_n` are complete
 * and never change (written under the lock, then published). */
#define NAMED_MAX 64
static struct { MPI_Datatype t; dt_view v; } named[NAMED_MAX];
static atomic_int named_n;
static pthread_mutex_t named_lock = PTHREAD_MUTEX_INITIALIZER;

static int cached(MPI_Datatype t, int n, dt_view *v)
{
    for (int i = 0; i < n; i++)
        if (named[i].t == t) {
            *v = named[i].v;
            return 1;
        }
    return 0;
}

int dt_view_get(MPI_Datatype t, dt_view *v)
{
    if (cached(t, atomic_load_explicit(&named_n, memory_order_acquire), v))
        return MPI_SUCCESS;
    int rc = query(t, v);
    if (rc != MPI_SUCCESS || !v->named)
        return rc;
    pthread_mutex_lock(&named_lock);
    int n = atomic_load_explicit(&named_n, memory_order_relaxed);
    dt_view seen;
    if (n < NAMED_MAX && !cached(t, n, &seen)) {
        named[n].t = t;
        named[n].v = *v;
        atomic_store_explicit(&named_n, n + 1, memory_order_release);
    }
    pthread_mutex_unlock(&named_lock);
    return MPI_SUCCESS;
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
