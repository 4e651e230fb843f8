/*
 * Shared machinery of the MPI tests of the vector collectives; see
 * vec_check.h. The cases and their values are in vec_cases.c.
 */
#include "vec_check.h"
#include "vec_cases.h"
#include "block_check.h" /* bc_split_comm, bc_world_*, bc_fail_line, bc_fault */
#include "yield_wait.h"

#include <mpicoll.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    GUARD = 64,        /* sentinel bytes before and after the receive buffer */
    BIG = 100003       /* the largest count of the matrix */
};

static const char *coll_name = "allreduce";

const char *vc_coll_name(enum vc_coll coll)
{
    static const char *const names[] = { "allreduce", "reduce", "bcast",
                                         "reduce_scatter_block", "reduce_scatter", "scan",
                                         "exscan" };
    return names[coll];
}

#define fail_line(...) bc_fail_line(coll_name, __VA_ARGS__)

/* ---- one call ------------------------------------------------------------------ */

static void prefix(char *out, size_t len, const struct vc_call *v, int rank, int p)
{
    const struct vcase *c = &vc_cases[v->case_index];
    char root[32] = "-";
    if (v->root >= 0)
        snprintf(root, sizeof root, "%d", v->root);
    snprintf(out, len, "FAIL %s: algorithm=%s%s%s%s%s np=%d comm=%s(size=%d) case=%s (%s %s)"
             " count=%d inplace=%d root=%s rank=%d world_rank=%d:", coll_name, v->algo_label,
             v->spec ? " (mpicoll_" : "", v->spec ? coll_name : "", v->spec ? "_with)" : "",
             bc_context(), bc_world_size(),
             v->comm_label, p, c->name, c->l->name, v->coll == VC_BCAST ? "-" : vc_op_name(c->op),
             v->n, v->inplace, root, rank, bc_world_rank());
}

/* What the receive image (GUARD bytes, nbytes of buffer, GUARD bytes) must
 * hold after the call: the first n1 elements the wanted data (want: n1
 * elements over sentinels, vc_image), compared (mask vc_mark(.., 1)); the
 * next n0 elements undefined (vc_mark(.., 0): only their gaps must keep the
 * sentinel); every other byte the sentinel. The mask of the byte is the
 * element's (pat[1], pat[0]: one element's mask), and it is the same image
 * and mask byte for byte as a whole-buffer mask of vc_mark would be. */
struct want {
    const struct vcase *c;
    const unsigned char *data;  /* n1 elements */
    size_t ext, is, n1end, n0end, nbytes;  /* n1end, n0end: byte offsets in recvbuf */
    unsigned char pat[2][VC_MAX_EXT];
    /* per pattern: the runs of bytes that are not M_PAD (start, length) */
    size_t runs[2][VC_MAX_EXT][2];
    int nruns[2];
};

static unsigned char sentinels[4096];   /* VC_SENTINEL (want_init) */

static unsigned char mask_at(const struct want *w, size_t b)
{
    size_t off = b - GUARD;
    if (b < GUARD || off >= w->n0end)
        return M_KEEP;
    return w->pat[off < w->n1end][off % w->ext];
}

/* The wanted byte b (the sentinel outside the data). */
static const unsigned char *want_at(const struct want *w, size_t b)
{
    size_t off = b - GUARD;
    return b >= GUARD && off < w->n1end ? w->data + off : sentinels;
}

static void want_init(struct want *w, const struct vcase *c, const unsigned char *data,
                      size_t n1, size_t n0, size_t nbytes)
{
    if (sentinels[0] != VC_SENTINEL)
        memset(sentinels, VC_SENTINEL, sizeof sentinels);
    w->c = c;
    w->data = data;
    w->ext = vc_ext_bytes(c);
    w->is = vc_isize(c->kind);
    w->n1end = n1 * w->ext;
    w->n0end = (n1 + n0) * w->ext;
    w->nbytes = nbytes;
    for (int d = 0; d < 2; d++) {
        vc_mark(w->pat[d], c, 1, d);
        w->nruns[d] = 0;
        for (size_t b = 0; b < w->ext; b++) {
            if (w->pat[d][b] == M_PAD)
                continue;
            if (b > 0 && w->pat[d][b - 1] != M_PAD) {
                w->runs[d][w->nruns[d] - 1][1]++;
            } else {
                w->runs[d][w->nruns[d]][0] = b;
                w->runs[d][w->nruns[d]][1] = 1;
                w->nruns[d]++;
            }
        }
    }
}

/* got[0..len) equals want (NULL: the sentinel). */
static int same(const unsigned char *got, const unsigned char *want, size_t len)
{
    if (want)
        return memcmp(got, want, len) == 0;
    for (size_t at = 0; at < len; at += sizeof sentinels) {
        size_t k = len - at < sizeof sentinels ? len - at : sizeof sentinels;
        if (memcmp(got + at, sentinels, k) != 0)
            return 0;
    }
    return 1;
}

/* Whether elements [e0, e1) of one mask pattern d (want: their wanted bytes,
 * NULL: sentinels) are right for certain: every byte but the padding as
 * wanted (exact items equal, inexact ones within any tolerance). */
static int clean(const struct want *w, int d, const unsigned char *got,
                 const unsigned char *want, size_t e0, size_t e1)
{
    const size_t ext = w->ext;
    if (w->nruns[d] == 1 && w->runs[d][0][1] == ext)  /* no padding: one block */
        return same(got + e0 * ext, want ? want + e0 * ext : NULL, (e1 - e0) * ext);
    for (size_t e = e0; e < e1; e++)
        for (int r = 0; r < w->nruns[d]; r++) {
            size_t at = e * ext + w->runs[d][r][0];
            if (!same(got + at, want ? want + at : NULL, w->runs[d][r][1]))
                return 0;
        }
    return 1;
}

/* Compares the receive image (GUARD bytes, nbytes of buffer, GUARD bytes)
 * with w; one FAIL line for the first wrong place. Byte by byte where a
 * block of elements is not all as wanted (the test's mask, the first wrong
 * place, the count of wrong places), one memcmp where it is. */
static int compare(const char *pre, const struct want *w, const unsigned char *got)
{
    const struct vcase *c = w->c;
    const size_t nbytes = w->nbytes, total = nbytes + 2 * GUARD, is = w->is, ext = w->ext;
    const size_t chunk = 4096 / ext > 0 ? 4096 / ext : 1;   /* elements */
    size_t first = total, nwrong = 0;
    char where[160], exp[128], act[128];
    /* the blocks: the guard before, the compared elements, the undefined
     * ones, the rest of the buffer and the guard after */
    size_t at = 0;

    while (at < total) {
        size_t end;
        if (at < GUARD) {
            end = GUARD;
            if (same(got, NULL, GUARD)) {
                at = end;
                continue;
            }
        } else if (at - GUARD < w->n0end) {
            const int d = at - GUARD < w->n1end;
            const size_t e = (at - GUARD) / ext, elast = (d ? w->n1end : w->n0end) / ext;
            const size_t e1 = elast - e < chunk ? elast : e + chunk;
            end = GUARD + e1 * ext;
            if (clean(w, d, got + GUARD, d ? w->data : NULL, e, e1)) {
                at = end;
                continue;
            }
        } else {
            end = total;
            if (same(got + at, NULL, total - at))
                break;
        }
        for (size_t b = at; b < end; b++) {
            const unsigned char mk = mask_at(w, b);
            int bad;
            if (mk == M_KEEP)
                bad = got[b] != VC_SENTINEL;
            else if (mk == M_DATA && (b - GUARD) % is == 0)
                bad = !vc_item_equal(c, got + b, want_at(w, b)); /* the first byte of an item */
            else
                continue;
            if (bad) {
                if (first == total)
                    first = b;
                nwrong++;
            }
        }
        at = end;
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
        if (k < 0 || mask_at(w, first) == M_KEEP)
            snprintf(where, sizeof where, "element %zu, gap at byte %zu of the element", e,
                     off % ext);
        else
            snprintf(where, sizeof where, "element %zu, item %d (basic item %zu)", e, k,
                     e * (size_t)c->l->ndata + (size_t)k);
    }
    if (mask_at(w, first) == M_KEEP) {
        snprintf(exp, sizeof exp, "the sentinel 0x%02x", VC_SENTINEL);
        snprintf(act, sizeof act, "0x%02x", got[first]);
    } else {
        vc_describe(exp, sizeof exp, c, want_at(w, first));
        vc_describe(act, sizeof act, c, got + first);
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

/* n elements of rank src's vector (src < 0: the reduction) from element
 * e0 over `fill`: the cache's image, else one made in *own (freed by the
 * caller). NULL if out of memory. */
static const unsigned char *image(const struct vcase *c, int p, int src, size_t e0, size_t n,
                                  unsigned char fill, unsigned char **own)
{
    const size_t size = vc_ext_bytes(c) * n;
    const unsigned char *img = vc_image(c, p, src, e0, n, fill);
    if (img)
        return img;
    *own = malloc(size + 1);
    if (!*own)
        return NULL;
    memset(*own, fill, size);
    vc_place(*own, c, p, src, e0, n);
    return *own;
}

int vc_run(const struct vc_call *v)
{
    const struct vcase *c = &vc_cases[v->case_index];
    const size_t ext = vc_ext_bytes(c), n = (size_t)v->n;
    const MPI_Op op = v->coll == VC_BCAST ? MPI_OP_NULL : vc_mpi_op(c->op);
    int rank, p, err = MPI_SUCCESS, failed = 1;
    size_t sn, rn, rbytes, total;   /* send / receive elements */
    size_t n1 = n, n0 = 0;          /* elements compared, undefined after */
    unsigned char *sbuf = NULL, *rraw = NULL, *own[3] = { NULL, NULL, NULL };
    const unsigned char *sref = NULL, *rinit = NULL, *wdata = NULL;
    unsigned char *root_copy = NULL;
    char pre[512];
    void *rbuf;
    int is_root, send_used, placed;
    struct want w;

    MPI_Comm_rank(v->comm, &rank);
    MPI_Comm_size(v->comm, &p);
    prefix(pre, sizeof pre, v, rank, p);
    is_root = v->root < 0 || rank == v->root;
    vc_image_epoch();

    /* sizes: the receive buffer holds what MPI says it holds at entry in
     * place (p blocks for reduce_scatter_block) */
    /* reduce_scatter: rank r's block rcounts[r] elements, at offset[r] of
     * the vector (rank order) */
    int *rcounts = NULL;
    size_t rs_all = 0, rs_off = 0;
    if (v->coll == VC_REDUCE_SCATTER) {
        if (!(rcounts = malloc((size_t)p * sizeof *rcounts))) {
            fail_line("%s test setup: out of memory\n", pre);
            return 1;
        }
        for (int r = 0; r < p; r++) {
            rcounts[r] = v->n * ((r + 1) % 3);
            rs_off += r < rank ? (size_t)rcounts[r] : 0;
            rs_all += (size_t)rcounts[r];
        }
        n1 = (size_t)rcounts[rank];
    }
    sn = v->coll == VC_REDUCE_SCATTER_BLOCK ? (size_t)p * n
       : v->coll == VC_REDUCE_SCATTER ? rs_all : n;
    rn = v->coll == VC_REDUCE_SCATTER_BLOCK && v->inplace ? (size_t)p * n
       : v->coll == VC_REDUCE_SCATTER ? (v->inplace ? rs_all : n1) : n;
    rbytes = rn * ext;
    total = rbytes + 2 * GUARD;
    /* the send buffer is the collective's (and checked after) unless in
     * place at this rank; bcast has none */
    send_used = v->coll != VC_BCAST && !(v->inplace && is_root);
    placed = v->coll == VC_BCAST ? rank == v->root : v->inplace && is_root;

    /* The images: send data (one more byte of VC_SEND_GAP past it), the
     * receive buffer at entry, and what it must hold after, the same for
     * every algorithm (vc_image's cache). Taken before any buffer. */
    if (send_used)
        sref = image(c, p, rank, 0, sn, VC_SEND_GAP, &own[0]);
    if (placed)
        rinit = image(c, p, v->coll == VC_BCAST ? v->root : rank, 0, rn, VC_SENTINEL, &own[1]);
    switch (v->coll) {
    case VC_ALLREDUCE:
        wdata = image(c, p, -1, 0, n, VC_SENTINEL, &own[2]);
        break;
    case VC_REDUCE:
        if (is_root) {
            wdata = image(c, p, -1, 0, n, VC_SENTINEL, &own[2]);
        } else {
            wdata = sentinels;  /* none: every byte must keep the sentinel */
            n1 = 0;
        }
        break;
    case VC_BCAST:
        wdata = image(c, p, v->root, 0, n, VC_SENTINEL, &own[2]);
        break;
    case VC_REDUCE_SCATTER_BLOCK:
        wdata = image(c, p, -1, (size_t)rank * n, n, VC_SENTINEL, &own[2]);
        n0 = rn - n;  /* in place: the other blocks' data is undefined after */
        break;
    case VC_REDUCE_SCATTER:
        wdata = n1 ? image(c, p, -1, rs_off, n1, VC_SENTINEL, &own[2]) : sentinels;
        n0 = rn - n1;  /* in place: the other blocks' data is undefined after */
        break;
    case VC_SCAN:
        wdata = image(c, p, VC_PREFIX(rank), 0, n, VC_SENTINEL, &own[2]);
        break;
    case VC_EXSCAN:
        if (rank > 0) {
            wdata = image(c, p, VC_PREFIX(rank - 1), 0, n, VC_SENTINEL, &own[2]);
        } else if (placed) {
            wdata = image(c, p, rank, 0, n, VC_SENTINEL, &own[2]);  /* its input, untouched */
        } else {
            wdata = sentinels;  /* undefined, and untouched */
            n1 = 0;
        }
        break;
    }
    want_init(&w, c, wdata, n1, n0, rbytes);

    sbuf = send_used ? malloc(sn * ext + 1) : NULL;
    rraw = malloc(total);
    if ((send_used && !sbuf) || !rraw || (send_used && !sref) || (placed && !rinit) || !wdata) {
        fail_line("%s test setup: out of memory\n", pre);
        goto out;
    }
    rbuf = rraw + GUARD;

    /* send data */
    if (send_used) {
        memcpy(sbuf, sref, sn * ext);
        sbuf[sn * ext] = VC_SEND_GAP;
    }

    /* the receive buffer at entry */
    memset(rraw, VC_SENTINEL, GUARD);
    if (placed)
        memcpy(rbuf, rinit, rbytes);
    else
        memset(rbuf, VC_SENTINEL, rbytes);
    memset(rraw + GUARD + rbytes, VC_SENTINEL, GUARD);

    switch (v->coll) {
    case VC_ALLREDUCE:
        err = mpicoll_allreduce_with(v->spec, v->inplace ? MPI_IN_PLACE : sbuf, rbuf, v->n,
                                     c->l->type, op, v->comm);
        break;
    case VC_REDUCE:
        err = mpicoll_reduce_with(v->spec, v->inplace && is_root ? MPI_IN_PLACE : sbuf, rbuf,
                                  v->n, c->l->type, op, v->root, v->comm);
        break;
    case VC_BCAST:
        err = mpicoll_bcast_with(v->spec, rbuf, v->n, c->l->type, v->root, v->comm);
        break;
    case VC_REDUCE_SCATTER_BLOCK:
        err = mpicoll_reduce_scatter_block_with(v->spec, v->inplace ? MPI_IN_PLACE : sbuf, rbuf,
                                                v->n, c->l->type, op, v->comm);
        break;
    case VC_REDUCE_SCATTER:
        err = mpicoll_reduce_scatter_with(v->spec, v->inplace ? MPI_IN_PLACE : sbuf, rbuf,
                                          rcounts, c->l->type, op, v->comm);
        break;
    case VC_SCAN:
        err = mpicoll_scan_with(v->spec, v->inplace ? MPI_IN_PLACE : sbuf, rbuf, v->n,
                                c->l->type, op, v->comm);
        break;
    case VC_EXSCAN:
        err = mpicoll_exscan_with(v->spec, v->inplace ? MPI_IN_PLACE : sbuf, rbuf, v->n,
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
        /* tested and yielding: MPICH's blocking calls spin, and with 8
         * ranks on 2 cores the root may need this rank's core */
        MPI_Request req;
        yield_wait(MPI_Ibcast(root_copy, (int)rbytes, MPI_BYTE, 0, v->comm, &req), &req);
    }

    if (err != MPI_SUCCESS) {
        report_error(pre, err);
        goto out;
    }
    if (vc_usersum_bad_type) {
        vc_usersum_bad_type = 0;
        fail_line("%s the user operation was called with a datatype of neither derived"
                  " type's extent\n", pre);
        goto out;
    }
    if (v->expect_algo && v->n > 0 && (vc_op_commutative(c->op) || !v->expect_commutative)
        && bc_check_choice(coll_name, pre, v->comm, v->expect_algo))
        goto out;
    /* a test build's injected fault (tests/sweep): the first item of the
     * result, where this rank has one */
    if (bc_fault && n1 > 0 && (v->coll != VC_REDUCE || is_root)
        && (v->coll != VC_EXSCAN || rank > 0))
        bc_fault(coll_name, v->spec,
                 (unsigned char *)rbuf + (size_t)c->l->offs[0] * vc_isize(c->kind),
                 vc_dsize(c->kind));
    if (compare(pre, &w, rraw))
        goto out;
    if (root_copy) {
        for (size_t e = 0; e < n; e++)
            for (int k = 0; k < c->l->ndata; k++) {
                size_t at = e * ext + (size_t)c->l->offs[k] * vc_isize(c->kind);
                if (memcmp((unsigned char *)rbuf + at, root_copy + at, vc_dsize(c->kind))) {
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
    /* the send buffer must come back unchanged, the byte past it too */
    if (send_used && (memcmp(sbuf, sref, sn * ext) != 0 || sbuf[sn * ext] != VC_SEND_GAP)) {
        size_t i = 0;
        while (i < sn * ext && sbuf[i] == sref[i])
            i++;
        fail_line("%s the send buffer was modified at byte %zu (0x%02x -> 0x%02x)\n", pre, i,
                  i < sn * ext ? sref[i] : VC_SEND_GAP, sbuf[i]);
        goto out;
    }
    failed = 0;
out:
    fflush(stdout);
    free(sbuf);
    free(rraw);
    for (int i = 0; i < 3; i++)
        free(own[i]);
    free(root_copy);
    free(rcounts);
    return failed;
}

/* ---- the matrix ------------------------------------------------------------------ */

/* Appends x to list[0..*n) unless there. */
static void add_unique(int *list, int *n, int x)
{
    for (int i = 0; i < *n; i++)
        if (list[i] == x)
            return;
    list[(*n)++] = x;
}

/* Through the MPI_ entry points (coll_sweep_via: SWEEP_VIA_MPI), the cases
 * that the MPI library's own argument checks refuse before any collective
 * runs: Open MPI's MPI layer takes a predefined operation on predefined
 * types only (MPI_ERR_OP), where mpicoll's API takes it on a derived type
 * of one predefined type too. */
static int via_mpi_refuses(const struct vcase *c)
{
#ifdef SWEEP_VIA_MPI
    int ni, na, nd, combiner;
    MPI_Type_get_envelope(c->l->type, &ni, &na, &nd, &combiner);
    return c->op != O_MATMUL && c->op != O_USERSUM && combiner != MPI_COMBINER_NAMED;
#else
    (void)c;
    return 0;
#endif
}

int vc_run_comm(const struct vc_call *base, int big, int quick, int *calls)
{
    const enum vc_coll coll = base->coll;
    int p, rank, counts[8], ncounts = 0, roots[3], nroots = 0, nfailed = 0;
    MPI_Comm_size(base->comm, &p);
    MPI_Comm_rank(base->comm, &rank);

    if (coll == VC_REDUCE_SCATTER_BLOCK || coll == VC_REDUCE_SCATTER) {
        static const int rc[] = { 0, 1, 3, 1000 };
        for (int i = 0; i < (quick ? 3 : 4); i++)
            add_unique(counts, &ncounts, rc[i]);
    } else {
        const int ac[] = { 0, 1, 3, p - 1, p + 1, 1000, BIG };
        for (int i = 0; i < (quick ? 5 : big ? 7 : 6); i++)
            add_unique(counts, &ncounts, ac[i]);
    }
    if (coll == VC_REDUCE || coll == VC_BCAST) {
        add_unique(roots, &nroots, 0);
        add_unique(roots, &nroots, p - 1);
        add_unique(roots, &nroots, p / 2);
    } else {
        roots[nroots++] = -1;
    }

    for (int ci = 0; ci < vc_ncases; ci++) {
        const struct vcase *c = &vc_cases[ci];
        if (via_mpi_refuses(c))
            continue;
        const int full = c->main && !((coll == VC_REDUCE_SCATTER_BLOCK ||
                                       coll == VC_REDUCE_SCATTER) && ci >= VC_NCASES_RSB_MAIN);
        for (int k = 0; k < (full ? ncounts : 1); k++)
            for (int ri = 0; ri < nroots; ri++)
                for (int inplace = 0; inplace < (coll == VC_BCAST ? 1 : 2); inplace++) {
                    struct vc_call v = *base;
                    v.case_index = ci;
                    v.n = full ? counts[k] : p + 1;
                    v.inplace = inplace;
                    v.root = roots[ri];
                    nfailed += vc_run(&v);
                    *calls += rank == 0;
                }
    }
    return nfailed;
}

int vc_coll_from_name(const char *name)
{
    for (int i = 0; i < VC_NCOLLS; i++)
        if (name && strcmp(name, vc_coll_name((enum vc_coll)i)) == 0)
            return i;
    return -1;
}

int vc_setup(enum vc_coll coll)
{
    coll_name = vc_coll_name(coll);
    return vc_types_create(coll_name);
}

void vc_teardown(void)
{
    vc_types_free();
}

int vc_matrix_main(int argc, char **argv)
{
    int ci = argc >= 2 ? vc_coll_from_name(argv[1]) : -1, rank, np, app = 1;
    int t[2] = { 0, 0 }, sum[2];  /* calls, failed checks (summed over ranks) */
    char env[64];
    const char *forced, *algo;
    double t0;
    MPI_Comm split;

    if (ci < 0) {
        fprintf(stderr, "usage: %s allreduce|reduce|bcast|reduce_scatter_block|reduce_scatter|"
                "scan|exscan\n", argv[0]);
        return 2;
    }
    coll_name = vc_coll_name((enum vc_coll)ci);
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
    t[1] = vc_setup((enum vc_coll)ci);
    split = bc_split_comm();
    t0 = MPI_Wtime();

    /* BIG on MPI_COMM_WORLD only: it is most of the run time */
    {
        struct vc_call base = { .coll = (enum vc_coll)ci, .algo_label = algo,
                                .comm = MPI_COMM_WORLD, .comm_label = "world", .root = -1 };
        t[1] += vc_run_comm(&base, 1, 0, &t[0]);
        base.comm = split;
        base.comm_label = "split";
        t[1] += vc_run_comm(&base, 0, 0, &t[0]);
    }

    /* The verdict goes through the native MPI, not the library under test. */
    MPI_Reduce(t, sum, 2, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (forced && *forced)
        app = mpicoll_algorithm_applicable(coll_name, forced, np);
    if (rank == 0)
        printf("test_reduction %s: algorithm=%s%s np=%d calls=%d failures=%d (%.1f s)\n",
               coll_name, algo, app == 1 ? "" : app == 0 ? " (not applicable at this np: its"
               " fallback ran)" : " (not a valid spec)", np, sum[0], sum[1],
               MPI_Wtime() - t0);
    MPI_Bcast(&sum[1], 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Comm_free(&split);
    vc_teardown();
    MPI_Finalize();
    return sum[1] ? 1 : 0;
}
