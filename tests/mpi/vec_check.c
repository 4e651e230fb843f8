/*
 * Shared machinery of the MPI tests of the vector collectives; see
 * vec_check.h.
 */
#include "vec_check.h"
#include "block_check.h" /* bc_split_comm, bc_world_rank, bc_world_size */

#include <mpicoll.h>

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    SENTINEL = 0xA5,   /* every receive byte the collective must not write */
    SEND_GAP = 0x5A,   /* the gaps of the send buffer */
    GUARD = 64,        /* sentinel bytes before and after the receive buffer */
    MAX_LINES = 20,    /* FAIL lines one rank prints; failures still count */
    BIG = 100003       /* the largest count of the matrix */
};

static const char *coll_name = "allreduce";
static int lines_printed;

const char *vc_coll_name(enum vc_coll coll)
{
    static const char *const names[] = { "allreduce", "reduce", "bcast",
                                         "reduce_scatter_block" };
    return names[coll];
}

static void fail_line(const char *fmt, ...)
{
    va_list ap;
    if (lines_printed++ >= MAX_LINES) {
        if (lines_printed == MAX_LINES + 1)
            printf("FAIL %s: world_rank=%d: more failures, lines muted\n", coll_name,
                   bc_world_rank());
        return;
    }
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
}

/* ---- items, values and operations ------------------------------------------ */

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

/* Bytes of an item in the buffer, and of its data (MPI_DOUBLE_INT pads). */
static size_t isize(enum kind k)
{
    static const size_t s[] = { sizeof(int), sizeof(unsigned), 1, sizeof(float),
                                sizeof(double), sizeof(((union item *)0)->di),
                                sizeof(((union item *)0)->ii), 4 * sizeof(int) };
    return s[k];
}

static size_t dsize(enum kind k)
{
    return k == K_DOUBLE_INT ? sizeof(double) + sizeof(int) : isize(k);
}

enum opc { O_SUM, O_PROD, O_MIN, O_MAX, O_LAND, O_LOR, O_LXOR, O_BAND, O_BOR, O_BXOR,
           O_MINLOC, O_MAXLOC, O_MATMUL, O_USERSUM };

static const char *const op_names[] = { "SUM", "PROD", "MIN", "MAX", "LAND", "LOR", "LXOR",
                                        "BAND", "BOR", "BXOR", "MINLOC", "MAXLOC",
                                        "matmul", "usersum" };

/* The user operation: inout = in x inout, 2x2 int matrices (in holds the
 * earlier ranks' product, as MPI orders a non-commutative reduction). */
static void matmul(void *in, void *inout, int *len, MPI_Datatype *type)
{
    const int *a = in;
    int *b = inout;
    (void)type;
    for (int k = 0; k < *len; k++, a += 4, b += 4) {
        int c[4] = { a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3],
                     a[2] * b[0] + a[3] * b[2], a[2] * b[1] + a[3] * b[3] };
        memcpy(b, c, sizeof c);
    }
}

/* A commutative user SUM on the two derived types: contiguous(3, MPI_INT),
 * and the vector of doubles whose gaps it must not touch. Told apart by
 * their extent. (MPI_SUM on them is tested too: mpicoll reduces their
 * predefined base type, where Open MPI's own collectives reject them.) */
static int usersum_bad_type;

static void usersum(void *in, void *inout, int *len, MPI_Datatype *type)
{
    MPI_Aint lb, extent;
    MPI_Type_get_extent(*type, &lb, &extent);
    if (extent == (MPI_Aint)(3 * sizeof(int))) {
        const int *a = in;
        int *b = inout;
        for (int i = 0; i < 3 * *len; i++)
            b[i] += a[i];
    } else if (extent == (MPI_Aint)(5 * sizeof(double))) {
        const double *a = in;
        double *b = inout;
        for (int e = 0; e < *len; e++) {
            b[5 * e] += a[5 * e];
            b[5 * e + 3] += a[5 * e + 3];
        }
    } else {
        usersum_bad_type = 1;
    }
}

static MPI_Op matmul_op = MPI_OP_NULL, usersum_op = MPI_OP_NULL;

static MPI_Op mpi_op(enum opc o)
{
    switch (o) {
    case O_SUM: return MPI_SUM;
    case O_PROD: return MPI_PROD;
    case O_MIN: return MPI_MIN;
    case O_MAX: return MPI_MAX;
    case O_LAND: return MPI_LAND;
    case O_LOR: return MPI_LOR;
    case O_LXOR: return MPI_LXOR;
    case O_BAND: return MPI_BAND;
    case O_BOR: return MPI_BOR;
    case O_BXOR: return MPI_BXOR;
    case O_MINLOC: return MPI_MINLOC;
    case O_MAXLOC: return MPI_MAXLOC;
    case O_MATMUL: return matmul_op;
    case O_USERSUM: return usersum_op;
    }
    return MPI_OP_NULL;
}

/* ---- datatypes and cases ----------------------------------------------------- */

/* A datatype as the test sees it: ndata items of its case's kind at item
 * offsets offs[] inside an extent of `extent` items, lower bound 0. */
struct vlayout {
    const char *name;
    MPI_Datatype type;
    int ndata;
    int offs[3];
    int extent;
};

static struct vlayout l_int = { "MPI_INT", MPI_DATATYPE_NULL, 1, { 0 }, 1 };
static struct vlayout l_uns = { "MPI_UNSIGNED", MPI_DATATYPE_NULL, 1, { 0 }, 1 };
static struct vlayout l_byte = { "MPI_BYTE", MPI_DATATYPE_NULL, 1, { 0 }, 1 };
static struct vlayout l_float = { "MPI_FLOAT", MPI_DATATYPE_NULL, 1, { 0 }, 1 };
static struct vlayout l_double = { "MPI_DOUBLE", MPI_DATATYPE_NULL, 1, { 0 }, 1 };
static struct vlayout l_dint = { "MPI_DOUBLE_INT", MPI_DATATYPE_NULL, 1, { 0 }, 1 };
static struct vlayout l_2int = { "MPI_2INT", MPI_DATATYPE_NULL, 1, { 0 }, 1 };
/* contiguous(4, MPI_INT): one matrix */
static struct vlayout l_mat = { "contig(4,MPI_INT)", MPI_DATATYPE_NULL, 1, { 0 }, 1 };
/* contiguous(3, MPI_INT): a derived contiguous type */
static struct vlayout l_c3 = { "contig(3,MPI_INT)", MPI_DATATYPE_NULL, 3, { 0, 1, 2 }, 3 };
/* vector(2, 1, 3, MPI_DOUBLE) resized to 5 doubles: data at doubles 0 and
 * 3, gaps at 1, 2 and 4 */
static struct vlayout l_dvec = { "vector(2,1,3,MPI_DOUBLE)/5", MPI_DATATYPE_NULL, 2,
                                 { 0, 3 }, 5 };

struct vcase {
    const char *name;
    struct vlayout *l;
    enum kind kind;
    enum opc op;
    int main;     /* 1: every count of the matrix; 0: one count (p + 1) */
    int inexact;  /* double SUM with order-dependent rounding */
};

static const struct vcase cases[] = {
    { "int_sum", &l_int, K_INT, O_SUM, 1, 0 },
    { "double_sum", &l_double, K_DOUBLE, O_SUM, 1, 1 },
    { "matmul", &l_mat, K_MAT, O_MATMUL, 1, 0 },
    { "double_int_minloc", &l_dint, K_DOUBLE_INT, O_MINLOC, 1, 0 },
    { "contig3_int_sum", &l_c3, K_INT, O_SUM, 1, 0 },
    { "vector_double_sum", &l_dvec, K_DOUBLE, O_SUM, 1, 0 },
    /* every other predefined operation, once */
    { "float_sum", &l_float, K_FLOAT, O_SUM, 0, 0 },
    { "int_prod", &l_int, K_INT, O_PROD, 0, 0 },
    { "int_min", &l_int, K_INT, O_MIN, 0, 0 },
    { "double_max", &l_double, K_DOUBLE, O_MAX, 0, 0 },
    { "int_land", &l_int, K_INT, O_LAND, 0, 0 },
    { "int_lor", &l_int, K_INT, O_LOR, 0, 0 },
    { "int_lxor", &l_int, K_INT, O_LXOR, 0, 0 },
    { "unsigned_band", &l_uns, K_UNS, O_BAND, 0, 0 },
    { "unsigned_bor", &l_uns, K_UNS, O_BOR, 0, 0 },
    { "byte_bxor", &l_byte, K_BYTE, O_BXOR, 0, 0 },
    { "2int_maxloc", &l_2int, K_2INT, O_MAXLOC, 0, 0 },
    /* a user operation sees the user's derived type, gaps included */
    { "contig3_int_usersum", &l_c3, K_INT, O_USERSUM, 0, 0 },
    { "vector_double_usersum", &l_dvec, K_DOUBLE, O_USERSUM, 0, 0 },
};
#define NCASES ((int)(sizeof cases / sizeof cases[0]))
/* The cases of reduce_scatter_block's full matrix: the first four. */
#define NCASES_RSB_MAIN 4

static size_t ext_bytes(const struct vcase *c)
{
    return (size_t)c->l->extent * isize(c->kind);
}

static int layout_ok(const struct vcase *c)
{
    int size;
    MPI_Aint lb, extent;
    MPI_Type_size(c->l->type, &size);
    MPI_Type_get_extent(c->l->type, &lb, &extent);
    if (lb != 0 || (size_t)extent != ext_bytes(c)
        || (size_t)size != (size_t)c->l->ndata * dsize(c->kind)) {
        printf("FAIL %s: test setup: type %s has lb=%ld extent=%ld size=%d, expected lb=0"
               " extent=%zu size=%zu\n", coll_name, c->l->name, (long)lb, (long)extent, size,
               ext_bytes(c), (size_t)c->l->ndata * dsize(c->kind));
        return 0;
    }
    return 1;
}

static int types_create(void)
{
    MPI_Datatype vec;
    int ok = 1;
    l_int.type = MPI_INT;
    l_uns.type = MPI_UNSIGNED;
    l_byte.type = MPI_BYTE;
    l_float.type = MPI_FLOAT;
    l_double.type = MPI_DOUBLE;
    l_dint.type = MPI_DOUBLE_INT;
    l_2int.type = MPI_2INT;
    MPI_Type_contiguous(4, MPI_INT, &l_mat.type);
    MPI_Type_commit(&l_mat.type);
    MPI_Type_contiguous(3, MPI_INT, &l_c3.type);
    MPI_Type_commit(&l_c3.type);
    MPI_Type_vector(2, 1, 3, MPI_DOUBLE, &vec);
    MPI_Type_create_resized(vec, 0, (MPI_Aint)(5 * sizeof(double)), &l_dvec.type);
    MPI_Type_free(&vec);
    MPI_Type_commit(&l_dvec.type);
    MPI_Op_create(matmul, 0, &matmul_op);
    MPI_Op_create(usersum, 1, &usersum_op);
    for (int i = 0; i < NCASES; i++)
        ok &= layout_ok(&cases[i]);
    return ok ? 0 : 1;
}

static void types_free(void)
{
    MPI_Type_free(&l_mat.type);
    MPI_Type_free(&l_c3.type);
    MPI_Type_free(&l_dvec.type);
    MPI_Op_free(&matmul_op);
    MPI_Op_free(&usersum_op);
}

/* Item g of rank r's vector in a communicator of p ranks. */
static union item val(const struct vcase *c, int p, int r, size_t g)
{
    union item x;
    size_t ur = (size_t)r;
    memset(&x, 0, sizeof x);
    switch (c->op) {
    case O_SUM:
    case O_USERSUM:
        if (c->kind == K_INT)
            x.i = (int)((g * 7 + ur * 13) % 1000) - 300;
        else if (c->kind == K_FLOAT)
            x.f = (float)((g + ur * 3) % 50);
        else if (c->inexact)  /* 1/3, 1/7 ...: the sum's rounding depends on the order */
            x.d = 1.0 / (double)(1 + (g + ur) % 7) + 1e-3 * (double)r
                  + 1e-7 * (double)(g % 1000);
        else
            x.d = (double)((g * 3 + ur * 5) % 101);
        break;
    case O_PROD:
        x.i = 1 + (int)((g + ur) % 2);
        break;
    case O_MIN:
        x.i = (int)((g * 7 + ur * 11) % 23) - 11;
        break;
    case O_MAX:
        x.d = (double)((g * 5 + ur * 3) % 17) * 0.5 - 3.0;
        break;
    case O_LAND: /* mostly true: false in about one item in 7 per rank */
        x.i = (g * 5 + ur * 3) % 7 == 0 ? 0 : 1 + (int)((g + ur) % 3);
        break;
    case O_LOR: /* mostly false */
        x.i = (g * 5 + ur * 3) % 7 == 0 ? 2 + (int)(ur % 3) : 0;
        break;
    case O_LXOR:
        x.i = (g + ur * ur) % 2 ? 1 + (int)(g % 3) : 0;
        break;
    case O_BAND:
        x.u = ~((1u << ((g + ur * 5) % 32)) | (1u << ((g * 3 + ur) % 32)));
        break;
    case O_BOR:
        x.u = (1u << ((g + ur * 5) % 32)) | (1u << ((g * 7 + ur * 3) % 32));
        break;
    case O_BXOR:
        x.b = (unsigned char)(g * 31 + ur * 17 + 1);
        break;
    case O_MINLOC: /* ties between ranks; the index falls with the rank */
        x.di.v = (double)((g * 3 + ur * 5) % 4);
        x.di.i = (p - 1 - r) * 3 + (int)(g % 3);
        break;
    case O_MAXLOC:
        x.ii.v = (int)((g * 5 + ur * 3) % 7);
        x.ii.i = (int)((ur * 7 + g) % 5);
        break;
    case O_MATMUL: /* [[a, b], [0, 1]]: products depend on the order */
        x.m[0] = 1 + (int)((g + ur) % 3);
        x.m[1] = (int)((ur * 7 + g) % 11) - 5;
        x.m[2] = 0;
        x.m[3] = 1;
        break;
    }
    return x;
}

/* a o b, a holding the earlier ranks. */
static union item combine(const struct vcase *c, union item a, union item b)
{
    union item x = a;
    switch (c->op) {
    case O_SUM:
    case O_USERSUM:
        if (c->kind == K_INT)
            x.i = a.i + b.i;
        else if (c->kind == K_FLOAT)
            x.f = a.f + b.f;
        else
            x.d = a.d + b.d;
        break;
    case O_PROD: x.i = a.i * b.i; break;
    case O_MIN: x.i = a.i < b.i ? a.i : b.i; break;
    case O_MAX: x.d = a.d > b.d ? a.d : b.d; break;
    case O_LAND: x.i = a.i && b.i; break;
    case O_LOR: x.i = a.i || b.i; break;
    case O_LXOR: x.i = !a.i != !b.i; break;
    case O_BAND: x.u = a.u & b.u; break;
    case O_BOR: x.u = a.u | b.u; break;
    case O_BXOR: x.b = (unsigned char)(a.b ^ b.b); break;
    case O_MINLOC:
        if (b.di.v < a.di.v || (b.di.v == a.di.v && b.di.i < a.di.i))
            x.di = b.di;
        break;
    case O_MAXLOC:
        if (b.ii.v > a.ii.v || (b.ii.v == a.ii.v && b.ii.i < a.ii.i))
            x.ii = b.ii;
        break;
    case O_MATMUL:
        matmul(&a, &b, &(int){ 1 }, NULL);
        x = b;
        break;
    }
    return x;
}

/* Item g of rank `src`'s vector, or (src < 0) their reduction in rank
 * order. */
static union item value(const struct vcase *c, int p, int src, size_t g)
{
    union item acc;
    if (src >= 0)
        return val(c, p, src, g);
    acc = val(c, p, 0, g);
    for (int r = 1; r < p; r++)
        acc = combine(c, acc, val(c, p, r, g));
    return acc;
}

/* Writes elements e0 .. e0+n-1 of rank src's vector (src < 0: the
 * reduction) at base, element e0 first. */
static void place(unsigned char *base, const struct vcase *c, int p, int src, size_t e0,
                  size_t n)
{
    const size_t is = isize(c->kind), ext = ext_bytes(c), nd = (size_t)c->l->ndata;
    for (size_t e = 0; e < n; e++)
        for (size_t k = 0; k < nd; k++) {
            union item x = value(c, p, src, (e0 + e) * nd + k);
            memcpy(base + e * ext + (size_t)c->l->offs[k] * is, &x, dsize(c->kind));
        }
}

/* mask: 1 where an item's data is, 0 where its padding is (never compared),
 * 2 elsewhere (must keep the sentinel). n elements at base. */
enum { M_PAD = 0, M_DATA = 1, M_KEEP = 2 };

static void mark(unsigned char *mask, const struct vcase *c, size_t n, int data)
{
    const size_t is = isize(c->kind), ext = ext_bytes(c);
    memset(mask, M_KEEP, n * ext);
    for (size_t e = 0; e < n; e++)
        for (int k = 0; k < c->l->ndata; k++) {
            unsigned char *at = mask + e * ext + (size_t)c->l->offs[k] * is;
            memset(at, M_PAD, is);  /* insignificant data: not compared */
            if (data)
                memset(at, M_DATA, dsize(c->kind));
        }
}

static int item_equal(const struct vcase *c, const unsigned char *got,
                      const unsigned char *want)
{
    if (c->inexact) {
        double a, b;
        memcpy(&a, got, sizeof a);
        memcpy(&b, want, sizeof b);
        return fabs(a - b) <= 1e-10 * (fabs(b) > 1 ? fabs(b) : 1);
    }
    return memcmp(got, want, dsize(c->kind)) == 0;
}

static void describe(char *out, size_t len, const struct vcase *c, const unsigned char *at)
{
    union item x;
    size_t ds = dsize(c->kind), i = 0;
    while (i < ds && at[i] == SENTINEL)
        i++;
    if (i == ds) {
        snprintf(out, len, "sentinel (never written)");
        return;
    }
    memcpy(&x, at, ds);
    switch (c->kind) {
    case K_INT: snprintf(out, len, "%d", x.i); break;
    case K_UNS: snprintf(out, len, "0x%08x", x.u); break;
    case K_BYTE: snprintf(out, len, "0x%02x", x.b); break;
    case K_FLOAT: snprintf(out, len, "%.9g", (double)x.f); break;
    case K_DOUBLE: snprintf(out, len, "%.17g", x.d); break;
    case K_DOUBLE_INT: snprintf(out, len, "(%.17g, %d)", x.di.v, x.di.i); break;
    case K_2INT: snprintf(out, len, "(%d, %d)", x.ii.v, x.ii.i); break;
    case K_MAT:
        snprintf(out, len, "[[%d %d] [%d %d]]", x.m[0], x.m[1], x.m[2], x.m[3]);
        break;
    }
}

/* ---- one call ------------------------------------------------------------------ */

struct vcall {
    enum vc_coll coll;
    const char *algo_label;
    MPI_Comm comm;
    const char *comm_label;
    const struct vcase *c;
    int n;        /* count (recvcount for reduce_scatter_block) */
    int inplace;
    int root;     /* reduce and bcast; -1 otherwise */
};

static void prefix(char *out, size_t len, const struct vcall *v, int rank, int p)
{
    char root[32] = "-";
    if (v->root >= 0)
        snprintf(root, sizeof root, "%d", v->root);
    snprintf(out, len, "FAIL %s: algorithm=%s np=%d comm=%s(size=%d) case=%s (%s %s)"
             " count=%d inplace=%d root=%s rank=%d world_rank=%d:", coll_name, v->algo_label,
             bc_world_size(), v->comm_label, p, v->c->name, v->c->l->name,
             v->coll == VC_BCAST ? "-" : op_names[v->c->op], v->n, v->inplace, root, rank,
             bc_world_rank());
}

/* Compares the receive image (GUARD bytes, nbytes of buffer, GUARD bytes)
 * with want under mask; one FAIL line for the first wrong place. */
static int compare(const char *pre, const struct vcase *c, const unsigned char *got,
                   const unsigned char *want, const unsigned char *mask, size_t nbytes)
{
    const size_t total = nbytes + 2 * GUARD, is = isize(c->kind), ext = ext_bytes(c);
    size_t first = total, nwrong = 0;
    char where[160], exp[128], act[128];

    for (size_t b = 0; b < total; b++) {
        int bad;
        if (mask[b] == M_KEEP)
            bad = got[b] != SENTINEL;
        else if (mask[b] == M_DATA && (b - GUARD) % is == 0)
            bad = !item_equal(c, got + b, want + b); /* the first byte of an item */
        else
            continue;
        if (bad) {
            if (first == total)
                first = b;
            nwrong++;
        }
    }
    if (nwrong == 0)
        return 0;
    if (first < GUARD) {
        snprintf(where, sizeof where, "guard zone before recvbuf, byte %zu", first);
    } else if (first >= GUARD + nbytes) {
        snprintf(where, sizeof where, "guard zone past the end of recvbuf, byte %zu",
                 first - GUARD - nbytes);
    } else {
        size_t off = first - GUARD, e = off / ext, o = off % ext / is;
        int k = -1;
        for (int i = 0; i < c->l->ndata; i++)
            if ((size_t)c->l->offs[i] == o)
                k = i;
        if (k < 0 || mask[first] == M_KEEP)
            snprintf(where, sizeof where, "element %zu, gap at byte %zu of the element", e,
                     off % ext);
        else
            snprintf(where, sizeof where, "element %zu, item %d (basic item %zu)", e, k,
                     e * (size_t)c->l->ndata + (size_t)k);
    }
    if (mask[first] == M_KEEP) {
        snprintf(exp, sizeof exp, "the sentinel 0x%02x", SENTINEL);
        snprintf(act, sizeof act, "0x%02x", got[first]);
    } else {
        describe(exp, sizeof exp, c, want + first);
        describe(act, sizeof act, c, got + first);
    }
    fail_line("%s first wrong element: %s: expected %s, got %s (%zu wrong places in all)\n",
              pre, where, exp, act, nwrong);
    return 1;
}

static int report_error(const char *pre, int err)
{
    int cls, n;
    char s[MPI_MAX_ERROR_STRING];
    MPI_Error_class(err, &cls);
    MPI_Error_string(err, s, &n);
    fail_line("%s returned error class %d (%s)\n", pre, cls, s);
    return 1;
}

/* Runs and checks one call on this rank. Collective over v->comm (a
 * double SUM allreduce also broadcasts rank 0's result natively). Returns
 * 1 if this rank saw a failure. */
static int vc_run(const struct vcall *v)
{
    const struct vcase *c = v->c;
    const size_t ext = ext_bytes(c), n = (size_t)v->n;
    const MPI_Op op = v->coll == VC_BCAST ? MPI_OP_NULL : mpi_op(c->op);
    int rank, p, err = MPI_SUCCESS, failed = 1;
    size_t sn, rn, rbytes, total;   /* send / receive elements */
    unsigned char *sbuf = NULL, *scopy = NULL, *rraw = NULL, *want = NULL, *mask = NULL;
    unsigned char *root_copy = NULL;
    char pre[512];
    void *rbuf;
    int is_root;

    MPI_Comm_rank(v->comm, &rank);
    MPI_Comm_size(v->comm, &p);
    prefix(pre, sizeof pre, v, rank, p);
    is_root = v->root < 0 || rank == v->root;

    /* sizes: the receive buffer holds what MPI says it holds at entry in
     * place (p blocks for reduce_scatter_block) */
    sn = v->coll == VC_REDUCE_SCATTER_BLOCK ? (size_t)p * n : n;
    rn = v->coll == VC_REDUCE_SCATTER_BLOCK && v->inplace ? (size_t)p * n : n;
    rbytes = rn * ext;
    total = rbytes + 2 * GUARD;
    sbuf = malloc(sn * ext + 1);
    scopy = malloc(sn * ext + 1);
    rraw = malloc(total);
    want = malloc(total);
    mask = malloc(total);
    if (!sbuf || !scopy || !rraw || !want || !mask) {
        fail_line("%s test setup: out of memory\n", pre);
        goto out;
    }
    rbuf = rraw + GUARD;

    /* send data (bcast: the root's buffer at entry) */
    memset(sbuf, SEND_GAP, sn * ext + 1);
    place(sbuf, c, p, v->coll == VC_BCAST ? v->root : rank, 0, sn);
    memcpy(scopy, sbuf, sn * ext + 1);

    /* the receive buffer at entry */
    memset(rraw, SENTINEL, total);
    if (v->coll == VC_BCAST ? rank == v->root : v->inplace && is_root)
        place(rbuf, c, p, v->coll == VC_BCAST ? v->root : rank, 0, rn);

    /* what it must hold after */
    memset(want, SENTINEL, total);
    memset(mask, M_KEEP, total);
    switch (v->coll) {
    case VC_ALLREDUCE:
        place(want + GUARD, c, p, -1, 0, n);
        mark(mask + GUARD, c, n, 1);
        break;
    case VC_REDUCE:
        if (is_root) {
            place(want + GUARD, c, p, -1, 0, n);
            mark(mask + GUARD, c, n, 1);
        }
        break;
    case VC_BCAST:
        place(want + GUARD, c, p, v->root, 0, n);
        mark(mask + GUARD, c, n, 1);
        break;
    case VC_REDUCE_SCATTER_BLOCK:
        place(want + GUARD, c, p, -1, (size_t)rank * n, n);
        mark(mask + GUARD, c, n, 1);
        if (rn > n) /* in place: the other blocks' data is undefined after */
            mark(mask + GUARD + n * ext, c, rn - n, 0);
        break;
    }

    switch (v->coll) {
    case VC_ALLREDUCE:
        err = mpicoll_allreduce(v->inplace ? MPI_IN_PLACE : sbuf, rbuf, v->n, c->l->type, op,
                                v->comm);
        break;
    case VC_REDUCE:
        err = mpicoll_reduce(v->inplace && is_root ? MPI_IN_PLACE : sbuf, rbuf, v->n,
                             c->l->type, op, v->root, v->comm);
        break;
    case VC_BCAST:
        err = mpicoll_bcast(rbuf, v->n, c->l->type, v->root, v->comm);
        break;
    case VC_REDUCE_SCATTER_BLOCK:
        err = mpicoll_reduce_scatter_block(v->inplace ? MPI_IN_PLACE : sbuf, rbuf, v->n,
                                           c->l->type, op, v->comm);
        break;
    }

    /* Every rank's result must be bitwise rank 0's: the same reduction
     * everywhere, not p roundings of it. Collective: every rank takes
     * part whatever it saw. */
    if (v->coll == VC_ALLREDUCE && c->inexact && rbytes > 0) {
        root_copy = malloc(rbytes);
        if (!root_copy) {
            fail_line("%s test setup: out of memory\n", pre);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        memcpy(root_copy, rbuf, rbytes);
        MPI_Bcast(root_copy, (int)rbytes, MPI_BYTE, 0, v->comm);
    }

    if (err != MPI_SUCCESS) {
        report_error(pre, err);
        goto out;
    }
    if (usersum_bad_type) {
        usersum_bad_type = 0;
        fail_line("%s the user operation was called with a datatype of neither derived"
                  " type's extent\n", pre);
        goto out;
    }
    if (compare(pre, c, rraw, want, mask, rbytes))
        goto out;
    if (root_copy) {
        for (size_t e = 0; e < n; e++)
            for (int k = 0; k < c->l->ndata; k++) {
                size_t at = e * ext + (size_t)c->l->offs[k] * isize(c->kind);
                if (memcmp((unsigned char *)rbuf + at, root_copy + at, dsize(c->kind))) {
                    double a, b;
                    memcpy(&a, (unsigned char *)rbuf + at, sizeof a);
                    memcpy(&b, root_copy + at, sizeof b);
                    fail_line("%s first wrong element: element %zu, item %d: not bitwise"
                              " rank 0's result: rank 0 has %.17g (%a), this rank %.17g"
                              " (%a)\n", pre, e, k, b, b, a, a);
                    goto out;
                }
            }
    }
    if (v->coll != VC_BCAST && !(v->inplace && is_root)
        && memcmp(sbuf, scopy, sn * ext + 1) != 0) {
        size_t i = 0;
        while (sbuf[i] == scopy[i])
            i++;
        fail_line("%s the send buffer was modified at byte %zu (0x%02x -> 0x%02x)\n", pre, i,
                  scopy[i], sbuf[i]);
        goto out;
    }
    failed = 0;
out:
    fflush(stdout);
    free(sbuf);
    free(scopy);
    free(rraw);
    free(want);
    free(mask);
    free(root_copy);
    return failed;
}

/* ---- the matrix ------------------------------------------------------------------ */

struct tally {
    int cases, failed; /* counted by rank 0 of each communicator */
};

/* Runs one call and agrees on its verdict over the communicator (natively). */
static void one(const struct vcall *v, struct tally *t)
{
    int bad = vc_run(v), rank;
    MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_MAX, v->comm);
    MPI_Comm_rank(v->comm, &rank);
    if (rank == 0) {
        t->cases++;
        t->failed += bad != 0;
    }
}

/* Appends x to list[0..*n) unless there. */
static void add_unique(int *list, int *n, int x)
{
    for (int i = 0; i < *n; i++)
        if (list[i] == x)
            return;
    list[(*n)++] = x;
}

/* The cases of the collective on a communicator of p ranks. */
static void run_comm(enum vc_coll coll, const char *algo, MPI_Comm comm, const char *label,
                     struct tally *t)
{
    int p, counts[8], ncounts = 0, roots[3], nroots = 0;
    MPI_Comm_size(comm, &p);

    if (coll == VC_REDUCE_SCATTER_BLOCK) {
        static const int rc[] = { 0, 1, 3, 1000 };
        for (int i = 0; i < 4; i++)
            add_unique(counts, &ncounts, rc[i]);
    } else {
        const int ac[] = { 0, 1, 3, p - 1, p + 1, 1000, BIG };
        /* BIG on MPI_COMM_WORLD only: it is most of the run time */
        for (int i = 0; i < (comm == MPI_COMM_WORLD ? 7 : 6); i++)
            add_unique(counts, &ncounts, ac[i]);
    }
    if (coll == VC_REDUCE || coll == VC_BCAST) {
        add_unique(roots, &nroots, 0);
        add_unique(roots, &nroots, p - 1);
        add_unique(roots, &nroots, p / 2);
    } else {
        roots[nroots++] = -1;
    }

    for (int ci = 0; ci < NCASES; ci++) {
        const struct vcase *c = &cases[ci];
        const int full = c->main && !(coll == VC_REDUCE_SCATTER_BLOCK && ci >= NCASES_RSB_MAIN);
        for (int k = 0; k < (full ? ncounts : 1); k++)
            for (int ri = 0; ri < nroots; ri++)
                for (int inplace = 0; inplace < (coll == VC_BCAST ? 1 : 2); inplace++) {
                    struct vcall v = { coll, algo, comm, label, c,
                                       full ? counts[k] : p + 1, inplace, roots[ri] };
                    one(&v, t);
                }
    }
}

int vc_matrix_main(int argc, char **argv)
{
    enum vc_coll coll = VC_ALLREDUCE;
    int found = 0, rank, np, setup_bad, app = 1;
    char env[64];
    const char *forced, *algo;
    struct tally t = { 0, 0 }, sum;
    double t0;
    MPI_Comm split;

    for (int i = 0; i < 4 && argc >= 2; i++)
        if (strcmp(argv[1], vc_coll_name((enum vc_coll)i)) == 0) {
            coll = (enum vc_coll)i;
            found = 1;
        }
    if (!found) {
        fprintf(stderr, "usage: %s allreduce|reduce|bcast|reduce_scatter_block\n", argv[0]);
        return 2;
    }
    coll_name = vc_coll_name(coll);
    snprintf(env, sizeof env, "MPICOLL_%s", coll_name);
    for (char *s = env; *s; s++)
        if (*s >= 'a' && *s <= 'z')
            *s = (char)(*s - 'a' + 'A');
    forced = getenv(env);
    algo = forced && *forced ? forced : "auto";

    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    rank = bc_world_rank();
    np = bc_world_size();
    setup_bad = types_create();
    split = bc_split_comm();
    t0 = MPI_Wtime();

    run_comm(coll, algo, MPI_COMM_WORLD, "world", &t);
    run_comm(coll, algo, split, "split", &t);

    /* The verdict goes through the native MPI, not the library under test. */
    t.failed += setup_bad;
    MPI_Reduce(&t, &sum, 2, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (forced && *forced)
        app = mpicoll_algorithm_applicable(coll_name, forced, np);
    if (rank == 0)
        printf("test_reduction %s: algorithm=%s%s np=%d calls=%d failures=%d (%.1f s)\n",
               coll_name, algo, app == 1 ? "" : app == 0 ? " (not applicable at this np: its"
               " fallback ran)" : " (not a valid spec)", np, sum.cases, sum.failed,
               MPI_Wtime() - t0);
    MPI_Bcast(&sum.failed, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Comm_free(&split);
    types_free();
    MPI_Finalize();
    return sum.failed ? 1 : 0;
}
