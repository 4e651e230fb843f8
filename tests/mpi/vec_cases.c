/*
 * The cases and values of the vector collectives' tests; see vec_cases.h
 * and vec_check.h.
 */
#include "vec_cases.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- items, values and operations ------------------------------------------ */

/* Bytes of an item in the buffer, and of its data (MPI_DOUBLE_INT pads). */
size_t vc_isize(enum kind k)
{
    static const size_t s[] = { sizeof(int), sizeof(unsigned), 1, sizeof(float),
                                sizeof(double), sizeof(((union item *)0)->di),
                                sizeof(((union item *)0)->ii), 4 * sizeof(int) };
    return s[k];
}

size_t vc_dsize(enum kind k)
{
    return k == K_DOUBLE_INT ? sizeof(double) + sizeof(int) : vc_isize(k);
}

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
int vc_usersum_bad_type;

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
        vc_usersum_bad_type = 1;
    }
}

static MPI_Op matmul_op = MPI_OP_NULL, usersum_op = MPI_OP_NULL;

const char *vc_op_name(enum opc o)
{
    return op_names[o];
}

int vc_op_commutative(enum opc o)
{
    return o != O_MATMUL;
}

MPI_Op vc_mpi_op(enum opc o)
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
/* contiguous(2, MPI_DOUBLE_INT): a derived type over a pair type, whose
 * data bytes (12 each) are fewer than its extent (16) */
static struct vlayout l_c2di = { "contig(2,MPI_DOUBLE_INT)", MPI_DATATYPE_NULL, 2, { 0, 1 },
                                 2 };

const struct vcase vc_cases[] = {
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
    /* a predefined operation on a derived type over a pair type */
    { "contig2_double_int_minloc", &l_c2di, K_DOUBLE_INT, O_MINLOC, 0, 0 },
};
const int vc_ncases = (int)(sizeof vc_cases / sizeof vc_cases[0]);

size_t vc_ext_bytes(const struct vcase *c)
{
    return (size_t)c->l->extent * vc_isize(c->kind);
}

static int layout_ok(const struct vcase *c, const char *coll_name)
{
    int size;
    MPI_Aint lb, extent;
    MPI_Type_size(c->l->type, &size);
    MPI_Type_get_extent(c->l->type, &lb, &extent);
    if (vc_ext_bytes(c) > VC_MAX_EXT) {
        printf("FAIL %s: test setup: type %s has %zu bytes of extent, more than VC_MAX_EXT\n",
               coll_name, c->l->name, vc_ext_bytes(c));
        return 0;
    }
    if (lb != 0 || (size_t)extent != vc_ext_bytes(c)
        || (size_t)size != (size_t)c->l->ndata * vc_dsize(c->kind)) {
        printf("FAIL %s: test setup: type %s has lb=%ld extent=%ld size=%d, expected lb=0"
               " extent=%zu size=%zu\n", coll_name, c->l->name, (long)lb, (long)extent, size,
               vc_ext_bytes(c), (size_t)c->l->ndata * vc_dsize(c->kind));
        return 0;
    }
    return 1;
}

int vc_types_create(const char *coll_name)
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
    MPI_Type_contiguous(2, MPI_DOUBLE_INT, &l_c2di.type);
    MPI_Type_commit(&l_c2di.type);
    MPI_Type_vector(2, 1, 3, MPI_DOUBLE, &vec);
    MPI_Type_create_resized(vec, 0, (MPI_Aint)(5 * sizeof(double)), &l_dvec.type);
    MPI_Type_free(&vec);
    MPI_Type_commit(&l_dvec.type);
    MPI_Op_create(matmul, 0, &matmul_op);
    MPI_Op_create(usersum, 1, &usersum_op);
    for (int i = 0; i < vc_ncases; i++)
        ok &= layout_ok(&vc_cases[i], coll_name);
    return ok ? 0 : 1;
}

void vc_types_free(void)
{
    vc_images_free();
    MPI_Type_free(&l_mat.type);
    MPI_Type_free(&l_c3.type);
    MPI_Type_free(&l_c2di.type);
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
 * order: over all p ranks (-1), or over ranks 0..k (VC_PREFIX(k)). */
static union item value(const struct vcase *c, int p, int src, size_t g)
{
    union item acc;
    if (src >= 0)
        return val(c, p, src, g);
    const int last = src == -1 ? p - 1 : -src - 2;
    acc = val(c, p, 0, g);
    for (int r = 1; r <= last; r++)
        acc = combine(c, acc, val(c, p, r, g));
    return acc;
}

/* Writes elements e0 .. e0+n-1 of rank src's vector (src < 0: the
 * reduction) at base, element e0 first. */
void vc_place(unsigned char *base, const struct vcase *c, int p, int src, size_t e0,
              size_t n)
{
    const size_t is = vc_isize(c->kind), ext = vc_ext_bytes(c), nd = (size_t)c->l->ndata;
    const size_t ds = vc_dsize(c->kind);
    for (size_t e = 0; e < n; e++)
        for (size_t k = 0; k < nd; k++) {
            union item x = value(c, p, src, (e0 + e) * nd + k);
            memcpy(base + e * ext + (size_t)c->l->offs[k] * is, &x, ds);
        }
}

/* ---- the images' cache ----------------------------------------------------------- */

/* The images (vc_image) are the same for every algorithm and mode: the
 * sweep runs one matrix per algorithm on the same communicator, so each is
 * computed once per communicator size (a reduction costs p items per
 * item) and copied after. All are dropped when p changes; within a size
 * the least recently used go beyond IMG_BUDGET bytes or IMG_MAX images.
 * (One communicator's matrix needs under 30 MB: the largest count's
 * images of the six main cases, three roots for bcast.) */
enum { IMG_MAX = 512 };
#define IMG_BUDGET ((size_t)48 << 20)

struct img {
    const struct vcase *c;
    int src, fill;
    size_t e0, n;
    unsigned char *bytes;     /* n elements: vc_ext_bytes(c) * n bytes */
    unsigned long used;       /* LRU clock */
    unsigned long epoch;      /* vc_image_epoch at the last use: kept until the next */
};
static struct img imgs[IMG_MAX];
static int nimgs, imgs_p = -1;
static size_t imgs_bytes;
static unsigned long imgs_clock, imgs_epoch = 1;

void vc_image_epoch(void)
{
    imgs_epoch++;
}

void vc_images_free(void)
{
    for (int i = 0; i < nimgs; i++)
        free(imgs[i].bytes);
    nimgs = 0;
    imgs_bytes = 0;
    imgs_p = -1;
}

/* Drops the least recently used image not used since vc_image_epoch.
 * Returns 0 if there is none. */
static int img_evict(void)
{
    int lru = -1;
    for (int i = 0; i < nimgs; i++)
        if (imgs[i].epoch != imgs_epoch && (lru < 0 || imgs[i].used < imgs[lru].used))
            lru = i;
    if (lru < 0)
        return 0;
    imgs_bytes -= vc_ext_bytes(imgs[lru].c) * imgs[lru].n;
    free(imgs[lru].bytes);
    imgs[lru] = imgs[--nimgs];
    return 1;
}

const unsigned char *vc_image(const struct vcase *c, int p, int src, size_t e0, size_t n,
                              unsigned char fill)
{
    static const unsigned char none[1];
    const size_t size = vc_ext_bytes(c) * n;
    struct img *m;
    if (size == 0)
        return none;
    /* every byte is an item's data: the fill shows nowhere */
    const int f = (size_t)c->l->ndata * vc_dsize(c->kind) == vc_ext_bytes(c) ? -1 : fill;
    if (p != imgs_p) {
        vc_images_free();
        imgs_p = p;
    }
    for (int i = 0; i < nimgs; i++) {
        m = &imgs[i];
        if (m->c == c && m->src == src && m->e0 == e0 && m->n == n && m->fill == f) {
            m->used = ++imgs_clock;
            m->epoch = imgs_epoch;
            return m->bytes;
        }
    }
    if (size > IMG_BUDGET)
        return NULL;
    while (nimgs == IMG_MAX || imgs_bytes + size > IMG_BUDGET)
        if (!img_evict())
            return NULL;
    m = &imgs[nimgs];
    m->bytes = malloc(size);
    if (!m->bytes)
        return NULL;
    memset(m->bytes, fill, size);
    vc_place(m->bytes, c, p, src, e0, n);
    m->c = c;
    m->src = src;
    m->fill = f;
    m->e0 = e0;
    m->n = n;
    m->used = ++imgs_clock;
    m->epoch = imgs_epoch;
    imgs_bytes += size;
    nimgs++;
    return m->bytes;
}

void vc_mark(unsigned char *mask, const struct vcase *c, size_t n, int data)
{
    const size_t is = vc_isize(c->kind), ext = vc_ext_bytes(c);
    memset(mask, M_KEEP, n * ext);
    for (size_t e = 0; e < n; e++)
        for (int k = 0; k < c->l->ndata; k++) {
            unsigned char *at = mask + e * ext + (size_t)c->l->offs[k] * is;
            memset(at, M_PAD, is);  /* insignificant data: not compared */
            if (data)
                memset(at, M_DATA, vc_dsize(c->kind));
        }
}

int vc_item_equal(const struct vcase *c, const unsigned char *got,
                      const unsigned char *want)
{
    if (c->inexact) {
        double a, b;
        memcpy(&a, got, sizeof a);
        memcpy(&b, want, sizeof b);
        return fabs(a - b) <= 1e-10 * (fabs(b) > 1 ? fabs(b) : 1);
    }
    return memcmp(got, want, vc_dsize(c->kind)) == 0;
}

void vc_describe(char *out, size_t len, const struct vcase *c, const unsigned char *at)
{
    union item x;
    size_t ds = vc_dsize(c->kind), i = 0;
    while (i < ds && at[i] == VC_SENTINEL)
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

