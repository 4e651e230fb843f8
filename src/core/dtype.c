/* Datatype views and packing. */
#include "runtime.h"

#include <limits.h>

int dt_view_get(MPI_Datatype t, dt_view *v)
{
    MPI_Aint lb, true_extent;
    int rc = PMPI_Type_size(t, &v->size);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Type_get_extent(t, &lb, &v->extent);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Type_get_true_extent(t, &v->true_lb, &true_extent);
    if (rc != MPI_SUCCESS)
        return MPI_ERR_TYPE;
    v->contig = v->size == 0 || (true_extent == v->size && v->extent == v->size);
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
