/*
 * bcast: knomial
 *
 * What:    a k-nomial tree from the root (ranks relative to the root): in
 *          round j, with d = k^j, each rank that holds the data (relative
 *          ranks below d) sends it to relative ranks rel + d, rel + 2d, ...,
 *          rel + (k-1)d (those below p), the k - 1 messages in flight
 *          together. A rank's parent is its relative rank with its leading
 *          base-k digit cleared. k = 2 is binomial, message for message;
 *          k >= p sends to every rank in one round.
 * Paper:   MPICH's MPIR_Bcast_intra_tree (knomial tree, kval k); UCC's
 *          knomial bcast. Open MPI's knomial (4.1's id 7, radix 4 by
 *          default) uses a tree of this shape with the ranks labelled the
 *          other way (a parent clears the lowest non-zero digit: the
 *          root's first children are the farthest ones) and pipelines
 *          segments down it, so this one does not take its id. far=1
 *          labels it that way (pat_bcast_knomial_far; MPICH's binomial
 *          bcast is k = 2 of it): in round j, with d = k^(L-1-j), the
 *          holders (multiples of k·d) send to rel + d, ..., rel + (k-1)d,
 *          so that on nodes of consecutive ranks the messages that leave a
 *          node go first, one a node, where the default's last rounds send
 *          off every node from many of its ranks at once.
 * Steps:   ceil(log_k p).
 * Cost:    ceil(log_k p)·(k - 1)(α + nβ)   (n = buffer bytes; the k - 1
 *          messages of a round leave the same rank, in flight together)
 * Limits:  none: any p, any root. Parameters k >= 2 (default 4), far 0
 *          or 1 (default 0).
 * Memory:  none.
 * Example: mpicoll show bcast knomial:k=3 --np 5 --compact
 *          (columns: ranks; rows: bytes of the buffer after each round;
 *          r = rank r's byte, . = not there yet)
 *   round  0       1
 *   rank   01234   01234
 *   0      000..   00000
 */
#include "bcast_algos.h"

void bcast_knomial(plan *pl, const plan_args *a)
{
    const int root = a->rank == a->root;
    if (root)
        plan_copy(pl, BUF_SEND, 0, BUF_RECV, 0, a->block);   /* nothing when in place */
    (a->param[1] ? pat_bcast_knomial_far : pat_bcast_knomial)(
        pl, a->p, a->rank, a->root, a->param[0], root ? BUF_SEND : BUF_RECV, 0, a->block);
}
