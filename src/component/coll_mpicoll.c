/*
 * mca_coll_mpicoll: mpicoll inside Open MPI, as a coll component (the way
 * HAN, UCC and HCOLL reach applications), for every call of the 16
 * collectives on an intracommunicator: from C, Fortran (mpif.h, use mpi,
 * use mpi_f08) and Python alike, since Open MPI's bindings all end in the
 * communicator's coll functions; blocking, non-blocking and persistent
 * (MPIX_<Name>_init, Open MPI 4.1's pcollreq extension).
 *
 *   mpirun --mca mca_base_component_path <Open MPI's pkglibdir>:<this file's directory> ...
 *   ompi_info --mca mca_base_component_path ... --param coll mpicoll --level 9
 *
 * A thin front end over mpicoll's runtime (libmpicoll.so, which it links):
 * the call's coll_args as the API fills them (api.h), coll_run (entry.c)
 * for the checks, the selection and the run, and the runtime's requests.
 *
 * - The module it displaces is native. At enable it keeps the functions
 *   and modules that served each collective before it (tuned, libnbc, ...)
 *   and hands them the calls mpicoll does not take (coll_takes: datatypes
 *   and operations left to the library) and every call made while the
 *   runtime is busy on this thread (runtime_busy): mpicoll's own set-up
 *   collectives and native's PMPI_ calls come back here, below Open MPI's
 *   profiling layer, and must reach the library, not mpicoll again.
 *   Communicators made meanwhile (mpicoll's private duplicates, node
 *   splits) get no module. Intercommunicators get none either.
 * - Requests are Open MPI requests (a subclass of coll/base's nbc request,
 *   which the MPI layer's datatype and operation retention expects) around
 *   mpicoll's own: every completion call takes them, mixed with others,
 *   and MPI_Start restarts persistent ones. They advance in Open MPI's
 *   progress loop (a progress callback: request_progress), which completes
 *   them through the runtime's completion hook (call_mode.done).
 * - Errors are returned, not raised: Open MPI's MPI layer raises them on
 *   the communicator (coll_run, not coll_entry).
 * - Settings: the MCA parameters coll_mpicoll_<coll>_algorithm, _rules,
 *   _model, _fallback and _verbose are read where the MPICOLL_ variables
 *   are (select_set_source), before them; the variables keep working, and
 *   every rank must still agree (the settings check).
 */
#include "ompi_config.h"
#include "ompi/communicator/communicator.h"
#include "ompi/datatype/ompi_datatype.h"
#include "ompi/mca/coll/coll.h"
#include "ompi/request/request.h"
#include "opal/mca/base/mca_base_var.h"
#include "opal/runtime/opal_progress.h"

#if OMPI_MAJOR_VERSION == 4 && OMPI_MINOR_VERSION == 1
/* coll/base's request of the non-blocking collectives, as Open MPI 4.1's
 * ompi/mca/coll/base/coll_base_util.h lays it out: that header does not
 * compile from Debian's package (its ompi/op/op.h includes a Fortran header
 * the package leaves out). The MPI layer's ompi_coll_base_retain_op and
 * _retain_datatypes write into every collective's request as one of these,
 * so mpicoll's requests are one. */
typedef struct ompi_coll_base_nbc_request_t {
    ompi_request_t super;
    union {
        ompi_request_complete_fn_t req_complete_cb;
        ompi_request_free_fn_t req_free;
    } cb;
    void *req_complete_cb_data;
    union {
        opal_object_t *objs[2];     /* the op and datatype, or the two types, ... */
    } data;
} ompi_coll_base_nbc_request_t;
OMPI_DECLSPEC OBJ_CLASS_DECLARATION(ompi_coll_base_nbc_request_t);
#else
#include "ompi/mca/coll/base/coll_base_util.h"
#endif

#include "../api/api.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the component and its parameters ------------------------------------ */

typedef struct mpicoll_component {
    mca_coll_base_component_2_0_0_t super;
    int priority;
    int verbose;
    char *rules, *model, *fallback;
    char *algorithm[NCOLLS];    /* coll_mpicoll_<coll>_algorithm, in table order */
} mpicoll_component;

static int component_register(void);
static int component_open(void);
static int component_close(void);
static int init_query(bool enable_progress_threads, bool enable_mpi_threads);
static mca_coll_base_module_t *comm_query(struct ompi_communicator_t *comm, int *priority);

/* above every component of Open MPI 4.1 that takes intracommunicators
 * (coll/self's 75 on one rank, coll/cuda's 78, tuned's 30): mpicoll takes
 * the collectives once its directory is on the component path, as
 * coll/hcoll (90) does */
#define DEFAULT_PRIORITY 90

__attribute__((visibility("default"))) mpicoll_component mca_coll_mpicoll_component = {
    .super = {
        .collm_version = {
            MCA_COLL_BASE_VERSION_2_0_0,
            .mca_component_name = "mpicoll",
            MCA_BASE_MAKE_VERSION(component, OMPI_MAJOR_VERSION, OMPI_MINOR_VERSION,
                                  OMPI_RELEASE_VERSION),
            .mca_open_component = component_open,
            .mca_close_component = component_close,
            .mca_register_component_params = component_register,
        },
        .collm_data = { MCA_BASE_METADATA_PARAM_NONE },
        .collm_init_query = init_query,
        .collm_comm_query = comm_query,
    },
    .priority = DEFAULT_PRIORITY,
};

static mpicoll_component *const comp = &mca_coll_mpicoll_component;

static void string_param(const char *name, const char *help, int level, char **storage)
{
    *storage = NULL;
    (void)mca_base_component_var_register(&comp->super.collm_version, name, help,
                                          MCA_BASE_VAR_TYPE_STRING, NULL, 0, 0, level,
                                          MCA_BASE_VAR_SCOPE_READONLY, storage);
}

static int component_register(void)
{
    static char names[NCOLLS][64], helps[NCOLLS][400];
    mca_base_component_t *c = &comp->super.collm_version;
    comp->priority = DEFAULT_PRIORITY;
    (void)mca_base_component_var_register(c, "priority",
        "Priority of the mpicoll coll component: above the other components' (coll/self's "
        "75, coll/tuned's 30), mpicoll runs the collectives of every intracommunicator, and "
        "they are its native; below one, that one serves the collectives it has; negative: "
        "not used", MCA_BASE_VAR_TYPE_INT, NULL, 0, 0, OPAL_INFO_LVL_9,
        MCA_BASE_VAR_SCOPE_READONLY, &comp->priority);
    comp->verbose = 0;
    (void)mca_base_component_var_register(c, "verbose",
        "1: rank 0 prints the rules in force and each call's choice of algorithm "
        "(MPICOLL_VERBOSE)", MCA_BASE_VAR_TYPE_INT, NULL, 0, 0, OPAL_INFO_LVL_9,
        MCA_BASE_VAR_SCOPE_READONLY, &comp->verbose);
    string_param("rules", "A rules file, read before the built-in rules (MPICOLL_RULES; "
                 "`mpicoll tune` writes one; docs/selection.md)", OPAL_INFO_LVL_5, &comp->rules);
    string_param("model", "A cost model's parameters (`mpicoll calibrate`): across nodes the "
                 "algorithm the model predicts fastest (MPICOLL_MODEL)", OPAL_INFO_LVL_5,
                 &comp->model);
    string_param("fallback", "error, warn or silent: what a forced algorithm that cannot run "
                 "on the communicator does (MPICOLL_FALLBACK; default warn)", OPAL_INFO_LVL_5,
                 &comp->fallback);
    for (int i = 0; i < NCOLLS && mpicoll_colls[i]; i++) {
        const coll_desc *d = mpicoll_colls[i];
        snprintf(names[i], sizeof names[i], "%s_algorithm", d->name);
        snprintf(helps[i], sizeof helps[i],
                 "Algorithm of every %s call: a name of `mpicoll list %s` with its parameters "
                 "(name:k=4), native (the other components'), or Open MPI's numeric id; "
                 "empty, auto or 0: mpicoll's selection (%s)", d->name, d->name, d->env);
        string_param(names[i], helps[i], OPAL_INFO_LVL_5, &comp->algorithm[i]);
    }
    return OMPI_SUCCESS;
}

/* A setting: its MCA parameter's value when set, else the variable. */
static const char *setting(const char *name)
{
    static char verbose[16];
    const char *v = NULL;
    if (strcmp(name, "MPICOLL_VERBOSE") == 0 && comp->verbose) {
        snprintf(verbose, sizeof verbose, "%d", comp->verbose);
        v = verbose;
    } else if (strcmp(name, "MPICOLL_RULES") == 0) {
        v = comp->rules;
    } else if (strcmp(name, "MPICOLL_MODEL") == 0) {
        v = comp->model;
    } else if (strcmp(name, "MPICOLL_FALLBACK") == 0) {
        v = comp->fallback;
    } else {
        for (int i = 0; i < NCOLLS && mpicoll_colls[i] && !v; i++)
            if (strcmp(name, mpicoll_colls[i]->env) == 0)
                v = comp->algorithm[i];
    }
    return v && *v ? v : getenv(name);
}

/* Open MPI's progress loop advances mpicoll's requests. */
static int progress(void)
{
    int rc;
    return request_progress(&rc);
}

static void requests_fini(void);

static void done_request_make(void);

/* Whether the library's request of a native request is complete (no
 * turn of the progress loop, which it is called from). */
static int lib_done(MPI_Request q)
{
    return REQUEST_COMPLETE((ompi_request_t *)q);
}

static int component_open(void)
{
    select_set_source(setting);
    request_set_lib_done(lib_done);
    done_request_make();
    return opal_progress_register(progress);
}

static int component_close(void)
{
    opal_progress_unregister(progress);
    request_set_lib_done(NULL);
    requests_fini();
    select_set_source(NULL);
    return OMPI_SUCCESS;
}

static int init_query(bool enable_progress_threads, bool enable_mpi_threads)
{
    (void)enable_progress_threads;
    (void)enable_mpi_threads;
    return OMPI_SUCCESS;
}

/* ---- requests --------------------------------------------------------------- */

typedef struct mpicoll_ompi_request {
    ompi_coll_base_nbc_request_t super;
    mpicoll_request inner;      /* the runtime's request */
    struct mpicoll_ompi_request *next;  /* in the free list */
} mpicoll_ompi_request;

static int request_start_fn(size_t count, ompi_request_t **requests);
static int request_free_fn(ompi_request_t **request);
static int request_cancel_fn(ompi_request_t *request, int complete);

static void request_construct(mpicoll_ompi_request *r)
{
    ompi_request_t *q = &r->super.super;
    q->req_type = OMPI_REQUEST_COLL;
    q->req_start = request_start_fn;
    q->req_free = request_free_fn;
    q->req_cancel = request_cancel_fn;
    /* a collective's status (ompi_request_construct leaves it unset, and
     * MPI_Wait copies it out): no source, tag or elements, not cancelled */
    q->req_status.MPI_SOURCE = MPI_ANY_SOURCE;
    q->req_status.MPI_TAG = MPI_ANY_TAG;
    q->req_status._ucount = 0;
    q->req_status._cancelled = 0;
    r->inner = MPICOLL_REQUEST_NULL;
}

static OBJ_CLASS_INSTANCE(mpicoll_ompi_request, ompi_coll_base_nbc_request_t, request_construct,
                          NULL);

/* Requests come from a free list and go back to it (as libnbc's): a call
 * made again and again allocates nothing, and a freed request's memory
 * stays valid for the MPI layer, whose retention of a persistent call's
 * datatypes and operation (ompi_coll_base_retain_op: free_objs_callback)
 * reads the request after its free function returned. Released at close. */
static pthread_mutex_t free_lock = PTHREAD_MUTEX_INITIALIZER;
static mpicoll_ompi_request *free_requests;     /* linked by `next` */

static void requests_fini(void)
{
    pthread_mutex_lock(&free_lock);
    while (free_requests) {
        mpicoll_ompi_request *r = free_requests;
        free_requests = r->next;
        OBJ_RELEASE(r);
    }
    pthread_mutex_unlock(&free_lock);
}

/* A request from the free list (or new), as a new one: the fields the MPI
 * layer's retention changes set back (request_construct's, and coll/base's
 * nbc_req_cons'). */
static mpicoll_ompi_request *request_get(void)
{
    const int threaded = request_threaded();
    if (threaded)
        pthread_mutex_lock(&free_lock);
    mpicoll_ompi_request *r = free_requests;
    if (r)
        free_requests = r->next;
    if (threaded)
        pthread_mutex_unlock(&free_lock);
    if (!r)
        return OBJ_NEW(mpicoll_ompi_request);
    r->super.super.req_free = request_free_fn;
    memset(&r->super.cb, 0, sizeof r->super.cb);
    r->super.req_complete_cb_data = NULL;
    memset(&r->super.data, 0, sizeof r->super.data);
    r->inner = MPICOLL_REQUEST_NULL;
    return r;
}

static void request_put(mpicoll_ompi_request *r)
{
    OMPI_REQUEST_FINI(&r->super.super);
    const int threaded = request_threaded();
    if (threaded)
        pthread_mutex_lock(&free_lock);
    r->next = free_requests;
    free_requests = r;
    if (threaded)
        pthread_mutex_unlock(&free_lock);
}

/* The runtime's completion (call_mode.done), from request_progress. */
static void request_done(void *arg, int rc)
{
    mpicoll_ompi_request *r = arg;
    ompi_request_t *q = &r->super.super;
    q->req_status.MPI_ERROR = rc;
    ompi_request_complete(q, true);
}

static void request_activate(ompi_request_t *q)
{
    q->req_complete = REQUEST_PENDING;
    q->req_state = OMPI_REQUEST_ACTIVE;
    q->req_status.MPI_ERROR = MPI_SUCCESS;
}

static int request_start_fn(size_t count, ompi_request_t **requests)
{
    for (size_t i = 0; i < count; i++) {
        mpicoll_ompi_request *r = (mpicoll_ompi_request *)requests[i];
        request_activate(&r->super.super);
        int rc = request_start(r->inner);
        if (rc != MPI_SUCCESS) {
            /* not started: inactive again, so that a wait returns at once */
            r->super.super.req_state = OMPI_REQUEST_INACTIVE;
            r->super.super.req_complete = REQUEST_COMPLETED;
            return rc;
        }
    }
    return OMPI_SUCCESS;
}

/* MPI_Request_free, and the end of a completed non-blocking request: an
 * active one is the program's error (as coll/libnbc says). */
static int request_free_fn(ompi_request_t **request)
{
    mpicoll_ompi_request *r = (mpicoll_ompi_request *)*request;
    if (!REQUEST_COMPLETE(&r->super.super))
        return MPI_ERR_REQUEST;
    if (r->inner)
        request_release(r->inner);
    request_put(r);
    *request = MPI_REQUEST_NULL;
    return OMPI_SUCCESS;
}

/* A collective cannot be cancelled (MPI-3.1 5.12, MPI-4.0 6.12). */
static int request_cancel_fn(ompi_request_t *request, int complete)
{
    (void)request;
    (void)complete;
    return MPI_ERR_REQUEST;
}

/* The request of every non-blocking call that its start completed: one,
 * complete, shared (as Open MPI's ompi_request_empty is by MPI_Isend to
 * MPI_PROC_NULL), a collective's: its free leaves it as it is, MPI_Cancel
 * fails. Made at the first open and never ended: Open MPI's finalize
 * destroys its requests' Fortran table before it closes the component,
 * and the object holds nothing else. */
static ompi_request_t done_request;

static int done_request_free(ompi_request_t **request)
{
    *request = &ompi_request_null.request;
    return OMPI_SUCCESS;
}

static void done_request_make(void)
{
    static int made;
    if (made++)
        return;
    OBJ_CONSTRUCT(&done_request, ompi_request_t);
    OMPI_REQUEST_INIT(&done_request, false);
    done_request.req_type = OMPI_REQUEST_COLL;
    done_request.req_status.MPI_SOURCE = MPI_ANY_SOURCE;
    done_request.req_status.MPI_TAG = MPI_ANY_TAG;
    done_request.req_status.MPI_ERROR = MPI_SUCCESS;
    done_request.req_status._ucount = 0;
    done_request.req_status._cancelled = 0;
    done_request.req_complete = REQUEST_COMPLETED;
    done_request.req_state = OMPI_REQUEST_ACTIVE;
    done_request.req_free = done_request_free;
    done_request.req_cancel = request_cancel_fn;
    done_request.req_mpi_object.comm = &ompi_mpi_comm_world.comm;
}

typedef struct mpicoll_module {
    mca_coll_base_module_t super;
    /* the functions and modules of the collectives it displaces (those of
     * the 16, retained), as the communicator had them before */
    mca_coll_base_comm_coll_t prev;
    comm_state *st;             /* mpicoll's state of the communicator, once made
                                 * (comm_state_watch: NULL again when deleted) */
} mpicoll_module;

static int ours(const coll_args *a, call_mode *m, mpicoll_module *mod, int *rc);

/* An Open MPI request for the runtime's request inner, which its start
 * completed (with the code rc) or not (done 0). */
static mpicoll_ompi_request *request_wrap(const coll_args *a, int persistent,
                                          mpicoll_request inner, int done, int rc)
{
    mpicoll_ompi_request *r = request_get();
    if (!r)
        return NULL;
    ompi_request_t *q = &r->super.super;
    OMPI_REQUEST_INIT(q, persistent);
    q->req_mpi_object.comm = a->comm;
    if (!persistent)
        request_activate(q);
    r->inner = inner;
    if (done)
        request_done(r, rc);
    return r;
}

/* A start's completion, kept until its call returns. */
typedef struct started {
    int done, rc;
} started;

static void started_done(void *arg, int rc)
{
    started *s = arg;
    s->done = 1;
    s->rc = rc;
}

/* The call a as a request in *out: started, or (persistent) inactive
 * until MPI_Start. Returns 0 when it goes to the library instead (ours).
 * A non-blocking call starts before its Open MPI request is made: one
 * that its start completed (the same call again on a node whose ranks are
 * there: its first step did it all) gives done_request, its own released
 * at once. With threads, where another thread's progress may complete the
 * runtime's request while its call is under way, and for persistent
 * calls, the Open MPI request comes first. */
static int request_call(const coll_args *a, int persistent, mpicoll_module *mod,
                        ompi_request_t **out, int *rc)
{
    mpicoll_request inner = MPICOLL_REQUEST_NULL;
    call_mode m = { .req = &inner, .persistent = persistent, .st = mod->st, .lib_direct = 1 };
    mpicoll_ompi_request *r = NULL;
    started s = { 0, MPI_SUCCESS };
    if (persistent || request_threaded()) {
        if (!(r = request_wrap(a, persistent, MPICOLL_REQUEST_NULL, 0, MPI_SUCCESS))) {
            *rc = MPI_ERR_NO_MEM;
            return 1;
        }
        m.req = &r->inner;
        m.done = request_done;
        m.done_arg = r;
    } else {
        m.done = started_done;
        m.done_arg = &s;
    }
    const int taken = ours(a, &m, mod, rc);
    if (!taken || *rc != MPI_SUCCESS) {
        if (r)
            request_put(r);
        return taken;
    }
    if (!r && !(s.done && s.rc == MPI_SUCCESS) && (r = request_wrap(a, 0, inner, s.done, s.rc))) {
        if (!s.done)
            request_set_done(inner, request_done, r);
    } else if (!r) {
        /* done, or no memory for Open MPI's request: the call is waited
         * for here, and a failure returned */
        *rc = s.done ? s.rc : request_complete(&inner);
        if (s.done)
            request_release(inner);
        if (*rc == MPI_SUCCESS)
            *out = &done_request;
        return 1;
    }
    *out = &r->super.super;
    return 1;
}

/* ---- the module ------------------------------------------------------------- */

/* The previous module's function f of each collective's three forms. */
#define FORMS_(X, name) X(coll_##name) X(coll_i##name) X(coll_##name##_init)

#define RELEASE_(f)                          \
    if (m->prev.f##_module) {                \
        OBJ_RELEASE(m->prev.f##_module);     \
    }
#define RELEASE_ALL_(name, Name, family) FORMS_(RELEASE_, name)

static void module_construct(mpicoll_module *m)
{
    memset(&m->prev, 0, sizeof m->prev);
}

static void module_destruct(mpicoll_module *m)
{
    MPICOLL_COLLECTIVES(RELEASE_ALL_)
}

static OBJ_CLASS_INSTANCE(mpicoll_module, mca_coll_base_module_t, module_construct,
                          module_destruct);

/* Where the library served a form, keep its function and module; where it
 * did not, take it neither. */
#define KEEP_(f)                             \
    if (m->prev.f && m->prev.f##_module) {   \
        OBJ_RETAIN(m->prev.f##_module);      \
    } else {                                 \
        m->prev.f##_module = NULL;           \
        m->super.f = NULL;                   \
    }
#define KEEP_ALL_(name, Name, family) FORMS_(KEEP_, name)

static int module_enable(mca_coll_base_module_t *module, struct ompi_communicator_t *comm)
{
    mpicoll_module *m = (mpicoll_module *)module;
    m->prev = *comm->c_coll;
    MPICOLL_COLLECTIVES(KEEP_ALL_)
    return OMPI_SUCCESS;
}

/* Whether Open MPI can describe the datatype t to mpicoll: a predefined
 * one, or one that keeps its constructor's arguments. Open MPI's own
 * internal types (ompio's, as its collective file writes make them) keep
 * none, and MPI_Type_get_envelope raises MPI_ERR_INTERN on them. */
static int describable(MPI_Datatype t)
{
    const ompi_datatype_t *d = t;
    return !d || t == MPI_DATATYPE_NULL || ompi_datatype_is_predefined(d) || d->args;
}

/* Runs the call a in mode m (coll_run), unless the library's own runs
 * it: when mpicoll is busy on this thread (its own collectives), cannot
 * read its datatypes (describable), does not take it (coll_takes), or its checks refuse it (Open MPI's internal calls
 * that skip the MPI layer's checks); and a non-blocking call on a
 * communicator where mpicoll has no state yet. Open MPI's communicator
 * constructors agree on a context id by MPI_Iallreduce calls from inside
 * their progress, where making mpicoll's state (a duplicate, itself a new
 * context id) would wait forever for the constructor it is inside of (as
 * would the runtime's keys, made at the first state: so the state is
 * looked for before coll_takes); and a non-blocking call is local in MPI:
 * one rank may make it while another waits for a message the first sends
 * after it. So mpicoll's state is made by a blocking or persistent call
 * (the settings check, collective on the communicator), and a
 * communicator's non-blocking calls before its first such call are the
 * library's.
 * Returns 1 if mpicoll ran it (its code in *rc), 0 if the library's must. */
static int ours(const coll_args *a, call_mode *m, mpicoll_module *mod, int *rc)
{
    int refused = 0;
    if (runtime_busy() || !describable(a->stype) || !describable(a->rtype))
        return 0;
    switch (coll_again(a, m, rc)) {
    case 1:
        return 1;   /* its last call again */
    case 2:
        return 0;   /* and that one was the library's: the module it displaced */
    }
    comm_state *st = mod->st;
    if (m->req && !m->persistent && !st && (comm_state_find(a->comm, 0, &st) != MPI_SUCCESS || !st))
        return 0;   /* before coll_takes, whose checks may make the runtime's keys */
    if (!coll_takes(a, 0))
        return 0;
    m->refused = &refused;
    m->existing = m->req && !m->persistent;
    *rc = coll_run(a, m);
    if (!mod->st && comm_state_find(a->comm, 0, &st) == MPI_SUCCESS && st)
        comm_state_watch(st, &mod->st);     /* made by this call, or an earlier one */
    return !refused;
}

/* Each collective's three forms, from the list of collectives: the call's
 * coll_args as the API's, with the thread's algorithm if a test named one
 * (api_thread_spec), run by mpicoll or by the module it displaced, with
 * the runtime busy: the collectives that module makes inside its own on
 * the communicator (coll/base's allgatherv: a gatherv and a bcast of an
 * internal datatype) are the library's too. */
#define FORMS_OF_(name, Name, family)                                                      \
    static int blocking_##name(MPICOLL_ARGS_##family, mca_coll_base_module_t *module)      \
    {                                                                                      \
        mpicoll_module *m = (mpicoll_module *)module;                                     \
        const coll_args a = API_COLL_ARGS(name, api_thread_spec(), family);                \
        call_mode now = { .req = NULL, .st = m->st };                                      \
        int rc;                                                                            \
        if (ours(&a, &now, m, &rc))                                                        \
            return rc;                                                                     \
        runtime_enter();                                                                   \
        rc = m->prev.coll_##name(API_ARGS_##family, m->prev.coll_##name##_module);         \
        runtime_leave();                                                                   \
        return rc;                                                                         \
    }                                                                                      \
    static int nb_##name(MPICOLL_ARGS_##family, ompi_request_t **request,                  \
                         mca_coll_base_module_t *module)                                   \
    {                                                                                      \
        mpicoll_module *m = (mpicoll_module *)module;                                     \
        const coll_args a = API_COLL_ARGS(name, api_thread_spec(), family);                \
        int rc;                                                                            \
        if (request_call(&a, 0, m, request, &rc))                                          \
            return rc;                                                                     \
        runtime_enter();                                                                   \
        rc = m->prev.coll_i##name(API_ARGS_##family, request, m->prev.coll_i##name##_module); \
        runtime_leave();                                                                   \
        return rc;                                                                         \
    }                                                                                      \
    static int init_##name(MPICOLL_ARGS_##family, struct ompi_info_t *info,                \
                           ompi_request_t **request, mca_coll_base_module_t *module)       \
    {                                                                                      \
        mpicoll_module *m = (mpicoll_module *)module;                                     \
        const coll_args a = API_COLL_ARGS(name, api_thread_spec(), family);                \
        int rc;                                                                            \
        if (request_call(&a, 1, m, request, &rc))                                          \
            return rc;                                                                     \
        runtime_enter();                                                                   \
        rc = m->prev.coll_##name##_init(API_ARGS_##family, info, request,                  \
                                        m->prev.coll_##name##_init_module);                \
        runtime_leave();                                                                   \
        return rc;                                                                         \
    }
MPICOLL_COLLECTIVES(FORMS_OF_)

#define SET_(name, Name, family)                 \
    m->super.coll_##name = blocking_##name;      \
    m->super.coll_i##name = nb_##name;           \
    m->super.coll_##name##_init = init_##name;

static mca_coll_base_module_t *comm_query(struct ompi_communicator_t *comm, int *priority)
{
    if (comp->priority < 0 || OMPI_COMM_IS_INTER(comm) || runtime_busy())
        return NULL;
    mpicoll_module *m = OBJ_NEW(mpicoll_module);
    if (!m)
        return NULL;
    m->st = NULL;
    m->super.coll_module_enable = module_enable;
    MPICOLL_COLLECTIVES(SET_)
    *priority = comp->priority;
    return &m->super;
}
