/*
 * The one skeleton of every collective's call: the mode it runs in, the
 * communicator's check, the family's own checks, the request, the
 * communicator's state, the family's run, the end of the call
 * (call_finish) and its error raised on the communicator. The family's
 * path (entry.h: entry_path) comes from the list of collectives.
 */
#include "entry.h"
#include "errors.h"
#include "dtype.h"
#include "native.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Each signature family's path (include/mpicoll_collectives.h). */
#define ENTRY_PATH_block blockcoll_path
#define ENTRY_PATH_rooted_block blockcoll_path
#define ENTRY_PATH_reduction veccoll_path
#define ENTRY_PATH_rooted_reduction veccoll_path
#define ENTRY_PATH_bcast veccoll_path
#define ENTRY_PATH_vreduction veccoll_path
#define ENTRY_PATH_vblock vcoll_path
#define ENTRY_PATH_rooted_vblock vcoll_path
#define ENTRY_PATH_vscatter vcoll_path
#define ENTRY_PATH_vexchange vxcoll_path
#define ENTRY_PATH_barrier barrier_path

static const entry_path *path_of(const coll_desc *c)
{
#define PATH_OF_(name, Name, family) &ENTRY_PATH_##family,
    static const entry_path *const paths[NCOLLS] = { MPICOLL_COLLECTIVES(PATH_OF_) };
#undef PATH_OF_
    return c && c->index >= 0 && c->index < NCOLLS ? paths[c->index] : NULL;
}

/* ---- the same call again ------------------------------------------------ */

/* No algorithm named for the call, or "auto" (the same by its text: a
 * program may write another name under the same pointer). */
static int auto_spec(const char *spec)
{
    return !spec || strcmp(spec, "auto") == 0;
}

/* Whether a's call may be kept to run again: blocking or non-blocking
 * (not persistent: that one keeps its plan anyway), every handle
 * predefined (or null), no algorithm named for it, and no log to write
 * per call. A call with arrays of counts is kept with what they hold
 * (memo_counts), and only when the library runs it (call_native). */
static int memo_fits(const coll_args *a, const call_mode *mode)
{
    return !(mode->req && mode->persistent) && auto_spec(a->spec) && !select_verbose() &&
           select_nb(a->coll) == SELECT_MODE_BLOCKING &&
           (a->stype == MPI_DATATYPE_NULL || dt_named_slot(a->stype) >= 0) &&
           (a->rtype == MPI_DATATYPE_NULL || dt_named_slot(a->rtype) >= 0) &&
           (a->op == MPI_OP_NULL || op_is_predefined(a->op));
}

/* The arrays of counts of a that this rank's call reads (a rooted
 * call's at its root; alltoallv's send side unless in place), in arr;
 * returns how many. */
static int significant_counts(const coll_args *a, int me, const int *arr[4])
{
    int n = 0;
    if (a->rcounts && (a->root < 0 || a->root == me)) {
        arr[n++] = a->rcounts;
        if (a->rdispls)
            arr[n++] = a->rdispls;
    }
    if (a->scounts && a->sbuf != MPI_IN_PLACE) {
        arr[n++] = a->scounts;
        arr[n++] = a->sdispls;
    }
    return n;
}

/* What the significant arrays of a hold, kept in mm (store) or compared
 * with what mm kept (returns 1 when the same, or on a call without
 * arrays). Kept: 0 when memory is short. */
static int memo_counts(call_memo *mm, const comm_state *st, const coll_args *a, int store)
{
    if (!a->rcounts && !a->scounts)
        return 1;
    const int *arr[4];
    const size_t p = (size_t)comm_state_size(st);
    const int n = significant_counts(a, comm_state_rank(st), arr);
    if (!store && mm->ncounts != (size_t)n * p)
        return 0;
    if (store && mm->ncounts < (size_t)n * p) {
        int *c = realloc(mm->counts, (size_t)n * p * sizeof *c);
        if (!c)
            return 0;
        mm->counts = c;
    }
    for (int k = 0; k < n; k++) {
        if (store)
            memcpy(mm->counts + (size_t)k * p, arr[k], p * sizeof *arr[k]);
        else if (memcmp(mm->counts + (size_t)k * p, arr[k], p * sizeof *arr[k]) != 0)
            return 0;
    }
    if (store)
        mm->ncounts = (size_t)n * p;
    return 1;
}

static int same_call(const coll_args *x, const coll_args *y)
{
    return x->coll == y->coll && !x->spec == !y->spec && x->sbuf == y->sbuf &&
           x->scount == y->scount && x->stype == y->stype && x->rbuf == y->rbuf &&
           x->rcount == y->rcount && x->rtype == y->rtype && x->rcounts == y->rcounts &&
           x->rdispls == y->rdispls && x->scounts == y->scounts && x->sdispls == y->sdispls &&
           x->op == y->op && x->root == y->root && x->comm == y->comm;
}

/* The slot of a's collective's memo of the form (a request or not) in a
 * state's memo[], or -1. A program that alternates the blocking and the
 * non-blocking call (OSU's osu_ibarrier: MPI_Ibarrier, then MPI_Barrier)
 * keeps both. */
static int memo_index(const coll_args *a, int request)
{
    return 2 * a->coll->index + !!request;
}

static call_memo *memo_of(const comm_state *st, const coll_args *a, const call_mode *mode)
{
    call_memo *mm = st->memo[memo_index(a, mode && mode->req)];
    if (!mm || !mm->valid || mm->epoch != st->memo_epoch || !same_call(&mm->a, a) ||
        !memo_counts(mm, st, a, 0))
        return NULL;
    return mm;
}

/* The kept call that a is again (call_memo), in the same form (mode; NULL:
 * either), with its communicator's state in *stp: the same arguments, all
 * of them fixed objects or addresses, give the same checks, choice, plan
 * and views. NULL otherwise. */
static call_memo *memo_hit(const coll_args *a, const call_mode *mode, comm_state **stp)
{
    comm_state *st = mode ? mode->st : NULL;
    if ((mode && mode->req && mode->persistent) || !auto_spec(a->spec) || a->comm == MPI_COMM_NULL ||
        (!st && (comm_state_find(a->comm, 0, &st) != MPI_SUCCESS || !st)))
        return NULL;
    req_t *some = NULL;
    const call_mode request = { .req = &some };
    call_memo *mm = memo_of(st, a, mode);
    if (!mm && !mode)
        mm = memo_of(st, a, &request);
    if (mm)
        *stp = st;
    return mm;
}

/* Before a call that is not its collective's last one again in its form:
 * that one is forgotten, and this one armed, if it fits, for call_launch
 * to keep. */
static void memo_arm(comm_state *st, const coll_args *a, const call_mode *mode)
{
    const int i = memo_index(a, mode->req != NULL);
    st->armed = NULL;
    if (st->memo[i]) {
        st->memo[i]->valid = 0;
        call_memo_unpark(st->memo[i], st);
    }
    if (!memo_fits(a, mode))
        return;
    if (!st->memo[i] && !(st->memo[i] = calloc(1, sizeof *st->memo[i])))
        return;
    if (!memo_counts(st->memo[i], st, a, 1))
        return;
    st->memo[i]->a = *a;
    st->armed = st->memo[i];
}

int coll_entry(const coll_args *a, const call_mode *mode)
{
    return mpicoll_raise(a->comm, coll_run(a, mode));
}

int coll_again(const coll_args *a, const call_mode *mode, int *rc)
{
    comm_state *st;
    call_memo *mm = memo_hit(a, mode, &st);
    if (!mm)
        return 0;
    st->last_algo = mm->algo;   /* what this call chose, for mpicoll_last_choice */
    memcpy(st->last_params, mm->params, sizeof st->last_params);
    if (mm->native)
        return 2;               /* the library's own, as the last time: the caller's */
    runtime_enter();
    st->armed = NULL;
    if (!mode->req) {           /* the last call again: its ready call runs */
        const call_mode now = { .req = NULL };
        *rc = call_launch(&now, &mm->call);
    } else {                    /* or starts, with its plan if still idle */
        *mode->req = NULL;
        *rc = call_again(mode, mm);
    }
    runtime_leave();
    if (*rc == -1)
        return 0;
    if (*rc != MPI_SUCCESS)
        mm->valid = 0;
    return 1;
}

int coll_again_kind(const coll_args *a, const call_mode *mode)
{
    comm_state *st;
    const call_memo *mm = memo_hit(a, mode, &st);
    if (!mm)
        return 0;
    if (!mm->native)
        return 1;
    st->last_algo = mm->algo;
    memcpy(st->last_params, mm->params, sizeof st->last_params);
    return 2;
}

int coll_run(const coll_args *a, const call_mode *mode)
{
    const entry_path *path = path_of(a->coll);
    req_t *nbreq = NULL;
    call_mode nb = { .req = &nbreq };
    comm_state *st = NULL;
    int p, me, rc;
    switch (coll_again(a, mode, &rc)) {
    case 1:
        return rc;
    case 2:
        if (!mode->req)
            return call_native_again(a);
        break;  /* a request its front end starts itself: not this one's */
    }
    runtime_enter();
    mode = call_mode_for(a->coll, a->spec, mode, &nb);
    CHECK(path ? MPI_SUCCESS : MPI_ERR_INTERN);
    CHECK(check_comm(a->comm));
    PMPI_Comm_size(a->comm, &p);
    PMPI_Comm_rank(a->comm, &me);
    if (path->check && (rc = path->check(a, p, me)) != MPI_SUCCESS) {
        if (mode->refused)
            *mode->refused = 1;
        goto out;
    }
    CHECK(comm_state_find(a->comm, !mode->existing, &st));
    if (!st) {      /* mode->existing: handed back, as a refusal */
        if (mode->refused)
            *mode->refused = 1;
        else
            rc = MPI_ERR_INTERN;
        goto out;
    }
    memo_arm(st, a, mode);
    if (mode->req)
        CHECK(request_new(mode));
    CHECK(path->run(a, mode, st));
out:
    if (st) {
        st->armed = NULL;
        const int i = memo_index(a, mode->req != NULL);
        if (rc != MPI_SUCCESS && i >= 0 && st->memo[i])
            st->memo[i]->valid = 0;
    }
    rc = call_finish(mode, &nb, rc);
    runtime_leave();
    return rc;
}

int coll_supported(const coll_args *a)
{
    const entry_path *path = path_of(a->coll);
    return path && (!path->supported || path->supported(a));
}

int coll_takes(const coll_args *a, int quiet)
{
    int inter = 0, rank = 0;
    comm_state *st;
    if (memo_hit(a, NULL, &st))
        return 1;   /* its last call again: taken then */
    runtime_enter();    /* the support checks may ask the library (a collective of its own) */
    const int supported = coll_supported(a);
    runtime_leave();
    if (a->comm == MPI_COMM_NULL)
        return supported;                   /* the checks report it */
    if (PMPI_Comm_test_inter(a->comm, &inter) != MPI_SUCCESS)
        return 0;                           /* an invalid communicator: MPI reports it */
    if (!inter && supported)
        return 1;
    PMPI_Comm_rank(a->comm, &rank);
    if (!quiet && select_verbose() && rank == 0)
        fprintf(stderr, "mpicoll: %s native MPI collective (%s)\n", a->coll->name,
                inter ? "intercommunicator" : "datatype or operation left to the MPI library");
    return 0;
}
