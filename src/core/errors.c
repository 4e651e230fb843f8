/*
 * Errors: the argument checks of the entry points, and raising an error
 * through the communicator's error handler.
 *
 * The checks are local (no communication), so a call that fails them
 * fails before any message moves; arguments that are wrong on some ranks
 * only hang the others, as they do in MPI. Which class each check gives,
 * and what cannot be detected portably, is in docs/robustness.md.
 */
#include "runtime.h"

#include <stdint.h>

int mpicoll_raise(MPI_Comm comm, int code)
{
    if (code == MPI_SUCCESS)
        return code;
    PMPI_Comm_call_errhandler(comm == MPI_COMM_NULL ? MPI_COMM_WORLD : comm, code);
    return code;
}

int check_comm(MPI_Comm comm)
{
    int inter = 0;
    /* MPI_Comm_free sets the user's handle to MPI_COMM_NULL; a stale copy
     * of a freed handle cannot be told from a live one portably */
    if (comm == MPI_COMM_NULL)
        return MPI_ERR_COMM;
    if (PMPI_Comm_test_inter(comm, &inter) != MPI_SUCCESS || inter)
        return MPI_ERR_COMM;
    return MPI_SUCCESS;
}

/* MPI-3.1 has no call that says whether a datatype is committed. Packing
 * zero elements asks it in passing: Open MPI and MPICH both refuse an
 * uncommitted type there (on a private MPI_COMM_SELF that returns errors,
 * so that no error handler of the user's runs). */
static int check_committed(MPI_Datatype t)
{
    int pos = 0;
    char in = 0, out = 0;
    dt_view v;
    if (dt_view_get(t, &v) != MPI_SUCCESS)
        return MPI_ERR_TYPE;
    if (v.named)
        return MPI_SUCCESS;     /* predefined types are always committed */
    MPI_Comm self;
    int rc = comm_self(&self);
    if (rc != MPI_SUCCESS)
        return rc;
    return PMPI_Pack(&in, 0, t, &out, 1, &pos, self) == MPI_SUCCESS ? MPI_SUCCESS : MPI_ERR_TYPE;
}

int check_count_type(int count, MPI_Datatype t)
{
    if (count < 0)
        return MPI_ERR_COUNT;
    if (t == MPI_DATATYPE_NULL)
        return MPI_ERR_TYPE;
    return check_committed(t);
}

/* The bytes [lo, hi) that n elements of t at buf span, and whether their
 * data fill that span. */
static int span(const void *buf, size_t n, MPI_Datatype t, uintptr_t *lo, uintptr_t *hi,
                int *contig)
{
    dt_view v;
    if (dt_view_get(t, &v) != MPI_SUCCESS)
        return MPI_ERR_TYPE;
    *lo = (uintptr_t)buf + (uintptr_t)v.true_lb;
    *hi = *lo + (uintptr_t)((n - 1) * (size_t)v.extent + (size_t)v.true_extent);
    *contig = v.contig && v.size > 0;
    return v.size > 0 ? MPI_SUCCESS : -1;
}

int check_buffer(const void *buf, size_t n, MPI_Datatype t)
{
    uintptr_t lo, hi;
    int contig;
    if (buf || n == 0)
        return MPI_SUCCESS;
    /* NULL is also MPI_BOTTOM: data at absolute addresses are fine, data
     * at address 0 are not */
    int rc = span(buf, n, t, &lo, &hi, &contig);
    if (rc < 0)
        return MPI_SUCCESS;     /* no data */
    return rc != MPI_SUCCESS ? rc : lo == 0 ? MPI_ERR_BUFFER : MPI_SUCCESS;
}

int check_disjoint(const void *a, size_t na, MPI_Datatype ta, const void *b, size_t nb,
                   MPI_Datatype tb)
{
    uintptr_t alo, ahi, blo, bhi;
    int ac, bc;
    if (!a || !b || na == 0 || nb == 0 || span(a, na, ta, &alo, &ahi, &ac) ||
        span(b, nb, tb, &blo, &bhi, &bc))
        return MPI_SUCCESS;     /* no data, or MPI_BOTTOM: nothing to compare */
    /* the same first byte; or, for data without gaps, any common byte
     * (types with gaps may interleave legally) */
    if (alo == blo || (ac && bc && alo < bhi && blo < ahi))
        return MPI_ERR_BUFFER;
    return MPI_SUCCESS;
}

int op_is_predefined(MPI_Op op)
{
    static const MPI_Op ops[] = { MPI_MAX, MPI_MIN, MPI_SUM, MPI_PROD, MPI_LAND, MPI_BAND,
                                  MPI_LOR, MPI_BOR, MPI_LXOR, MPI_BXOR, MPI_MAXLOC,
                                  MPI_MINLOC, MPI_REPLACE, MPI_NO_OP };
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
        if (op == ops[i])
            return 1;
    return 0;
}

static MPI_Datatype base_type(MPI_Datatype t, int depth)
{
    int ni, na, nd, combiner;
    dt_view v;
    if (depth > 16 || dt_view_get(t, &v) != MPI_SUCCESS)
        return MPI_DATATYPE_NULL;
    if (v.named)
        return t;
    if (PMPI_Type_get_envelope(t, &ni, &na, &nd, &combiner) != MPI_SUCCESS)
        return MPI_DATATYPE_NULL;
    int ints[ni > 0 ? ni : 1];
    MPI_Aint addrs[na > 0 ? na : 1];
    MPI_Datatype types[nd > 0 ? nd : 1], base = MPI_DATATYPE_NULL;
    if (PMPI_Type_get_contents(t, ni, na, nd, ints, addrs, types) != MPI_SUCCESS)
        return MPI_DATATYPE_NULL;
    int mixed = 0;
    for (int i = 0; i < nd; i++) {
        MPI_Datatype b = base_type(types[i], depth + 1);
        if (b == MPI_DATATYPE_NULL || (base != MPI_DATATYPE_NULL && b != base))
            mixed = 1;
        base = b;
        int tni, tna, tnd, tc;
        PMPI_Type_get_envelope(types[i], &tni, &tna, &tnd, &tc);
        if (tc != MPI_COMBINER_NAMED)
            PMPI_Type_free(&types[i]);
    }
    return mixed ? MPI_DATATYPE_NULL : base;
}

MPI_Datatype dt_base_type(MPI_Datatype t)
{
    return base_type(t, 0);
}

/* The groups of predefined types each predefined operation is defined
 * on: MPI-3.1, 5.9.2, widened to what the MPI libraries compute, since
 * mpicoll must never refuse a call the library beneath it completes. Open
 * MPI and MPICH both take MPI_CHAR as a C integer and the logical
 * operations on MPI_AINT, MPI_OFFSET and MPI_COUNT; Open MPI also takes
 * MPI_BYTE for every integer operation, MPICH the logical operations on
 * Fortran integers (G_LIB_EXTRA below). tests/datatypes/test_ops.c holds
 * the table against the library's own results. */
enum {
    G_CINT = 1 << 0,        /* C integer */
    G_FINT = 1 << 1,        /* Fortran integer */
    G_FLOAT = 1 << 2,       /* floating point */
    G_LOGICAL = 1 << 3,
    G_COMPLEX = 1 << 4,
    G_BYTE = 1 << 5,
    G_MULTI = 1 << 6,       /* multi-language: MPI_AINT, MPI_OFFSET, MPI_COUNT */
    G_PAIR = 1 << 7,        /* MINLOC, MAXLOC pairs */
};

static unsigned type_group(MPI_Datatype t)
{
    static const struct {
        MPI_Datatype type;
        unsigned group;
    } table[] = {
        { MPI_INT, G_CINT }, { MPI_LONG, G_CINT }, { MPI_SHORT, G_CINT },
        { MPI_UNSIGNED_SHORT, G_CINT }, { MPI_UNSIGNED, G_CINT },
        { MPI_UNSIGNED_LONG, G_CINT }, { MPI_LONG_LONG_INT, G_CINT },
        { MPI_UNSIGNED_LONG_LONG, G_CINT }, { MPI_SIGNED_CHAR, G_CINT },
        { MPI_UNSIGNED_CHAR, G_CINT }, { MPI_INT8_T, G_CINT }, { MPI_INT16_T, G_CINT },
        { MPI_INT32_T, G_CINT }, { MPI_INT64_T, G_CINT }, { MPI_UINT8_T, G_CINT },
        { MPI_UINT16_T, G_CINT }, { MPI_UINT32_T, G_CINT }, { MPI_UINT64_T, G_CINT },
        { MPI_CHAR, G_CINT },
        { MPI_INTEGER, G_FINT },
#ifdef MPI_INTEGER1
        { MPI_INTEGER1, G_FINT },
#endif
#ifdef MPI_INTEGER2
        { MPI_INTEGER2, G_FINT },
#endif
#ifdef MPI_INTEGER4
        { MPI_INTEGER4, G_FINT },
#endif
#ifdef MPI_INTEGER8
        { MPI_INTEGER8, G_FINT },
#endif
#ifdef MPI_INTEGER16
        { MPI_INTEGER16, G_FINT },
#endif
        { MPI_FLOAT, G_FLOAT }, { MPI_DOUBLE, G_FLOAT }, { MPI_REAL, G_FLOAT },
        { MPI_DOUBLE_PRECISION, G_FLOAT }, { MPI_LONG_DOUBLE, G_FLOAT },
#ifdef MPI_REAL2
        { MPI_REAL2, G_FLOAT },
#endif
#ifdef MPI_REAL4
        { MPI_REAL4, G_FLOAT },
#endif
#ifdef MPI_REAL8
        { MPI_REAL8, G_FLOAT },
#endif
#ifdef MPI_REAL16
        { MPI_REAL16, G_FLOAT },
#endif
        { MPI_LOGICAL, G_LOGICAL }, { MPI_C_BOOL, G_LOGICAL },
#ifdef MPI_CXX_BOOL
        { MPI_CXX_BOOL, G_LOGICAL },
#endif
        { MPI_COMPLEX, G_COMPLEX }, { MPI_C_COMPLEX, G_COMPLEX },
        { MPI_C_FLOAT_COMPLEX, G_COMPLEX }, { MPI_C_DOUBLE_COMPLEX, G_COMPLEX },
        { MPI_C_LONG_DOUBLE_COMPLEX, G_COMPLEX }, { MPI_DOUBLE_COMPLEX, G_COMPLEX },
#ifdef MPI_COMPLEX8
        { MPI_COMPLEX8, G_COMPLEX },
#endif
#ifdef MPI_COMPLEX16
        { MPI_COMPLEX16, G_COMPLEX },
#endif
#ifdef MPI_COMPLEX32
        { MPI_COMPLEX32, G_COMPLEX },
#endif
#ifdef MPI_CXX_FLOAT_COMPLEX
        { MPI_CXX_FLOAT_COMPLEX, G_COMPLEX }, { MPI_CXX_DOUBLE_COMPLEX, G_COMPLEX },
        { MPI_CXX_LONG_DOUBLE_COMPLEX, G_COMPLEX },
#endif
        { MPI_BYTE, G_BYTE },
        { MPI_AINT, G_MULTI }, { MPI_OFFSET, G_MULTI }, { MPI_COUNT, G_MULTI },
        { MPI_FLOAT_INT, G_PAIR }, { MPI_DOUBLE_INT, G_PAIR }, { MPI_LONG_INT, G_PAIR },
        { MPI_2INT, G_PAIR }, { MPI_SHORT_INT, G_PAIR }, { MPI_LONG_DOUBLE_INT, G_PAIR },
        { MPI_2REAL, G_PAIR }, { MPI_2DOUBLE_PRECISION, G_PAIR }, { MPI_2INTEGER, G_PAIR },
    };
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (t != MPI_DATATYPE_NULL && t == table[i].type)
            return table[i].group;
    return 0;   /* MPI_WCHAR, MPI_PACKED...: no predefined operation */
}

/* What one library computes beyond the others. */
#if defined(OPEN_MPI)
#define G_ARITH_EXTRA G_BYTE        /* MAX, MIN, SUM, PROD, logical on MPI_BYTE */
#define G_LOGIC_EXTRA G_BYTE
#elif defined(MPICH)
#define G_ARITH_EXTRA 0
#define G_LOGIC_EXTRA G_FINT        /* LAND, LOR, LXOR on Fortran integers */
#else
#define G_ARITH_EXTRA 0
#define G_LOGIC_EXTRA 0
#endif

static unsigned op_groups(MPI_Op op)
{
    if (op == MPI_MAX || op == MPI_MIN)
        return G_CINT | G_FINT | G_FLOAT | G_MULTI | G_ARITH_EXTRA;
    if (op == MPI_SUM || op == MPI_PROD)
        return G_CINT | G_FINT | G_FLOAT | G_COMPLEX | G_MULTI | G_ARITH_EXTRA;
    if (op == MPI_LAND || op == MPI_LOR || op == MPI_LXOR)
        return G_CINT | G_LOGICAL | G_MULTI | G_LOGIC_EXTRA;
    if (op == MPI_BAND || op == MPI_BOR || op == MPI_BXOR)
        return G_CINT | G_FINT | G_BYTE | G_MULTI;
    if (op == MPI_MAXLOC || op == MPI_MINLOC)
        return G_PAIR;
    return 0;   /* MPI_REPLACE and MPI_NO_OP are for one-sided accumulates only */
}

int check_op(MPI_Op op, MPI_Datatype t)
{
    if (op == MPI_OP_NULL)
        return MPI_ERR_OP;
    if (!op_is_predefined(op))
        return MPI_SUCCESS;     /* user operations are the user's to match */
    MPI_Datatype base = dt_base_type(t);
    if (base == MPI_DATATYPE_NULL)
        return MPI_ERR_TYPE;    /* a type mixing predefined types */
    return op_groups(op) & type_group(base) ? MPI_SUCCESS : MPI_ERR_OP;
}

int check_signatures(int scount, MPI_Datatype stype, int rcount, MPI_Datatype rtype)
{
    dt_view sv, rv, sbv, rbv;
    if (dt_view_get(stype, &sv) != MPI_SUCCESS || dt_view_get(rtype, &rv) != MPI_SUCCESS)
        return MPI_ERR_TYPE;
    if ((long long)sv.size * scount != (long long)rv.size * rcount)
        return MPI_ERR_TRUNCATE;
    if ((long long)sv.size * scount == 0)
        return MPI_SUCCESS;
    /* Equal sizes, but elements of different sizes (2 MPI_INT against one
     * MPI_DOUBLE) cannot have one signature. MPI_BYTE and MPI_PACKED are
     * left alone: programs use them for any data. */
    MPI_Datatype sb = dt_base_type(stype), rb = dt_base_type(rtype);
    if (sb == MPI_DATATYPE_NULL || rb == MPI_DATATYPE_NULL || sb == MPI_BYTE ||
        rb == MPI_BYTE || sb == MPI_PACKED || rb == MPI_PACKED ||
        dt_view_get(sb, &sbv) != MPI_SUCCESS || dt_view_get(rb, &rbv) != MPI_SUCCESS)
        return MPI_SUCCESS;
    return sbv.size == rbv.size ? MPI_SUCCESS : MPI_ERR_TYPE;
}
