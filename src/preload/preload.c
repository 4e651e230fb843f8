/*
 * libmpicoll_preload.so: mpicoll under unmodified MPI programs.
 *
 *   mpirun -x LD_PRELOAD=/path/libmpicoll_preload.so -n 4 ./app      (Open MPI)
 *   mpiexec -genv LD_PRELOAD /path/libmpicoll_preload.so -n 4 ./app  (MPICH)
 *
 * Defines the MPI_ entry points of the collectives mpicoll implements and
 * calls mpicoll, which calls only PMPI_ entry points, so the two never
 * recurse into each other. What mpicoll does not handle goes to the MPI
 * library's own collective (PMPI_, through native_run: src/runtime/native.c,
 * the path of the algorithm native too), and MPICOLL_VERBOSE says so:
 * intercommunicators, datatypes the vector collectives refuse, and the
 * predefined operations on types that mpicoll leaves to the library
 * (op_for_library: src/runtime/errors.c).
 * MPICOLL_DISABLE=1 sends every call to the MPI library's own.
 *
 * Each collective's three forms: MPI_<Name>, MPI_I<Name>, and the
 * persistent MPI_<Name>_init (MPI-4: MPICH 4.0) or MPIX_<Name>_init (Open
 * MPI 4.1's pcollreq extension), all made from the list of collectives.
 * A request the program gets for one of mpicoll's calls is a generalized
 * request (MPI_Grequest_start), completed from the runtime's completion
 * hook (call_mode.done), so that every completion call of the MPI library
 * takes it, mixed with others. The runtime's requests advance in the MPI
 * library's own progress: under MPICH, the poll and wait functions of
 * MPICH's MPIX_Grequest_start (which requires both); elsewhere a callback of Open MPI's progress loop,
 * registered through opal_progress_register found at run time (no Open
 * MPI header needed). Every intercepted completion call also advances them
 * once before it runs.
 *
 * A persistent request is the pair of a real, inactive persistent request
 * of the library (a send of nothing to MPI_PROC_NULL: what the program
 * holds while the call is inactive, which every completion call takes as
 * inactive) and the runtime's persistent request; MPI_Start and
 * MPI_Startall start the latter and give the program a generalized request
 * in its place, and the completion calls put the inactive one back where
 * they completed it (MPI_REQUEST_NULL in the slot). MPI_Request_free frees
 * an inactive one; an active one, like MPI_Cancel of any collective
 * request, fails with MPI_ERR_REQUEST, as the Open MPI component's.
 *
 * The ranks must agree on it: the first call that mpicoll would take on a
 * communicator creates mpicoll's state there, collectively, and checks that
 * every rank has the same settings; a rank under MPICOLL_DISABLE makes the
 * same check at the same call (comm_settings_native), so that a setting on
 * some ranks only fails every rank with MPI_ERR_ARG and a message instead
 * of hanging them.
 */
#include "../api/api.h"
#include "../runtime/call.h"

#if defined(OPEN_MPI) && MPI_VERSION < 4
#include <mpi-ext.h>
#endif
#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static int disabled;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void read_env(void)
{
    const char *v = getenv("MPICOLL_DISABLE");
    disabled = v && *v && strcmp(v, "0") != 0;
}

enum { NATIVE, OURS, FAILED };

/* OURS when mpicoll takes the call (coll_takes); NATIVE when the MPI
 * library's own collective runs; FAILED when the settings differ between
 * the ranks (raised on a->comm, *rc set). A non-blocking call (nb) is
 * local in MPI: one rank may make it while another waits for a message
 * the first sends after it. So it makes no state, which is collective
 * (the library's runs it on a communicator that has none yet), and makes
 * no settings check. */
static int route(const coll_args *a, int nb, int *rc)
{
    pthread_once(&once, read_env);
    const int takes = coll_takes(a, disabled);
    comm_state *st = NULL;
    if (!disabled && takes && nb && (comm_state_find(a->comm, 0, &st) != MPI_SUCCESS || !st))
        return NATIVE;
    if (!disabled)
        return takes ? OURS : NATIVE;
    /* where the other ranks would create mpicoll's state */
    if (takes && !nb && a->comm != MPI_COMM_NULL &&
        (*rc = comm_settings_native(a->comm)) != MPI_SUCCESS) {
        mpicoll_raise(a->comm, *rc);
        return FAILED;
    }
    return NATIVE;
}

/* The call a: mpicoll's, or the MPI library's own with the program's
 * arguments as they are (route; also when mpicoll refuses the datatype or
 * leaves the operation to the library: coll_supported). */
static int preload_call(const coll_args *a)
{
    int rc = MPI_SUCCESS;
    pthread_once(&once, read_env);
    if (!disabled) {    /* its last call again: taken then (one lookup, not two) */
        const call_mode now = { .req = NULL };
        switch (coll_again(a, &now, &rc)) {
        case 1:
            return mpicoll_raise(a->comm, rc);
        case 2:     /* in the form mpicoll's native ran it (MPICH: maybe non-blocking) */
            return call_native_again(a);
        }
    }
    int how = route(a, 0, &rc);
    if (how == FAILED)
        return rc;
    if (how == NATIVE)
        return native_run(a, NULL);
    return api_call(a, NULL, API_BLOCKING);
}


/* ---- requests ------------------------------------------------------------- */

/* Every request of mpicoll's the program holds: a non-blocking call's
 * (while active), or a persistent call's (until MPI_Request_free). */
typedef struct preq {
    mpicoll_request inner;      /* the runtime's request */
    MPI_Request greq;           /* the generalized request while active */
    MPI_Request handle;         /* persistent: the inactive request the program holds */
    MPI_Comm comm;
    int persistent;
    int rc;                     /* the runtime's code at completion */
    atomic_int done;            /* completed (rc set) */
    MPI_Request *slot;          /* a completion call: where the program holds greq */
    struct preq *waiting;       /* a completion call's list */
    struct preq *next;          /* the free list */
    struct key {                /* the table's: handle and greq (persistent) */
        MPI_Request h;
        struct preq *p;
        struct key *next;
    } keys[2];
} preq;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static preq *free_preqs;        /* kept: a call made again allocates nothing */

/* the persistent requests' handles, inactive and active, to their preq */
enum { BUCKETS = 256 };
static struct key *table[BUCKETS];
static atomic_int npersistent;  /* in the table: 0, the completion calls look at nothing */

static size_t bucket(MPI_Request h)
{
    uintptr_t v = 0;
    memcpy(&v, &h, sizeof h < sizeof v ? sizeof h : sizeof v);
    return (size_t)((v >> 3) ^ (v >> 11)) % BUCKETS;
}

/* Under lock. */
static void key_add(struct key *k, MPI_Request h, preq *p)
{
    k->h = h;
    k->p = p;
    k->next = table[bucket(h)];
    table[bucket(h)] = k;
}

static void key_remove(struct key *k)
{
    for (struct key **at = &table[bucket(k->h)]; *at; at = &(*at)->next)
        if (*at == k) {
            *at = k->next;
            return;
        }
}

/* The persistent request of the program's handle h, or NULL. */
static preq *lookup(MPI_Request h)
{
    if (h == MPI_REQUEST_NULL || atomic_load_explicit(&npersistent, memory_order_relaxed) == 0)
        return NULL;
    preq *p = NULL;
    pthread_mutex_lock(&lock);
    for (struct key *k = table[bucket(h)]; k && !p; k = k->next)
        if (k->h == h)
            p = k->p;
    pthread_mutex_unlock(&lock);
    return p;
}

/* The free list's lock, only with threads (request_threaded). */
static void list_lock(void)
{
    if (request_threaded())
        pthread_mutex_lock(&lock);
}

static void list_unlock(void)
{
    if (request_threaded())
        pthread_mutex_unlock(&lock);
}

static preq *preq_get(void)
{
    list_lock();
    preq *p = free_preqs;
    if (p)
        free_preqs = p->next;
    list_unlock();
    if (!p && !(p = malloc(sizeof *p)))
        return NULL;
    memset(p, 0, sizeof *p);
    p->greq = p->handle = MPI_REQUEST_NULL;
    return p;
}

static void preq_put(preq *p)
{
    list_lock();
    p->next = free_preqs;
    free_preqs = p;
    list_unlock();
}

/* The MPI library's progress advances the runtime's requests. */
static void progress_now(void)
{
    int rc;
    request_progress(&rc);
}

static int progress_cb(void)
{
    int rc;
    return request_progress(&rc);
}

#ifndef MPICH
/* Open MPI's progress loop, found at run time: a callback in it. */
static pthread_once_t progress_once = PTHREAD_ONCE_INIT;

static void progress_register(void)
{
    int (*reg)(int (*)(void));
    *(void **)&reg = dlsym(RTLD_DEFAULT, "opal_progress_register");
    if (reg)
        reg(progress_cb);
}
#else
static int poll_fn(void *extra, MPI_Status *status)
{
    (void)extra;
    (void)status;
    progress_cb();
    return MPI_SUCCESS;
}

/* MPICH's wait for `count` requests (it requires one): each completed,
 * the runtime's requests advanced meanwhile. */
static int wait_fn(int count, void **array_of_states, double timeout, MPI_Status *status)
{
    (void)timeout;
    (void)status;
    for (int i = 0; i < count; i++)
        while (!atomic_load(&((preq *)array_of_states[i])->done))
            progress_cb();
    return MPI_SUCCESS;
}
#endif

/* A completed request's status: a collective's (no source, tag or
 * elements), with the runtime's code. */
static int query_fn(void *extra, MPI_Status *status)
{
    const preq *p = extra;
    PMPI_Status_set_elements(status, MPI_BYTE, 0);
    PMPI_Status_set_cancelled(status, 0);
    status->MPI_SOURCE = MPI_ANY_SOURCE;
    status->MPI_TAG = MPI_ANY_TAG;
    return p->rc;
}

/* The generalized request freed (completed and waited, or freed by the
 * program and completed): a non-blocking call's request is done with. */
static int free_fn(void *extra)
{
    preq *p = extra;
    if (!p->persistent) {
        if (p->inner)
            request_release(p->inner);
        preq_put(p);
    }
    return MPI_SUCCESS;
}

/* A collective cannot be cancelled (MPI-3.1 5.12, MPI-4.0 6.12). */
static int cancel_fn(void *extra, int complete)
{
    (void)extra;
    (void)complete;
    return MPI_ERR_REQUEST;
}

/* The runtime's completion (call_mode.done), from request_progress. */
static void done_fn(void *arg, int rc)
{
    preq *p = arg;
    p->rc = rc;
    atomic_store_explicit(&p->done, 1, memory_order_release);
    PMPI_Grequest_complete(p->greq);
}

static int greq_start(preq *p)
{
    p->rc = MPI_SUCCESS;
    atomic_store_explicit(&p->done, 0, memory_order_relaxed);
#ifdef MPICH
    return PMPIX_Grequest_start(query_fn, free_fn, cancel_fn, poll_fn, wait_fn, p, &p->greq);
#else
    pthread_once(&progress_once, progress_register);
    return PMPI_Grequest_start(query_fn, free_fn, cancel_fn, p, &p->greq);
#endif
}

/* A generalized request that never ran: completed and waited (freed).
 * Successfully: the caller raises the call's error on its communicator,
 * where the library would raise a request's own on another. */
static void greq_abandon(preq *p)
{
    p->rc = MPI_SUCCESS;
    atomic_store(&p->done, 1);
    PMPI_Grequest_complete(p->greq);
    PMPI_Wait(&p->greq, MPI_STATUS_IGNORE);
}

/* The call a as a request of the program's in *request: a non-blocking
 * one, started, or a persistent one, inactive. Returns 0 when the MPI
 * library's own must make it (route), else 1 with the call's code in *rc
 * (raised on a->comm). */
static int request_call(const coll_args *a, int persistent, MPI_Request *request, int *rc)
{
    *rc = MPI_SUCCESS;
    pthread_once(&once, read_env);
    /* its last call again: the library's request if the library's then,
     * else mpicoll's (no need to route it) */
    call_mode m = { .req = NULL, .persistent = persistent, .done = done_fn, .lib_direct = 1 };
    mpicoll_request none;
    m.req = &none;
    const int again = !persistent && !disabled ? coll_again_kind(a, &m) : 0;
    if (again == 2)
        return 0;
    const int how = again == 1 ? OURS : route(a, !persistent, rc);
    if (how == NATIVE)
        return 0;
    if (how == FAILED)
        return 1;
    preq *p = request ? preq_get() : NULL;
    if (!p) {
        *rc = mpicoll_raise(a->comm, request ? MPI_ERR_NO_MEM : MPI_ERR_ARG);
        return 1;
    }
    p->persistent = persistent;
    p->comm = a->comm;
    m.req = &p->inner;
    m.done_arg = p;
    if (persistent) {
        if ((*rc = coll_run(a, &m)) == MPI_SUCCESS &&
            (*rc = PMPI_Send_init(NULL, 0, MPI_BYTE, MPI_PROC_NULL, 0, MPI_COMM_SELF,
                                  &p->handle)) != MPI_SUCCESS)
            request_release(p->inner);
        if (*rc != MPI_SUCCESS)
            goto fail;
        pthread_mutex_lock(&lock);
        key_add(&p->keys[0], p->handle, p);
        atomic_fetch_add(&npersistent, 1);
        pthread_mutex_unlock(&lock);
        *request = p->handle;
        return 1;
    }
    /* the generalized request before the runtime's, which may complete it */
    if ((*rc = greq_start(p)) != MPI_SUCCESS)
        goto fail;
    if ((*rc = coll_run(a, &m)) != MPI_SUCCESS) {
        p->inner = MPICOLL_REQUEST_NULL;    /* abandoned (call_finish) */
        greq_abandon(p);                    /* and p with it (free_fn) */
        *rc = mpicoll_raise(a->comm, *rc);
        return 1;
    }
    *request = p->greq;
    return 1;
fail:
    preq_put(p);
    *rc = mpicoll_raise(a->comm, *rc);
    return 1;
}

/* MPI_Start of one request: a persistent one of mpicoll's, inactive, is
 * started, and the program holds its generalized request meanwhile. */
static int start_one(MPI_Request *request)
{
    preq *p = lookup(*request);
    int rc;
    if (!p)
        return PMPI_Start(request);
    if (p->greq != MPI_REQUEST_NULL)
        return mpicoll_raise(p->comm, MPI_ERR_REQUEST);     /* active */
    if ((rc = greq_start(p)) != MPI_SUCCESS) {
        p->greq = MPI_REQUEST_NULL;
        return mpicoll_raise(p->comm, rc);
    }
    if ((rc = request_start(p->inner)) != MPI_SUCCESS) {
        greq_abandon(p);
        p->greq = MPI_REQUEST_NULL;
        return mpicoll_raise(p->comm, rc);
    }
    pthread_mutex_lock(&lock);
    key_add(&p->keys[1], p->greq, p);
    pthread_mutex_unlock(&lock);
    *request = p->greq;
    return MPI_SUCCESS;
}

int MPI_Start(MPI_Request *request)
{
    return start_one(request);
}

int MPI_Startall(int count, MPI_Request array_of_requests[])
{
    int rc = MPI_SUCCESS;
    for (int i = 0; i < count && rc == MPI_SUCCESS; i++)
        rc = start_one(&array_of_requests[i]);
    return rc;
}

int MPI_Request_free(MPI_Request *request)
{
    preq *p = lookup(*request);
    if (!p)
        return PMPI_Request_free(request);
    if (p->greq != MPI_REQUEST_NULL)
        return mpicoll_raise(p->comm, MPI_ERR_REQUEST);     /* active */
    pthread_mutex_lock(&lock);
    key_remove(&p->keys[0]);
    atomic_fetch_sub(&npersistent, 1);
    pthread_mutex_unlock(&lock);
    request_release(p->inner);
    PMPI_Request_free(&p->handle);
    preq_put(p);
    *request = MPI_REQUEST_NULL;
    return MPI_SUCCESS;
}

/* Before a completion call of the n requests in q: the runtime's requests
 * advanced once, and the active persistent ones among q listed (their
 * slots). */
static preq *completion_begin(int n, MPI_Request *q)
{
    preq *list = NULL;
    progress_now();
    if (atomic_load_explicit(&npersistent, memory_order_relaxed) == 0)
        return NULL;
    for (int i = 0; i < n; i++) {
        preq *p = lookup(q[i]);
        if (p && p->greq == q[i]) {
            p->slot = &q[i];
            p->waiting = list;
            list = p;
        }
    }
    return list;
}

/* After it: where it completed (and freed) a persistent request's
 * generalized request, the program holds the inactive request again. */
static void completion_end(preq *list)
{
    for (preq *p = list; p; p = p->waiting)
        if (*p->slot == MPI_REQUEST_NULL) {
            pthread_mutex_lock(&lock);
            key_remove(&p->keys[1]);
            pthread_mutex_unlock(&lock);
            p->greq = MPI_REQUEST_NULL;
            *p->slot = p->handle;
        }
}

int MPI_Wait(MPI_Request *request, MPI_Status *status)
{
    preq *list = completion_begin(1, request);
    const int rc = PMPI_Wait(request, status);
    completion_end(list);
    return rc;
}

int MPI_Test(MPI_Request *request, int *flag, MPI_Status *status)
{
    preq *list = completion_begin(1, request);
    const int rc = PMPI_Test(request, flag, status);
    completion_end(list);
    return rc;
}

int MPI_Waitall(int count, MPI_Request array_of_requests[], MPI_Status array_of_statuses[])
{
    preq *list = completion_begin(count, array_of_requests);
    const int rc = PMPI_Waitall(count, array_of_requests, array_of_statuses);
    completion_end(list);
    return rc;
}

int MPI_Testall(int count, MPI_Request array_of_requests[], int *flag,
                MPI_Status array_of_statuses[])
{
    preq *list = completion_begin(count, array_of_requests);
    const int rc = PMPI_Testall(count, array_of_requests, flag, array_of_statuses);
    completion_end(list);
    return rc;
}

int MPI_Waitany(int count, MPI_Request array_of_requests[], int *index, MPI_Status *status)
{
    preq *list = completion_begin(count, array_of_requests);
    const int rc = PMPI_Waitany(count, array_of_requests, index, status);
    completion_end(list);
    return rc;
}

int MPI_Testany(int count, MPI_Request array_of_requests[], int *index, int *flag,
                MPI_Status *status)
{
    preq *list = completion_begin(count, array_of_requests);
    const int rc = PMPI_Testany(count, array_of_requests, index, flag, status);
    completion_end(list);
    return rc;
}

int MPI_Waitsome(int incount, MPI_Request array_of_requests[], int *outcount,
                 int array_of_indices[], MPI_Status array_of_statuses[])
{
    preq *list = completion_begin(incount, array_of_requests);
    const int rc = PMPI_Waitsome(incount, array_of_requests, outcount, array_of_indices,
                                 array_of_statuses);
    completion_end(list);
    return rc;
}

int MPI_Testsome(int incount, MPI_Request array_of_requests[], int *outcount,
                 int array_of_indices[], MPI_Status array_of_statuses[])
{
    preq *list = completion_begin(incount, array_of_requests);
    const int rc = PMPI_Testsome(incount, array_of_requests, outcount, array_of_indices,
                                 array_of_statuses);
    completion_end(list);
    return rc;
}

int MPI_Request_get_status(MPI_Request request, int *flag, MPI_Status *status)
{
    progress_now();
    return PMPI_Request_get_status(request, flag, status);
}

/* ---- the entry points --------------------------------------------------------- */

/* The persistent form's name and its library's: MPI-4's MPI_<Name>_init,
 * or Open MPI 4.1's MPIX_<Name>_init; none before. */
#if MPI_VERSION >= 4
#define PRELOAD_INIT_(Name) MPI_##Name##_init
#define PRELOAD_PINIT_(Name) PMPI_##Name##_init
#elif defined(OMPI_HAVE_MPI_EXT_PCOLLREQ)
#define PRELOAD_INIT_(Name) MPIX_##Name##_init
#define PRELOAD_PINIT_(Name) PMPIX_##Name##_init
#endif

#ifdef PRELOAD_INIT_
#define PRELOAD_PERSISTENT_(name, Name, family)                                          \
    int PRELOAD_INIT_(Name)(MPICOLL_ARGS_##family, MPI_Info info, MPI_Request *request)  \
    {                                                                                    \
        const coll_args a = API_COLL_ARGS(name, api_thread_spec(), family);              \
        int rc;                                                                          \
        if (request_call(&a, 1, request, &rc))                                           \
            return rc;                                                                   \
        return PRELOAD_PINIT_(Name)(API_ARGS_##family, info, request);                   \
    }
#else
#define PRELOAD_PERSISTENT_(name, Name, family)
#endif

/* MPI_<Name>, MPI_I<Name> and the persistent form of every collective
 * (include/mpicoll_collectives.h), the call filled as the entry points'
 * (API_CALL_<family>), with the thread's algorithm if a test named one
 * (api_thread_spec: the sweep through the MPI_ entry points). */
#define PRELOAD_(name, Name, family)                                                     \
    int MPI_##Name(MPICOLL_ARGS_##family)                                                \
    {                                                                                    \
        return preload_call(&API_COLL_ARGS(name, api_thread_spec(), family));            \
    }                                                                                    \
    int MPI_I##name(MPICOLL_ARGS_##family, MPI_Request *request)                         \
    {                                                                                    \
        const coll_args a = API_COLL_ARGS(name, api_thread_spec(), family);              \
        int rc;                                                                          \
        if (request_call(&a, 0, request, &rc))                                           \
            return rc;                                                                   \
        return PMPI_I##name(API_ARGS_##family, request);                                 \
    }                                                                                    \
    PRELOAD_PERSISTENT_(name, Name, family)
MPICOLL_COLLECTIVES(PRELOAD_)
