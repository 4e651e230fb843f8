/*
 * Datatype views (dtype.c): sizes and bounds, packing, typed copies.
 */
#ifndef MPICOLL_RUNTIME_DTYPE_H
#define MPICOLL_RUNTIME_DTYPE_H

#include <mpi.h>
#include <stddef.h>

typedef struct dt_view {
    MPI_Aint extent, true_lb, true_extent;
    int size;
    int contig;                 /* count elements are size·count bytes at buf + true_lb */
    int named;                  /* a predefined type */
} dt_view;

/* The type's sizes and bounds. A predefined type's come from a cache
 * after its first call (its handle is never freed, so never reused);
 * a derived type's are asked of MPI each time. */
int dt_view_get(MPI_Datatype t, dt_view *v);
/* A predefined type's slot in that cache, 0 <= slot < DT_NAMED_MAX, the
 * same for the whole run; -1 for a derived type, an invalid one, or when
 * the cache is full. */
#define DT_NAMED_MAX 64
int dt_named_slot(MPI_Datatype t);
int dt_pack(const void *buf, int count, MPI_Datatype t, void *out, size_t outlen);
int dt_unpack(const void *in, size_t inlen, void *buf, int count, MPI_Datatype t);
/* Copies count elements of t from src to dst, touching only t's data. */
int dt_copy(const void *src, void *dst, size_t count, MPI_Datatype t);

/* The span of the non-empty blocks of counts and displacements per rank,
 * in elements: [*lo, *hi) (none: 0, 0). */
void counts_span(const int *counts, const int *displs, int p, long long *lo, long long *hi);

#endif
