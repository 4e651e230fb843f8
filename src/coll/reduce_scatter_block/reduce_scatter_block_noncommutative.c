/*
 * reduce_scatter_block: noncommutative
 *
 * What:    MPICH's recursive halving for any operation. The vector goes
 *          to scratch with its blocks in bit-reversed order (block i at
 *          position bitrev(i) over log2 pof2 bits); at step s = 0, 1, ...
 *          a rank exchanges with rank XOR 2^s: the lower rank keeps the
 *          lower half of its range of positions, the upper rank the upper
 *          half, each sends the other half and reduces what it receives,
 *          the lower rank's part on the left. Each step joins two adjacent
 *          ranges of ranks, so the operation's order holds; the largest
 *          halves go to the nearest ranks (distance 1, 2, 4, ...), inside
 *          a node of consecutive ranks, where recursive_halving sends half
 *          the vector across the whole communicator first; and the blocks
 *          kept are always one range, rank r's own at the end. Any p by
 *          MPICH's fold (as recursive_halving and bine: pat_rs_placed,
 *          with bine's plans but for the order and the peers); rank r's
 *          block is args_count(a, r) bytes at args_displ(a, r):
 *          reduce_scatter's noncommutative is this builder.
 * Paper:   Thakur, Rabenseifner & Gropp, IJHPCA 2005; MPICH's
 *          MPIR_Reduce_scatter_block_intra_noncommutative (powers of two).
 * Steps:   log2(pof2), plus 2 when p is not a power of two (and one round
 *          of local copies before the first step).
 * Cost:    log2(pof2)α + ((pof2 - 1)/pof2)(nβ + nγ), plus 2α + (n + b)β + nγ
 *          when p is not a power of two   (n = p·b)
 * Limits:  none (any operation, any p).
 * Memory:  n bytes of scratch plus the part received at the first step
 *          (n/2 on a power of two), 2n on the odd ranks of the fold's
 *          pairs; while the plan is built, pof2 ints and pof2 + 1 offsets.
 * Example: mpicoll show reduce_scatter_block noncommutative --np 5 --compact
 *          (columns: ranks; rows: the vector's elements after each round; k =
 *          how many ranks' contributions the rank holds in the element)
 *   round  0       1       2       3       4
 *   rank   01234   01234   01234   01234   01234
 *   0      12111   12121   13121   15121   55121
 *   1      12111   12121   13121   15121   15121
 *   2      12111   12112   12312   12512   12512
 *   3      12111   12121   13121   13151   13151
 *   4      12111   12112   12312   12315   12315
 */
#include "reduce_scatter_block_algos.h"

/* order[i] = i with its log2 pof2 bits reversed */
static void bit_reversed(int pof2, int *order)
{
    for (int i = 0; i < pof2; i++) {
        int v = 0;
        for (int b = 1, t = pof2 >> 1; b < pof2; b <<= 1, t >>= 1)
            if (i & b)
                v |= t;
        order[i] = v;
    }
}

static int xor_peer(int nr, int s, int pof2)
{
    (void)pof2;
    return nr ^ (1 << s);
}

void reduce_scatter_block_noncommutative(plan *pl, const plan_args *a)
{
    pat_rs_placed(pl, a, bit_reversed, xor_peer, 1);
}
