/*
 * The Fortran entry points of the preload library: the symbols that the
 * mpif.h and `use mpi` bindings of Open MPI and MPICH resolve to, for
 * every collective of include/mpicoll_collectives.h, blocking
 * (mpi_<name>), non-blocking (mpi_i<name>) and persistent where the MPI
 * has it (MPI-4's mpi_<name>_init; Open MPI 4.1's pcollreq extension,
 * mpix_<name>_init). Each converts its arguments and calls the C entry
 * point of the same form (MPI_<Name>, MPI_I<name>, MPI_<Name>_init or
 * MPIX_<Name>_init), which in this library is mpicoll's interception
 * (preload.c): a Fortran call takes exactly the C call's path.
 *
 * Each form is defined under the four names compilers mangle a Fortran
 * name to (mpi_allreduce, mpi_allreduce_ (gfortran, ifort, flang),
 * mpi_allreduce__ (g77, -fsecond-underscore), MPI_ALLREDUCE), as both
 * MPIs' Fortran libraries do. With Open MPI also under its internal name
 * ompi_<name>_f (ompi_i<name>_f, ompix_<name>_init_f): the `use mpi_f08`
 * bindings (libmpi_usempif08) call those through the PLT, so that f08
 * calls come here too. MPICH's f08 bindings call the C entry points
 * (MPI_Allreduce, ...) themselves, which this library defines, except
 * the barrier's (F_F08_<family> below).
 *
 * The conversions: handles with MPI_Comm_f2c, MPI_Type_f2c, MPI_Op_f2c,
 * MPI_Info_f2c and the request back with MPI_Request_c2f; counts, roots
 * and count arrays are MPI_Fint (int, checked below); the buffers that are
 * Fortran's MPI_IN_PLACE or MPI_BOTTOM become C's. Those two are the
 * addresses of Fortran common blocks, found at run time with dlsym (the
 * program's copy, which the MPI library's Fortran code uses too; looked
 * up rather than linked, since MPICH's lives in libmpichfort, which a C
 * program does not load):
 *   Open MPI   common /mpi_fortran_in_place/, /mpi_fortran_bottom/
 *   MPICH      common /MPIPRIV1/ MPI_BOTTOM, MPI_IN_PLACE, ... (one
 *              INTEGER each: MPI_IN_PLACE at the second)
 * each under the four manglings. An operation the program created from
 * Fortran (MPI_Op_create) is marked so by the MPI library (Open MPI's
 * OMPI_OP_FLAGS_FORTRAN_FUNC, MPICH's Fortran language of the op): the
 * converted handle, applied by mpicoll through MPI_Reduce_local, calls it
 * with Fortran's convention.
 *
 * The upper-case names come from the build (MPICOLL_UPPER_<name>, one
 * definition per row of mpicoll_collectives.h, CMakeLists.txt): the C
 * preprocessor cannot change case. A new collective costs no code here.
 */
#define _GNU_SOURCE /* RTLD_DEFAULT */
#include <mpi.h>
#if defined(OPEN_MPI) && MPI_VERSION < 4
#include <mpi-ext.h>
#endif
#include "../../include/mpicoll.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>

#ifndef MPICOLL_UPPER_NAMES
#error "MPICOLL_UPPER_<name> definitions missing (CMakeLists.txt gives them to this file)"
#endif

/* Fortran INTEGER arrays (counts, displacements) are passed as the C
 * int arrays they are. */
_Static_assert(sizeof(MPI_Fint) == sizeof(int), "MPI_Fint is not int");

/* ---- MPI_IN_PLACE and MPI_BOTTOM ---------------------------------------- */

enum { MANGLINGS = 4 };
static const char *const ompi_in_place[MANGLINGS] = {
    "mpi_fortran_in_place", "mpi_fortran_in_place_", "mpi_fortran_in_place__",
    "MPI_FORTRAN_IN_PLACE" };
static const char *const ompi_bottom[MANGLINGS] = {
    "mpi_fortran_bottom", "mpi_fortran_bottom_", "mpi_fortran_bottom__", "MPI_FORTRAN_BOTTOM" };
static const char *const mpich_priv1[MANGLINGS] = { "mpipriv1", "mpipriv1_", "mpipriv1__",
                                                     "MPIPRIV1" };

/* the addresses found (NULL: no such symbol) */
static const char *in_place[2 * MANGLINGS], *bottom[2 * MANGLINGS];
static pthread_once_t sentinels_once = PTHREAD_ONCE_INIT;

static void sentinels_find(void)
{
    for (int i = 0; i < MANGLINGS; i++) {
        in_place[i] = dlsym(RTLD_DEFAULT, ompi_in_place[i]);
        bottom[i] = dlsym(RTLD_DEFAULT, ompi_bottom[i]);
        const char *priv1 = dlsym(RTLD_DEFAULT, mpich_priv1[i]);
        if (priv1) {
            bottom[MANGLINGS + i] = priv1;
            in_place[MANGLINGS + i] = priv1 + sizeof(MPI_Fint);
        }
    }
}

/* The C buffer of Fortran buffer p: MPI_IN_PLACE or MPI_BOTTOM for
 * Fortran's, p otherwise. */
static void *fbuf(void *p)
{
    pthread_once(&sentinels_once, sentinels_find);
    if (!p)
        return p;
    for (int i = 0; i < 2 * MANGLINGS; i++) {
        if (p == in_place[i])
            return MPI_IN_PLACE;
        if (p == bottom[i])
            return MPI_BOTTOM;
    }
    return p;
}

/* ---- Each family's Fortran arguments and their C conversion -------------
 * F_PARAMS_<family>: the Fortran arguments (all by reference) in the
 * order of MPICOLL_ARGS_<family>, named as there; F_ARGS_<family>: the C
 * arguments made from them. */
#define F_TYPE(t) MPI_Type_f2c(*(t))
#define F_OP(o) MPI_Op_f2c(*(o))
#define F_COMM(c) MPI_Comm_f2c(*(c))

#define F_PARAMS_block void *sendbuf, const MPI_Fint *sendcount, const MPI_Fint *sendtype, \
    void *recvbuf, const MPI_Fint *recvcount, const MPI_Fint *recvtype, const MPI_Fint *comm
#define F_ARGS_block fbuf(sendbuf), *sendcount, F_TYPE(sendtype), fbuf(recvbuf), *recvcount, \
    F_TYPE(recvtype), F_COMM(comm)
#define F_PARAMS_reduction void *sendbuf, void *recvbuf, const MPI_Fint *count, \
    const MPI_Fint *datatype, const MPI_Fint *op, const MPI_Fint *comm
#define F_ARGS_reduction fbuf(sendbuf), fbuf(recvbuf), *count, F_TYPE(datatype), F_OP(op), \
    F_COMM(comm)
#define F_PARAMS_rooted_reduction void *sendbuf, void *recvbuf, const MPI_Fint *count, \
    const MPI_Fint *datatype, const MPI_Fint *op, const MPI_Fint *root, const MPI_Fint *comm
#define F_ARGS_rooted_reduction fbuf(sendbuf), fbuf(recvbuf), *count, F_TYPE(datatype), \
    F_OP(op), *root, F_COMM(comm)
#define F_PARAMS_bcast void *buffer, const MPI_Fint *count, const MPI_Fint *datatype, \
    const MPI_Fint *root, const MPI_Fint *comm
#define F_ARGS_bcast fbuf(buffer), *count, F_TYPE(datatype), *root, F_COMM(comm)
#define F_PARAMS_vblock void *sendbuf, const MPI_Fint *sendcount, const MPI_Fint *sendtype, \
    void *recvbuf, const MPI_Fint *recvcounts, const MPI_Fint *displs, \
    const MPI_Fint *recvtype, const MPI_Fint *comm
#define F_ARGS_vblock fbuf(sendbuf), *sendcount, F_TYPE(sendtype), fbuf(recvbuf), recvcounts, \
    displs, F_TYPE(recvtype), F_COMM(comm)
#define F_PARAMS_vreduction void *sendbuf, void *recvbuf, const MPI_Fint *recvcounts, \
    const MPI_Fint *datatype, const MPI_Fint *op, const MPI_Fint *comm
#define F_ARGS_vreduction fbuf(sendbuf), fbuf(recvbuf), recvcounts, F_TYPE(datatype), \
    F_OP(op), F_COMM(comm)
#define F_PARAMS_rooted_block void *sendbuf, const MPI_Fint *sendcount, \
    const MPI_Fint *sendtype, void *recvbuf, const MPI_Fint *recvcount, \
    const MPI_Fint *recvtype, const MPI_Fint *root, const MPI_Fint *comm
#define F_ARGS_rooted_block fbuf(sendbuf), *sendcount, F_TYPE(sendtype), fbuf(recvbuf), \
    *recvcount, F_TYPE(recvtype), *root, F_COMM(comm)
#define F_PARAMS_barrier const MPI_Fint *comm
#define F_ARGS_barrier F_COMM(comm)
#define F_PARAMS_rooted_vblock void *sendbuf, const MPI_Fint *sendcount, \
    const MPI_Fint *sendtype, void *recvbuf, const MPI_Fint *recvcounts, \
    const MPI_Fint *displs, const MPI_Fint *recvtype, const MPI_Fint *root, \
    const MPI_Fint *comm
#define F_ARGS_rooted_vblock fbuf(sendbuf), *sendcount, F_TYPE(sendtype), fbuf(recvbuf), \
    recvcounts, displs, F_TYPE(recvtype), *root, F_COMM(comm)
#define F_PARAMS_vscatter void *sendbuf, const MPI_Fint *sendcounts, const MPI_Fint *displs, \
    const MPI_Fint *sendtype, void *recvbuf, const MPI_Fint *recvcount, \
    const MPI_Fint *recvtype, const MPI_Fint *root, const MPI_Fint *comm
#define F_ARGS_vscatter fbuf(sendbuf), sendcounts, displs, F_TYPE(sendtype), fbuf(recvbuf), \
    *recvcount, F_TYPE(recvtype), *root, F_COMM(comm)
#define F_PARAMS_vexchange void *sendbuf, const MPI_Fint *sendcounts, \
    const MPI_Fint *sdispls, const MPI_Fint *sendtype, void *recvbuf, \
    const MPI_Fint *recvcounts, const MPI_Fint *rdispls, const MPI_Fint *recvtype, \
    const MPI_Fint *comm
#define F_ARGS_vexchange fbuf(sendbuf), sendcounts, sdispls, F_TYPE(sendtype), fbuf(recvbuf), \
    recvcounts, rdispls, F_TYPE(recvtype), F_COMM(comm)

/* ---- The names ------------------------------------------------------------ */

#define F_CAT_(a, b, c) a##b##c
#define F_CAT(a, b, c) F_CAT_(a, b, c)
/* the upper-case name of collective `name` (the build's definition) */
#define F_UPPER(name) MPICOLL_UPPER_##name

/* sym, a global alias of the static function target of parameters params */
#define F_ALIAS(sym, target, params) \
    extern void sym params __attribute__((alias(#target)));
/* the four manglings of a Fortran name: lower (its lower-case name),
 * upper (its upper-case name) */
#define F_NAMES(target, params, lower, upper)                                              \
    F_ALIAS(lower, target, params)                                                         \
    F_ALIAS(lower##_, target, params)                                                      \
    F_ALIAS(lower##__, target, params)                                                     \
    F_ALIAS(upper, target, params)
/* Open MPI's internal names: what its use mpi_f08 bindings call */
#ifdef OPEN_MPI
#define F_OMPI(target, params, internal) F_ALIAS(internal, target, params)
#else
#define F_OMPI(target, params, internal)
#endif

/* MPICH's use mpi_f08 bindings: those of the collectives with buffers
 * call the C entry points (MPI_Allreduce, ... through its descriptor
 * shims), which this library defines; those without (the barrier family)
 * call PMPI_ directly: for those, their f08 names (mpi_barrier_f08_,
 * mpi_ibarrier_f08_, mpi_barrier_init_f08_: the same arguments, handles
 * of one INTEGER, ierror optional). F_F08_<family>(target, params,
 * lower): the alias for the family's forms. */
#ifdef MPICH_VERSION
#define F_F08_barrier(target, params, lower) F_ALIAS(lower##_f08_, target, params)
#else
#define F_F08_barrier(target, params, lower)
#endif
#define F_F08_block(target, params, lower)
#define F_F08_reduction(target, params, lower)
#define F_F08_rooted_reduction(target, params, lower)
#define F_F08_bcast(target, params, lower)
#define F_F08_vblock(target, params, lower)
#define F_F08_vreduction(target, params, lower)
#define F_F08_rooted_block(target, params, lower)
#define F_F08_rooted_vblock(target, params, lower)
#define F_F08_vscatter(target, params, lower)
#define F_F08_vexchange(target, params, lower)

static inline void f_done(MPI_Fint *ierror, int rc)
{
    if (ierror)
        *ierror = rc;
}

static inline void f_request(MPI_Fint *request, MPI_Request r, int rc)
{
    if (rc == MPI_SUCCESS)
        *request = MPI_Request_c2f(r);
}

/* ---- The three forms, one X-macro each ---------------------------------- */

/* mpi_<name>: MPI_<Name> */
#define F_BLOCKING_(name, Name, family)                                                    \
    static void f_##name(F_PARAMS_##family, MPI_Fint *ierror)                              \
    {                                                                                      \
        f_done(ierror, MPI_##Name(F_ARGS_##family));                                       \
    }                                                                                      \
    F_NAMES(f_##name, (F_PARAMS_##family, MPI_Fint *ierror), mpi_##name,                   \
            F_CAT(MPI_, F_UPPER(name), ))                                                  \
    F_OMPI(f_##name, (F_PARAMS_##family, MPI_Fint *ierror), ompi_##name##_f)             \
    F_F08_##family(f_##name, (F_PARAMS_##family, MPI_Fint *ierror), mpi_##name)
MPICOLL_COLLECTIVES(F_BLOCKING_)

/* mpi_i<name>: MPI_I<name> */
#define F_NONBLOCKING_(name, Name, family)                                                 \
    static void fi_##name(F_PARAMS_##family, MPI_Fint *request, MPI_Fint *ierror)          \
    {                                                                                      \
        MPI_Request r = MPI_REQUEST_NULL;                                                  \
        const int rc = MPI_I##name(F_ARGS_##family, &r);                                   \
        f_request(request, r, rc);                                                         \
        f_done(ierror, rc);                                                                \
    }                                                                                      \
    F_NAMES(fi_##name, (F_PARAMS_##family, MPI_Fint *request, MPI_Fint *ierror),           \
            mpi_i##name, F_CAT(MPI_I, F_UPPER(name), ))                                    \
    F_OMPI(fi_##name, (F_PARAMS_##family, MPI_Fint *request, MPI_Fint *ierror),            \
           ompi_i##name##_f)                                                               \
    F_F08_##family(fi_##name, (F_PARAMS_##family, MPI_Fint *request, MPI_Fint *ierror),    \
                   mpi_i##name)
MPICOLL_COLLECTIVES(F_NONBLOCKING_)

/* persistent: MPI-4's mpi_<name>_init (MPI_<Name>_init), or Open MPI
 * 4.1's mpix_<name>_init (MPIX_<Name>_init) */
#if MPI_VERSION >= 4
#define F_INIT_C(Name) MPI_##Name##_init
#define F_INIT_NAMES(target, params, name, family)                                         \
    F_NAMES(target, params, mpi_##name##_init, F_CAT(MPI_, F_UPPER(name), _INIT))          \
    F_F08_##family(target, params, mpi_##name##_init)
#elif defined(OMPI_HAVE_MPI_EXT_PCOLLREQ)
#define F_INIT_C(Name) MPIX_##Name##_init
#define F_INIT_NAMES(target, params, name, family)                                         \
    F_NAMES(target, params, mpix_##name##_init, F_CAT(MPIX_, F_UPPER(name), _INIT))        \
    F_OMPI(target, params, ompix_##name##_init_f)
#endif
#ifdef F_INIT_C
#define F_PERSISTENT_(name, Name, family)                                                  \
    static void fp_##name(F_PARAMS_##family, const MPI_Fint *info, MPI_Fint *request,      \
                          MPI_Fint *ierror)                                                \
    {                                                                                      \
        MPI_Request r = MPI_REQUEST_NULL;                                                  \
        const int rc = F_INIT_C(Name)(F_ARGS_##family, MPI_Info_f2c(*info), &r);           \
        f_request(request, r, rc);                                                         \
        f_done(ierror, rc);                                                                \
    }                                                                                      \
    F_INIT_NAMES(fp_##name, (F_PARAMS_##family, const MPI_Fint *info, MPI_Fint *request,   \
                             MPI_Fint *ierror), name, family)
MPICOLL_COLLECTIVES(F_PERSISTENT_)
#endif

/* ---- The Fortran request calls where the bindings bypass the C ones ------
 * Open MPI's mpif.h and use mpi bindings (libmpi_mpifh), and its
 * use mpi_f08 ones (through ompi_<call>_f, or pmpi_test_ & co.), and
 * MPICH's use mpi_f08 ones (mpi_<call>_f08_) call PMPI_Start, PMPI_Wait
 * & co. directly (MPICH's mpif.h and use mpi bindings call the C entry
 * points): there the Fortran forms of the request calls convert their
 * arguments and call the C entry points (MPI_Start, MPI_Wait, ...), so
 * that a request of a Fortran call takes the C calls' path, as its
 * collective does (the preload library's C entry points own the requests
 * of its non-blocking and persistent collectives). Indices are 1-based.
 * A Fortran status (F_STATUS, F_STATUS_SIZE of them each) is
 *   Open MPI   MPI_Fint[sizeof(MPI_Status) / sizeof(MPI_Fint)] (its
 *              MPI_STATUS_SIZE; f08's type(MPI_Status) the same),
 *              MPI_Status_c2f; MPI_STATUS_IGNORE and MPI_STATUSES_IGNORE
 *              common blocks, found as MPI_IN_PLACE is
 *   MPICH f08  MPI_F08_status, MPI_Status_c2f08; the ignores its objects
 *              MPIR_F08_MPI_STATUS[ES]_IGNORE_OBJ (in libmpichfort: found
 *              by dlsym) */
#if defined(OPEN_MPI) || defined(MPICH_VERSION)
enum { F_SMALL = 16 };
#ifdef OPEN_MPI
typedef MPI_Fint F_STATUS;
enum { F_STATUS_SIZE = sizeof(MPI_Status) / sizeof(MPI_Fint) };
#define F_STATUS_C2F(c, f) MPI_Status_c2f(c, f)
static const char *const ompi_status_ignore[MANGLINGS] = {
    "mpi_fortran_status_ignore", "mpi_fortran_status_ignore_",
    "mpi_fortran_status_ignore__", "MPI_FORTRAN_STATUS_IGNORE" };
static const char *const ompi_statuses_ignore[MANGLINGS] = {
    "mpi_fortran_statuses_ignore", "mpi_fortran_statuses_ignore_",
    "mpi_fortran_statuses_ignore__", "MPI_FORTRAN_STATUSES_IGNORE" };
#else
typedef MPI_F08_status F_STATUS;
enum { F_STATUS_SIZE = 1 };
#define F_STATUS_C2F(c, f) MPI_Status_c2f08(c, f)
static const char *const ompi_status_ignore[MANGLINGS] = { "MPIR_F08_MPI_STATUS_IGNORE_OBJ" };
static const char *const ompi_statuses_ignore[MANGLINGS] = {
    "MPIR_F08_MPI_STATUSES_IGNORE_OBJ" };
#endif
static const void *status_ignore[MANGLINGS], *statuses_ignore[MANGLINGS];
static pthread_once_t status_once = PTHREAD_ONCE_INIT;

static void status_find(void)
{
    for (int i = 0; i < MANGLINGS; i++) {
        if (ompi_status_ignore[i])
            status_ignore[i] = dlsym(RTLD_DEFAULT, ompi_status_ignore[i]);
        if (ompi_statuses_ignore[i])
            statuses_ignore[i] = dlsym(RTLD_DEFAULT, ompi_statuses_ignore[i]);
    }
}

/* whether p is one of the addresses of list */
static int f_is(const void *p, const void *const list[MANGLINGS])
{
    pthread_once(&status_once, status_find);
    for (int i = 0; i < MANGLINGS; i++)
        if (p && p == list[i])
            return 1;
    return 0;
}

/* The C status for Fortran status f (MPI_STATUS_IGNORE for Fortran's),
 * in c; f_status_out writes it back. */
static MPI_Status *f_status_in(F_STATUS *f, MPI_Status *c)
{
    return f_is(f, status_ignore) ? MPI_STATUS_IGNORE : c;
}

static void f_status_out(F_STATUS *f, const MPI_Status *c, int rc)
{
    if (rc == MPI_SUCCESS && !f_is(f, status_ignore))
        F_STATUS_C2F(c, f);
}

/* The C requests, and statuses unless `statuses` is NULL or Fortran's
 * MPI_STATUSES_IGNORE, of n Fortran requests: in small when they fit,
 * else allocated. */
typedef struct {
    MPI_Request *req, small_req[F_SMALL];
    MPI_Status *st, small_st[F_SMALL];
} f_arrays;

static void f_arrays_free(f_arrays *a)
{
    if (a->req != a->small_req)
        free(a->req);
    if (a->st != a->small_st && a->st != MPI_STATUSES_IGNORE)
        free(a->st);
}

static int f_arrays_in(f_arrays *a, int n, const MPI_Fint *requests, const F_STATUS *statuses)
{
    a->req = a->small_req;
    a->st = !statuses || f_is(statuses, statuses_ignore) ? MPI_STATUSES_IGNORE : a->small_st;
    if (n > F_SMALL) {
        a->req = malloc((size_t)n * sizeof *a->req);
        if (a->st != MPI_STATUSES_IGNORE)
            a->st = malloc((size_t)n * sizeof *a->st);
        if (!a->req || !a->st) {
            f_arrays_free(a);
            return MPI_ERR_NO_MEM;
        }
    }
    for (int i = 0; i < n; i++)
        a->req[i] = MPI_Request_f2c(requests[i]);
    return MPI_SUCCESS;
}

/* Writes the n requests back, and the first nst statuses (after a call
 * that returned rc), then frees. */
static void f_arrays_out(f_arrays *a, int n, MPI_Fint *requests, F_STATUS *statuses, int nst,
                         int rc)
{
    for (int i = 0; i < n; i++)
        requests[i] = MPI_Request_c2f(a->req[i]);
    if (a->st != MPI_STATUSES_IGNORE && (rc == MPI_SUCCESS || rc == MPI_ERR_IN_STATUS))
        for (int k = 0; k < nst; k++)
            F_STATUS_C2F(&a->st[k], statuses + (size_t)k * F_STATUS_SIZE);
    f_arrays_free(a);
}

/* Fortran's LOGICAL */
static MPI_Fint f_logical(int flag)
{
    return flag ? 1 : 0;
}

static void fr_start(MPI_Fint *request, MPI_Fint *ierror)
{
    MPI_Request r = MPI_Request_f2c(*request);
    const int rc = MPI_Start(&r);
    *request = MPI_Request_c2f(r);
    f_done(ierror, rc);
}

static void fr_startall(const MPI_Fint *count, MPI_Fint *requests, MPI_Fint *ierror)
{
    f_arrays a;
    int rc = f_arrays_in(&a, *count, requests, NULL);
    if (rc == MPI_SUCCESS) {
        rc = MPI_Startall(*count, a.req);
        f_arrays_out(&a, *count, requests, NULL, 0, rc);
    }
    f_done(ierror, rc);
}

static void fr_request_free(MPI_Fint *request, MPI_Fint *ierror)
{
    MPI_Request r = MPI_Request_f2c(*request);
    const int rc = MPI_Request_free(&r);
    *request = MPI_Request_c2f(r);
    f_done(ierror, rc);
}

static void fr_wait(MPI_Fint *request, F_STATUS *status, MPI_Fint *ierror)
{
    MPI_Request r = MPI_Request_f2c(*request);
    MPI_Status s;
    const int rc = MPI_Wait(&r, f_status_in(status, &s));
    *request = MPI_Request_c2f(r);
    f_status_out(status, &s, rc);
    f_done(ierror, rc);
}

static void fr_test(MPI_Fint *request, MPI_Fint *flag, F_STATUS *status, MPI_Fint *ierror)
{
    MPI_Request r = MPI_Request_f2c(*request);
    MPI_Status s;
    int c_flag = 0;
    const int rc = MPI_Test(&r, &c_flag, f_status_in(status, &s));
    *request = MPI_Request_c2f(r);
    *flag = f_logical(c_flag);
    if (c_flag)
        f_status_out(status, &s, rc);
    f_done(ierror, rc);
}

static void fr_request_get_status(const MPI_Fint *request, MPI_Fint *flag, F_STATUS *status,
                                  MPI_Fint *ierror)
{
    MPI_Status s;
    int c_flag = 0;
    const int rc = MPI_Request_get_status(MPI_Request_f2c(*request), &c_flag,
                                          f_status_in(status, &s));
    *flag = f_logical(c_flag);
    if (c_flag)
        f_status_out(status, &s, rc);
    f_done(ierror, rc);
}

static void fr_waitall(const MPI_Fint *count, MPI_Fint *requests, F_STATUS *statuses,
                       MPI_Fint *ierror)
{
    f_arrays a;
    int rc = f_arrays_in(&a, *count, requests, statuses);
    if (rc == MPI_SUCCESS) {
        rc = MPI_Waitall(*count, a.req, a.st);
        f_arrays_out(&a, *count, requests, statuses, *count, rc);
    }
    f_done(ierror, rc);
}

static void fr_testall(const MPI_Fint *count, MPI_Fint *requests, MPI_Fint *flag,
                       F_STATUS *statuses, MPI_Fint *ierror)
{
    f_arrays a;
    int c_flag = 0, rc = f_arrays_in(&a, *count, requests, statuses);
    if (rc == MPI_SUCCESS) {
        rc = MPI_Testall(*count, a.req, &c_flag, a.st);
        f_arrays_out(&a, *count, requests, statuses, c_flag ? *count : 0, rc);
    }
    *flag = f_logical(c_flag);
    f_done(ierror, rc);
}

/* the 1-based index of C index i */
static MPI_Fint f_index(int i)
{
    return i == MPI_UNDEFINED ? MPI_UNDEFINED : i + 1;
}

static void fr_waitany(const MPI_Fint *count, MPI_Fint *requests, MPI_Fint *index,
                       F_STATUS *status, MPI_Fint *ierror)
{
    f_arrays a;
    MPI_Status s;
    int i = MPI_UNDEFINED, rc = f_arrays_in(&a, *count, requests, NULL);
    if (rc == MPI_SUCCESS) {
        rc = MPI_Waitany(*count, a.req, &i, f_status_in(status, &s));
        f_arrays_out(&a, *count, requests, NULL, 0, rc);
        *index = f_index(i);
        f_status_out(status, &s, rc);
    }
    f_done(ierror, rc);
}

static void fr_testany(const MPI_Fint *count, MPI_Fint *requests, MPI_Fint *index,
                       MPI_Fint *flag, F_STATUS *status, MPI_Fint *ierror)
{
    f_arrays a;
    MPI_Status s;
    int i = MPI_UNDEFINED, c_flag = 0, rc = f_arrays_in(&a, *count, requests, NULL);
    if (rc == MPI_SUCCESS) {
        rc = MPI_Testany(*count, a.req, &i, &c_flag, f_status_in(status, &s));
        f_arrays_out(&a, *count, requests, NULL, 0, rc);
        *index = f_index(i);
        if (c_flag)
            f_status_out(status, &s, rc);
    }
    *flag = f_logical(c_flag);
    f_done(ierror, rc);
}

/* waitsome and testsome: some(count, requests, &outcount, indices,
 * statuses) */
static void f_some(int (*some)(int, MPI_Request[], int *, int[], MPI_Status[]),
                   const MPI_Fint *incount, MPI_Fint *requests, MPI_Fint *outcount,
                   MPI_Fint *indices, F_STATUS *statuses, MPI_Fint *ierror)
{
    f_arrays a;
    int out = MPI_UNDEFINED, rc = f_arrays_in(&a, *incount, requests, statuses);
    if (rc == MPI_SUCCESS) {
        rc = some(*incount, a.req, &out, indices, a.st);
        /* the statuses of the completed requests, in the order of indices */
        const int n = out != MPI_UNDEFINED ? out : 0;
        f_arrays_out(&a, *incount, requests, statuses, n, rc);
        for (int k = 0; k < n; k++)
            indices[k] = f_index(indices[k]);
        *outcount = out;
    }
    f_done(ierror, rc);
}

static void fr_waitsome(const MPI_Fint *incount, MPI_Fint *requests, MPI_Fint *outcount,
                        MPI_Fint *indices, F_STATUS *statuses, MPI_Fint *ierror)
{
    f_some(MPI_Waitsome, incount, requests, outcount, indices, statuses, ierror);
}

static void fr_testsome(const MPI_Fint *incount, MPI_Fint *requests, MPI_Fint *outcount,
                        MPI_Fint *indices, F_STATUS *statuses, MPI_Fint *ierror)
{
    f_some(MPI_Testsome, incount, requests, outcount, indices, statuses, ierror);
}

/* Each call under its use mpi_f08 name, mpi_<call>_f08_ (handles of one
 * INTEGER, ierror optional); with Open MPI also under the four manglings
 * and ompi_<call>_f (Open MPI's f08 bindings of the Test calls call
 * pmpi_test_ & co.: the program's call is taken before, by its f08 name). */
#ifdef OPEN_MPI
#define F_REQUEST_CALL(call, CALL, params)                                                 \
    F_NAMES(fr_##call, params, mpi_##call, MPI_##CALL)                                     \
    F_OMPI(fr_##call, params, ompi_##call##_f)                                             \
    F_ALIAS(mpi_##call##_f08_, fr_##call, params)
#else
#define F_REQUEST_CALL(call, CALL, params) F_ALIAS(mpi_##call##_f08_, fr_##call, params)
#endif
F_REQUEST_CALL(start, START, (MPI_Fint *request, MPI_Fint *ierror))
F_REQUEST_CALL(startall, STARTALL, (const MPI_Fint *count, MPI_Fint *requests, MPI_Fint *ierror))
F_REQUEST_CALL(request_free, REQUEST_FREE, (MPI_Fint *request, MPI_Fint *ierror))
F_REQUEST_CALL(wait, WAIT, (MPI_Fint *request, F_STATUS *status, MPI_Fint *ierror))
F_REQUEST_CALL(test, TEST, (MPI_Fint *request, MPI_Fint *flag, F_STATUS *status,
                            MPI_Fint *ierror))
F_REQUEST_CALL(request_get_status, REQUEST_GET_STATUS,
               (const MPI_Fint *request, MPI_Fint *flag, F_STATUS *status, MPI_Fint *ierror))
F_REQUEST_CALL(waitall, WAITALL, (const MPI_Fint *count, MPI_Fint *requests,
                                  F_STATUS *statuses, MPI_Fint *ierror))
F_REQUEST_CALL(testall, TESTALL, (const MPI_Fint *count, MPI_Fint *requests, MPI_Fint *flag,
                                  F_STATUS *statuses, MPI_Fint *ierror))
F_REQUEST_CALL(waitany, WAITANY, (const MPI_Fint *count, MPI_Fint *requests, MPI_Fint *index,
                                  F_STATUS *status, MPI_Fint *ierror))
F_REQUEST_CALL(testany, TESTANY, (const MPI_Fint *count, MPI_Fint *requests, MPI_Fint *index,
                                  MPI_Fint *flag, F_STATUS *status, MPI_Fint *ierror))
F_REQUEST_CALL(waitsome, WAITSOME, (const MPI_Fint *incount, MPI_Fint *requests,
                                    MPI_Fint *outcount, MPI_Fint *indices,
                                    F_STATUS *statuses, MPI_Fint *ierror))
F_REQUEST_CALL(testsome, TESTSOME, (const MPI_Fint *incount, MPI_Fint *requests,
                                    MPI_Fint *outcount, MPI_Fint *indices,
                                    F_STATUS *statuses, MPI_Fint *ierror))
#endif
