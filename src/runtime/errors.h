/*
 * Errors and argument checks (errors.c).
 */
#ifndef MPICOLL_RUNTIME_ERRORS_H
#define MPICOLL_RUNTIME_ERRORS_H

#include <mpi.h>
#include <stddef.h>

/* After each call of a function that returns an MPI error code: on an
 * error, `rc` keeps it and control goes to the function's one cleanup
 * label, `out`, which frees what the function holds and returns rc. */
#define CHECK(call)                 \
    do {                            \
        rc = (call);                \
        if (rc != MPI_SUCCESS)      \
            goto out;               \
    } while (0)

/* Raises `code` on comm's error handler (MPI_COMM_WORLD's when comm is
 * MPI_COMM_NULL) and returns it. */
int mpicoll_raise(MPI_Comm comm, int code);

/* Argument checks shared by entry points: MPI_SUCCESS or an error class
 * (docs/robustness.md has the table). All are local. */
int check_comm(MPI_Comm comm);                  /* NULL, intercommunicator: COMM */
int check_count_type(int count, MPI_Datatype t);    /* COUNT; TYPE: NULL, uncommitted */
/* n elements of t at buf: BUFFER when buf is NULL and the data would start
 * at address 0 (NULL is also MPI_BOTTOM, for absolute addresses). */
int check_buffer(const void *buf, size_t n, MPI_Datatype t);
/* BUFFER when the send and receive data overlap (without MPI_IN_PLACE). */
int check_disjoint(const void *a, size_t na, MPI_Datatype ta, const void *b, size_t nb,
                   MPI_Datatype tb);
/* OP: MPI_OP_NULL, or a predefined operation that the MPI library refuses
 * on t's predefined base type (asked once per pair: src/runtime/errors.c);
 * TYPE: a predefined operation on a type mixing predefined types. */
int check_op(MPI_Op op, MPI_Datatype t);
/* 1 when the library takes a predefined operation on the predefined type
 * `base` (dt_base_type) but mpicoll leaves the call to the library's own
 * collective (MPI_REPLACE, MPI_NO_OP; MPICH's logical operations on
 * floating point); 0 for a user operation. */
int op_for_library(MPI_Op op, MPI_Datatype base);
/* Send and receive sides of a block collective: TRUNCATE when their bytes
 * differ, TYPE when their elements differ in size. */
int check_signatures(int scount, MPI_Datatype stype, int rcount, MPI_Datatype rtype);

int op_is_predefined(MPI_Op op);
/* The one predefined type t is built from, or MPI_DATATYPE_NULL when it
 * mixes several (or is too deep). */
MPI_Datatype dt_base_type(MPI_Datatype t);

#endif
