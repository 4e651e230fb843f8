/*
 * The operation/datatype cases of the vector collectives' tests and their
 * values (see vec_check.h for what the values are): items, operations,
 * datatypes, the expected results computed without MPI's collectives, and
 * the helpers that lay out, compare and describe them. Internal to
 * vec_check.c (split from it to keep each file short).
 */
#ifndef MPICOLL_TEST_VEC_CASES_H
#define MPICOLL_TEST_VEC_CASES_H

#include <mpi.h>
#include <stddef.h>

enum {
    VC_SENTINEL = 0xA5,   /* every receive byte the collective must not write */
    VC_SEND_GAP = 0x5A,   /* the gaps of the send buffer */
    VC_MAX_EXT = 64,      /* bytes of the largest element (vc_ext_bytes) */
};

/* The basic items of the cases. K_MAT is one 2x2 int matrix (4 ints),
 * which the user operation treats as one element. */
enum kind { K_INT, K_UNS, K_BYTE, K_FLOAT, K_DOUBLE, K_DOUBLE_INT, K_2INT, K_MAT };

union item {
    int i;
    unsigned u;
    unsigned char b;
    float f;
    double d;
    struct { double v; int i; } di;  /* MPI_DOUBLE_INT */
    struct { int v; int i; } ii;     /* MPI_2INT */
    int m[4];                        /* row-major 2x2 */
};

enum opc { O_SUM, O_PROD, O_MIN, O_MAX, O_LAND, O_LOR, O_LXOR, O_BAND, O_BOR, O_BXOR,
           O_MINLOC, O_MAXLOC, O_MATMUL, O_USERSUM };

/* A datatype as the test sees it: ndata items of its case's kind at item
 * offsets offs[] inside an extent of `extent` items, lower bound 0. */
struct vlayout {
    const char *name;
    MPI_Datatype type;
    int ndata;
    int offs[3];
    int extent;
};

struct vcase {
    const char *name;
    struct vlayout *l;
    enum kind kind;
    enum opc op;
    int main;     /* 1: every count of the matrix; 0: one count (p + 1) */
    int inexact;  /* double SUM with order-dependent rounding */
};

extern const struct vcase vc_cases[];
extern const int vc_ncases;
/* The cases of reduce_scatter_block's full matrix: the first four. */
#define VC_NCASES_RSB_MAIN 4

/* Set when the user SUM saw a datatype of neither derived type's extent;
 * the caller reports and clears it. */
extern int vc_usersum_bad_type;

const char *vc_op_name(enum opc o);
MPI_Op vc_mpi_op(enum opc o);
int vc_op_commutative(enum opc o);

/* Bytes of an item in the buffer, and of its data (MPI_DOUBLE_INT pads). */
size_t vc_isize(enum kind k);
size_t vc_dsize(enum kind k);
/* Bytes of one element (the extent of the case's datatype). */
size_t vc_ext_bytes(const struct vcase *c);

/* Creates the derived types and operations and checks the layouts (MPI_Init
 * done; prints a FAIL line for coll on a mismatch). Returns 0 or 1. */
int vc_types_create(const char *coll);
void vc_types_free(void);

/* src of the reduction over ranks 0..k in rank order (scan's result at
 * rank k), for vc_place and vc_image; src = -1: over all p ranks. */
#define VC_PREFIX(k) (-2 - (k))

/* Writes elements e0 .. e0+n-1 of rank src's vector (src < 0: the
 * reduction over p ranks in rank order, or VC_PREFIX's) at base, element
 * e0 first. */
void vc_place(unsigned char *base, const struct vcase *c, int p, int src, size_t e0, size_t n);

/* The same n elements laid over n * vc_ext_bytes(c) bytes of `fill` (its
 * gaps and padding), from a cache of the images of this communicator size
 * (vec_cases.c), or NULL if it cannot hold it (no memory): the caller then
 * makes it with memset and vc_place. Valid until the first call of
 * vc_image after the next vc_image_epoch (each call of the test calls it
 * first), a call with another p, or vc_images_free. */
const unsigned char *vc_image(const struct vcase *c, int p, int src, size_t e0, size_t n,
                              unsigned char fill);
void vc_image_epoch(void);
/* Frees the cache (vc_types_free does). */
void vc_images_free(void);

/* mask: M_DATA where an item's data is, M_PAD where its padding is (never
 * compared), M_KEEP elsewhere (must keep the sentinel). n elements. */
enum { M_PAD = 0, M_DATA = 1, M_KEEP = 2 };
void vc_mark(unsigned char *mask, const struct vcase *c, size_t n, int data);

int vc_item_equal(const struct vcase *c, const unsigned char *got, const unsigned char *want);
void vc_describe(char *out, size_t len, const struct vcase *c, const unsigned char *at);

#endif
