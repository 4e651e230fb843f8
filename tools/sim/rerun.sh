#!/usr/bin/env bash
# Re-run the simulations behind tools/sim/results/ and docs/scale.md's tables.
#
#   tools/sim/rerun.sh -l                 list the result names and their commands
#   tools/sim/rerun.sh [-n] NAME|GROUP...  re-run them (-n: print the commands only)
#
# NAME is a result file's stem (allgather-flat-np256: tools/sim/results/
# allgather-flat-np256.csv and .txt); GROUP is a pass of
# docs/results/scale-history.md: pass1 (np 16 and 64), pass2 (np 256 subsets,
# np 1024 on flat), pass3, pass4, radix (recursive_multiplying at 256 ranks,
# not in results/ before), pass5 (recursive_multiplying at every np; auto
# under the rules across nodes), pass6 (bcast and reduce at 16, 64 and 256
# ranks, and auto under their rules across nodes; bcast's
# scatter_allgather_rd), pass7 (the newest algorithms: k_bruck:k=8, swing
# and bine), pass8 (reduce's k-nomial tree with preposted
# receives, alltoall's multi-port radix Bruck), pass9 (the newest algorithms
# on the torus and the dragonfly; allgather bine), pass10 (allgather's
# recursive_multiplying), pass11 (the torus and the dragonfly: SimGrid's
# built-ins, reduce and 64 KiB at 1024 ranks), pass12 (reduce_scatter_block
# on the four networks), pass13 (allreduce's recursive_multiplying with its
# messages in rotated order), pass14 (the ten collectives the drop-in gained,
# across nodes), pass15 (2 to 15 ranks across nodes, in results/small/: every
# algorithm, then auto under the rules fitted to them), pass16 (bcast and
# reduce at 1024 ranks of flat and the fat tree), pass17 (reduce_scatter's
# ring, bine and recursive_multiplying; both reduce-scatters on 17 to 128
# ranks, in results/bands/), pass17-auto (auto under the rules fitted to
# them), pass18 (allgather, allreduce, bcast and reduce between the powers of
# 4 and between their sizes, in results/bands/; tools/sim/fit.py scores the
# rules on them), pass18-auto, pass19 (the same 17 to 128 ranks at the
# larger sizes), pass19-auto, pass20 (barrier, gather, scatter and alltoall
# on 17 to 128 ranks), pass20-auto, pass21 (many ranks a node, in
# results/multicore/: the six collectives of the cost model's accuracy on
# the multi-core platforms at 64 ranks, and at 256 up to 64 KiB),
# pass22-radix (the radix forms the rules choose at 8 B and 1 KiB, on the
# same platforms), pass22-big (1 MiB at 256 ranks, the algorithms that
# win near it), pass22-hier (the hierarchical algorithms), pass22-auto
# (auto under the rules with rpn=), pass23-builtins (SimGrid's built-ins
# beside auto at 64 ranks on the same platforms), pass24-nodering (allgather
# node_ring at 64 ranks on them; from 4 to 32 KiB blocks beside the
# rules' algorithms, in results/bands/, and at 256 ranks from 1 to 64 KiB),
# pass24-nodering-auto (allgather's auto under the rules fitted to them, at
# 64 ranks and pass 22's at 256), pass24-binary (bcast
# hierarchical's binary tree among the leaders, inter=2), pass24-binary-auto
# (bcast's auto under the rules fitted to them, and pass22-auto's and
# pass23-builtins' bcast files again), pass25-radix (the radix forms of
# allgather, alltoall and reduce_scatter_block at 8 B to 1 KiB on 64, 128
# and 256 ranks), pass25-radix-auto (auto under the rules fitted to them,
# and pass22-auto's files of the three again), pass25-noncomm
# (reduce_scatter_block noncommutative beside bine and the radix forms,
# and the ring from 4 KiB blocks), pass25-noncomm-auto (its auto under
# the rules fitted to them), pass25-far (bcast's k-nomial tree labelled
# the other way, far=1, beside the default), pass25-far-auto (bcast's
# auto under the rules fitted to them), pass26-1024 (1024 ranks of 8 and
# 16 a node at 8 B and 1 KiB: the algorithms the rules and the model
# choose and their rivals, and auto), pass26-1024-auto (auto under the
# rules fitted to them: the collectives whose rules changed), pass27 (bcast
# hierarchical's pipeline with its receives posted ahead: pass24-binary's
# runs again, then bcast's auto at 64 and 256 ranks under the rules
# fitted to them), pass28 (reduce node_rabenseifner and bcast hierarchical
# with binary trees in the nodes too, inter=3, from 4 KiB to 1 MiB at 64 and
# 256 ranks; reduce's rivals between the sizes of pass 21), pass28-auto
# (reduce's and bcast's auto under the rules fitted to them, and their
# SimGrid built-ins' files again, auto beside), pass29 (allreduce, bcast
# and reduce at 64 KiB on 1024 ranks of flat8 and multicore), or all. Each NAME
# overwrites its .csv (the runs' CSV files merged, one header) and its .txt
# (each run's output after a "$ command" line). Then
# `python3 tools/sim/docs_tables.py` rewrites the page's tables from them
# (`tools/sim/sim.py table [--summary | --newest ...] tools/sim/results/*.csv`).
#
# Needs the SMPI build (scripts/smpi-build.sh). Wall times on this project's
# 2-core machine: seconds to minutes a run at 16 and 64 ranks, minutes to
# half an hour at 256 and 1024 (docs/results/scale-history.md); runs go at
# `nice -n 19` (NICE=... to change it). Extra sim.py options for every run
# (e.g. --lock /tmp/mpicoll-mpi.lock) go in SIM_OPTS. A run whose cells time
# out still counts: sim.py's exit status 1 is reported, not fatal.
set -u
cd "$(dirname "$0")/../.." || exit 2
R=tools/sim/results

# pass 6's mpicoll algorithms: all but shm and shm_hier (shared memory)
BCAST_ALGOS=binomial,knomial:k=2,knomial:k=4,knomial:k=8,linear,scatter_allgather_ring
REDUCE_ALGOS=binomial,knomial:k=2,knomial:k=4,knomial:k=8,linear,rabenseifner

# pass 19's sizes of a collective on 17 to 128 ranks
big_sizes() { case $1 in allgather) echo 256K,1M ;; bcast) echo 32K,128K,256K,1M ;; *) echo 32K,128K ;; esac; }

# The runs of each name, one per line: the arguments of `sim.py run`.
runs() {
    local C P
    case "$1" in
    # pass 17 (results/bands/, outside the big tables): rank counts and sizes
    # between the page's, for the rules' bands
    # pass 25: reduce_scatter_block noncommutative (MPICH's recursive halving
    # for any operation, nearest partners first) beside bine and the radix-4
    # form, on the multi-core platforms and on one rank a node (in bands/:
    # outside the page's tables of one rank a node)
    multicore/reduce_scatter_block-*-np*-noncomm|bands/reduce_scatter_block-*-np*-noncomm)
        N=${1#*/}; P=${N#*-}; P=${P%%-*}; NP=${N#*-np}; NP=${NP%-noncomm}
        M=8,64,256,1K,64K; case $NP in 64) M=8,64,256,1K,64K,1M ;; esac
        echo "reduce_scatter_block --np $NP --platform $P -m $M -a noncommutative,bine,recursive_multiplying:k=4,recursive_halving --builtins none --timeout 900" ;;
    # pass 25: bcast's k-nomial tree labelled the other way (far=1: the
    # farthest ranks first, MPICH's binomial order) beside the default
    multicore/bcast-*-np*-far|bands/bcast-*-np*-far) N=${1#*/}; P=${N#*-}; P=${P%%-*}
        NP=${N#*-np}; NP=${NP%-far}
        echo "bcast --np $NP --platform $P -m 8,1K,8K -a knomial:k=2,far=1,knomial:k=4,far=1,knomial:k=8,far=1,binomial,knomial:k=4,knomial:k=8,hierarchical --builtins none --timeout 900" ;;
    bands/*) N=${1#bands/}; C=${N%%-*}; P=${N#*-}; P=${P%%-*}
        case $N in
        # pass 24: allgather node_ring on the multi-core platforms between 1
        # and 64 KiB blocks, beside what the rules take there (rpn=8-: the
        # radix-4 form, the ring; neighbor before them)
        allgather-*-np64-nodering-mid)
            echo "allgather --np 64 --platform $P -m 4K,16K,32K -a node_ring,ring,recursive_multiplying:k=4,neighbor,auto --builtins none --timeout 900" ;;
        # and at 256 ranks, 1 to 64 KiB blocks
        allgather-*-np256-nodering-mid)
            echo "allgather --np 256 --platform $P -m 1K,4K,16K,64K -a node_ring,ring,recursive_multiplying:k=4,neighbor,auto --builtins none --timeout 1800" ;;
        # pass 25: where reduce_scatter_block noncommutative gives way to the
        # ring, 4 to 64 KiB blocks on the multi-core platforms
        reduce_scatter_block-*-np*-noncomm-ring) NP=${N#*-np}; NP=${NP%-noncomm-ring}
            echo "reduce_scatter_block --np $NP --platform $P -m 4K,16K,64K -a noncommutative,ring --builtins none --timeout 900" ;;
        # powers of two, not of 4, where allreduce's recursive_multiplying:k=4 folds
        allreduce-*-np32-128-small)
            echo "allreduce --np 32,128 --platform $P -m 8,1K,4K -a recursive_doubling,recursive_multiplying:k=4,recursive_multiplying:k=8,swing_latency,rabenseifner --builtins none" ;;
        # and the sizes between 1 and 64 KiB on the powers of 4
        allreduce-*-np16-256-mid)
            echo "allreduce --np 16,64,256 --platform $P -m 2K,4K,8K,16K,32K -a recursive_doubling,recursive_multiplying:k=4,swing_latency,rabenseifner --builtins none" ;;
        allreduce-*-np16-256-mid-auto)   # auto under the rules fitted to them
            echo "allreduce --np 16,32,64,128,256 --platform $P -m 2K,4K,8K,16K,32K -a auto --builtins none" ;;
        # rank counts that are not powers of two, where bine's and the halving
        # forms' fold sends the whole vector once more; 32 and 128, where the
        # radix-4 form folds
        reduce_scatter*-np17-100|reduce_scatter*-np32-128)
            A=ring,bine,recursive_multiplying:k=4,recursive_halving
            [ "$C" = reduce_scatter ] && A=$A,pairwise
            NP=17,24,48,100
            case $N in *-np32-128) NP=32,128 ;; esac
            echo "$C --np $NP --platform $P -m 8,1K,16K,64K,256K -a $A --builtins none --timeout 900" ;;
        reduce_scatter*-np17-128-auto)
            echo "$C --np 17,24,32,48,100,128 --platform $P -m 8,1K,16K,64K,256K -a auto --builtins none --timeout 900" ;;
        # pass 18: the rooted trees and allgather's radix forms between the
        # powers of 4 they were fitted on (17-128 ranks), the middle sizes on
        # those (16-256: pass 18's direct at 256 ranks was stopped by hand,
        # its rows "failed": p(p - 1) flows at once, over 13 minutes a size
        # here), and where radix 4 gives way to radix 8 (18-22)
        # pass 19: the same rank counts at the larger sizes (allgather's
        # blocks of 256 KiB and 1 MiB, bcast's 32 KiB-1 MiB, reduce's 32-128
        # KiB)
        allgather-*-np17-128|bcast-*-np17-128|reduce-*-np17-128|*-np17-128-big|*-np16-256-mid|*-np18-22-small)
            case $C in
            allgather) A=recursive_multiplying:k=4,recursive_multiplying:k=8,k_bruck:k=4,bine,neighbor,ring,direct,recursive_doubling
                       S=recursive_multiplying:k=4,recursive_multiplying:k=8,k_bruck:k=4,k_bruck:k=8,direct ;;
            bcast) A=knomial:k=4,knomial:k=8,binomial,bine,scatter_allgather_rd,scatter_allgather_ring
                   S=knomial:k=4,knomial:k=8 ;;
            reduce) A=knomial:k=4,prepost=1,knomial:k=8,prepost=1,binomial,bine,rabenseifner
                    S=knomial:k=4,prepost=1,knomial:k=8,prepost=1 ;;
            *) return 1 ;;
            esac
            case $N in
            *-np17-128) NP=17,24,32,48,100,128 M=8,1K,4K,16K,64K
                        [ "$C" = reduce ] && M=$M,256K ;;
            *-np17-128-big) NP=17,24,32,48,100,128 M=$(big_sizes "$C")
                            [ "$C" = allgather ] && A=ring,neighbor,direct,bine,recursive_multiplying:k=4,recursive_doubling ;;
            *-np16-256-mid) NP=16,64,256 M=4K,8K,16K,32K A=${A/,ring/} ;;
            *) NP=18,19,20,21,22 M=8,1K,4K A=$S ;;
            esac
            echo "$C --np $NP --platform $P -m $M -a $A --builtins none --timeout 900" ;;
        allreduce-*-np17-100-mid)   # the middle sizes off the powers of two
            echo "allreduce --np 17,24,48,100 --platform $P -m 1K,2K,4K,8K,16K,32K,64K -a recursive_doubling,recursive_multiplying:k=4,recursive_multiplying:k=8,swing_latency,swing_bandwidth,rabenseifner,ring --builtins none --timeout 900" ;;
        allreduce-*-np17-100-mid-auto)
            echo "allreduce --np 17,24,48,100 --platform $P -m 1K,2K,4K,8K,16K,32K,64K -a auto --builtins none --timeout 900" ;;
        *-np16-256-mid-auto)
            echo "$C --np 16,64,256 --platform $P -m 4K,8K,16K,32K -a auto --builtins none --timeout 900" ;;
        *-np18-22-small-auto)
            echo "$C --np 18,19,20,21,22 --platform $P -m 8,1K,4K -a auto --builtins none --timeout 900" ;;
        # pass 20: the collectives fitted on the powers of 4 only (barrier,
        # gather, scatter, alltoall) on 17 to 128 ranks
        barrier-*-np17-128*|gather-*-np17-128*|scatter-*-np17-128*|alltoall-*-np17-128*|alltoall-*-np16-64-mid*)
            M=8,1K,4K,16K,64K NP=17,24,32,48,100,128
            case $C in   # barrier: radix 8 on the powers of 4 too, where radix 4 was fitted
            barrier) A=k_dissemination:k=4,k_dissemination:k=8,bruck,recursive_doubling,tree M=0
                     NP=16,17,24,32,48,64,100,128,256 ;;
            gather) A=linear,binomial,linear_sync ;;
            scatter) A=linear,binomial ;;
            alltoall) A=mesh2d,radix_bruck:radix=4,multiport=1,radix_bruck:radix=8,multiport=1,bruck_index,pairwise,linear
                      M=8,1K,4K ;;
            esac
            case $N in   # alltoall's larger blocks: the algorithms that send them whole
            *-large|*-large-auto) A=mesh2d,pairwise,linear,linear_sync:max_requests=8 M=16K,64K ;;
            # and where mesh2d gives way to linear on the powers of 4 it was fitted on
            *-mid|*-mid-auto) A=mesh2d,linear,linear_sync:max_requests=8 M=2K,4K,8K NP=16,64 ;;
            esac
            case $N in *-auto) A=auto ;; esac
            echo "$C --np $NP --platform $P -m $M -a $A --builtins none --timeout 900" ;;
        *-np17-128-big-auto)
            echo "$C --np 17,24,32,48,100,128 --platform $P -m $(big_sizes "$C") -a auto --builtins none --timeout 900" ;;
        *-np17-128-auto)
            echo "$C --np 17,24,32,48,100,128 --platform $P -m 8,1K,4K,16K,64K,256K -a auto --builtins none --timeout 900" ;;
        *) return 1 ;;
        esac ;;
    # pass 21 (results/multicore/): many ranks a node (platforms flat8,
    # multicore (16 a node), flat64, fattree8, fattree16, fattree64 and
    # issue #39's cluster8): every mpicoll algorithm of the six collectives
    # the cost model is held to (docs/scale.md, "Many ranks a node")
    # (-upto64K: 8 B to 64 KiB, where 1 MiB at 256 ranks would not fit the
    # session's time)
    # pass 22: the radix forms the rules across nodes choose at 8 B and 1 KiB
    # that pass 21 ran at their defaults only
    multicore/*-np*-radix) N=${1#multicore/}; C=${N%%-*}; P=${N#*-}; P=${P%%-*}
        NP=${N#*-np}; NP=${NP%-radix}
        case $C in
        bcast) A=knomial:k=8 ;;
        reduce) A=knomial:k=4,prepost=1,knomial:k=8,prepost=0,knomial:k=8,prepost=1 ;;
        allgather|allreduce|reduce_scatter_block) A=recursive_multiplying:k=8 ;;
        alltoall) A=radix_bruck:radix=4,multiport=1,radix_bruck:radix=8,multiport=1 ;;
        esac
        echo "$C --np $NP --platform $P -m 8,1K -a $A --builtins none --timeout 900" ;;
    # pass 25: the radix forms between 64 and 256 ranks and between 8 B and
    # 1 KiB, where auto took up to 1.25 of the fastest (the rules across
    # nodes chose one radix for 8 and 64 ranks a node alike)
    multicore/*-np*-radixmid) N=${1#multicore/}; C=${N%%-*}; P=${N#*-}; P=${P%%-*}
        NP=${N#*-np}; NP=${NP%-radixmid}
        case $C in
        allgather) A=recursive_multiplying:k=4,recursive_multiplying:k=8 ;;
        reduce_scatter_block) A=recursive_multiplying:k=4,recursive_multiplying:k=8,bine ;;
        alltoall) A=radix_bruck:radix=4,multiport=1,radix_bruck:radix=8,multiport=1 ;;
        esac
        echo "$C --np $NP --platform $P -m 8,64,256,1K -a $A --builtins none --timeout 900" ;;
    # passes 25 and 26: auto alone at a run's points, under the rules fitted
    # to them (the run's command with -a auto)
    multicore/*-np*-radixmid-auto|multicore/*-np1024-small-auto)
        runs "${1%-auto}" | sed -E 's/ -a [^ ]+/ -a auto/' ;;
    # pass 26: 1024 ranks of many a node, 8 B and 1 KiB, the algorithms the
    # rules and the model choose there and their nearest rivals, and auto
    multicore/*-np1024-small) N=${1#multicore/}; C=${N%%-*}; P=${N#*-}; P=${P%%-*}
        case $C in
        allgather) A=recursive_multiplying:k=4,recursive_multiplying:k=8,k_bruck:k=4,bruck,recursive_doubling,bine ;;
        allreduce) A=recursive_doubling,recursive_multiplying:k=4,recursive_multiplying:k=8,rabenseifner,hierarchical,swing_latency ;;
        alltoall) A=radix_bruck:radix=4,multiport=1,radix_bruck:radix=8,multiport=1,bruck_index ;;
        bcast) A=knomial:k=4,knomial:k=8,knomial:k=4,far=1,knomial:k=8,far=1,binomial,hierarchical,bine ;;
        reduce) A=knomial:k=4,knomial:k=8,knomial:k=4,prepost=1,binomial,hierarchical,bine ;;
        reduce_scatter_block) A=recursive_multiplying:k=4,recursive_multiplying:k=8,noncommutative,bine,recursive_halving ;;
        esac
        echo "$C --np 1024 --platform $P -m 8,1K -a $A,auto --builtins none --timeout 900" ;;
    # pass 29: 64 KiB at 1024 ranks, the algorithms that win at 64 KiB on
    # 64 and 256 ranks of the same platforms (pass 28), for the model
    multicore/*-np1024-64K) N=${1#multicore/}; C=${N%%-*}; P=${N#*-}; P=${P%%-*}
        case $C in
        allreduce) A=rabenseifner,hierarchical,recursive_multiplying:k=4 ;;
        bcast) A=hierarchical:inter=3,segsize=4096,hierarchical:inter=2,segsize=8192,scatter_allgather_rd,hierarchical ;;
        reduce) A=node_rabenseifner,rabenseifner,knomial:k=4,prepost=1,hierarchical ;;
        esac
        echo "$C --np 1024 --platform $P -m 64K -a $A,auto --builtins none --timeout 1800" ;;
    # pass 22: 1 MiB at 256 ranks, the algorithms that win at 64 KiB and
    # 1 MiB on 64 ranks and at 64 KiB on 256 (pass 21)
    multicore/*-np256-1M) N=${1#multicore/}; C=${N%%-*}; P=${N#*-}; P=${P%%-*}
        case $C in
        bcast) A=scatter_allgather_ring,bine,scatter_allgather_rd ;;
        allgather) A=ring,recursive_multiplying:k=4,neighbor ;;
        allreduce) A=rabenseifner,ring ;;
        reduce) A=rabenseifner,knomial:k=4 ;;
        reduce_scatter_block) A=ring,bine ;;
        esac
        echo "$C --np 256 --platform $P -m 1M -a $A --builtins none --timeout 1800" ;;
    # pass 22: the node-aware algorithms in messages (hierarchical), at 64
    # ranks 8 B to 1 MiB, at 256 to 64 KiB
    multicore/*-np*-hier) N=${1#multicore/}; C=${N%%-*}; P=${N#*-}; P=${P%%-*}
        NP=${N#*-np}; NP=${NP%-hier}; M=8,1K,64K,1M
        [ "$NP" = 64 ] || M=8,1K,64K
        case $C in
        bcast) A=hierarchical,hierarchical:k=2,intra_k=2,hierarchical:inter=1 ;;
        *) A=hierarchical ;;
        esac
        echo "$C --np $NP --platform $P -m $M -a $A --builtins none --timeout 900" ;;
    # pass 24: bcast's auto at pass24-binary's points, under the rules
    # fitted to them (before pass 22's *-auto)
    multicore/bcast-*-np*-binary-auto) N=${1#multicore/}; P=${N#*-}; P=${P%%-*}
        NP=${N#*-np}; NP=${NP%-binary-auto}
        echo "bcast --np $NP --platform $P -m 4K,8K,16K,32K,64K,128K,256K,1M -a auto --builtins none --timeout 900" ;;
    # pass 22: auto under the rules with rpn=
    multicore/*-np*-auto) N=${1#multicore/}; C=${N%%-*}; P=${N#*-}; P=${P%%-*}
        NP=${N#*-np}; NP=${NP%-auto}; M=8,1K,64K,1M
        [ "$NP" = 64 ] || M=8,1K,64K
        echo "$C --np $NP --platform $P -m $M -a auto --builtins none --timeout 900" ;;
    # pass 23: SimGrid's built-ins (its smp_* among them, and those of Open
    # MPI, MPICH and MVAPICH it has) beside auto at 64 ranks
    multicore/*-np*-builtins) N=${1#multicore/}; C=${N%%-*}; P=${N#*-}; P=${P%%-*}
        NP=${N#*-np}; NP=${NP%-builtins}
        echo "$C --np $NP --platform $P -m 8,1K,64K,1M -a auto --builtins all --timeout 900" ;;
    # pass 24: allgather node_ring (SimGrid's loosely_lr on any nodes) at 64
    # ranks, beside pass 23's built-ins
    multicore/*-np*-nodering) N=${1#multicore/}; C=${N%%-*}; P=${N#*-}; P=${P%%-*}
        NP=${N#*-np}; NP=${NP%-nodering}
        echo "$C --np $NP --platform $P -m 8,1K,64K,1M -a node_ring --builtins none --timeout 900" ;;
    # pass 24: bcast hierarchical's binary tree among the leaders (inter=2),
    # pipelined in segments of 8 to 64 KiB, beside the algorithms the rules
    # take there (hierarchical, scatter_allgather_ring), from 4 KiB to 1 MiB
    # (SimGrid's SMP_binary was faster than mpicoll's fastest at 64 KiB)
    multicore/bcast-*-np*-binary) N=${1#multicore/}; P=${N#*-}; P=${P%%-*}
        NP=${N#*-np}; NP=${NP%-binary}
        A=hierarchical,scatter_allgather_ring
        for s in 8192 16384 32768 65536; do A=$A,hierarchical:inter=2,segsize=$s; done
        echo "bcast --np $NP --platform $P -m 4K,8K,16K,32K,64K,128K,256K,1M -a $A --builtins none --timeout 900" ;;
    # pass 28: reduce node_rabenseifner (each node's ranks share the vector)
    # and bcast hierarchical with binary trees in the nodes too (inter=3, as
    # SimGrid's SMP_binary), from 4 KiB to 1 MiB (and reduce's 8 B, 1 KiB)
    multicore/reduce-*-np*-noderab) N=${1#multicore/}; P=${N#*-}; P=${P%%-*}
        NP=${N#*-np}; NP=${NP%-noderab}
        echo "reduce --np $NP --platform $P -m 8,1K,4K,8K,16K,32K,64K,128K,256K,1M -a node_rabenseifner --builtins none --timeout 900" ;;
    multicore/reduce-*-np*-noderab-auto) N=${1#multicore/}; P=${N#*-}; P=${P%%-*}
        NP=${N#*-np}; NP=${NP%-noderab-auto}
        echo "reduce --np $NP --platform $P -m 8,1K,4K,8K,16K,32K,64K,128K,256K,1M -a auto --builtins none --timeout 900" ;;
    multicore/reduce-*-np*-noderab-rivals) N=${1#multicore/}; P=${N#*-}; P=${P%%-*}
        NP=${N#*-np}; NP=${NP%-noderab-rivals}
        echo "reduce --np $NP --platform $P -m 4K,8K,16K,32K,128K,256K -a knomial:k=4,prepost=1,rabenseifner --builtins none --timeout 900" ;;
    multicore/bcast-*-np*-binary3) N=${1#multicore/}; P=${N#*-}; P=${P%%-*}
        NP=${N#*-np}; NP=${NP%-binary3}
        A=hierarchical:inter=3,segsize=4096,hierarchical:inter=3,segsize=8192,hierarchical:inter=3,segsize=16384
        echo "bcast --np $NP --platform $P -m 4K,8K,16K,32K,64K,128K,256K,1M -a $A --builtins none --timeout 900" ;;
    multicore/*-np*) N=${1#multicore/}; C=${N%%-*}; P=${N#*-}; P=${P%%-*}; NP=${N#*-np}
        M=8,1K,64K,1M
        case $N in *-upto64K) NP=${NP%-upto64K} M=8,1K,64K ;; esac
        echo "$C --np $NP --platform $P -m $M --builtins none --timeout 900" ;;
    # pass 15: allreduce's large vectors on 17 to 48 ranks, not powers of two
    allreduce-flat-np17-48-big|allreduce-fattree-np17-48-big) P=${1#allreduce-}; P=${P%%-*}
        echo "allreduce --np 17,24,48 --platform $P -m 256K,1M -a rabenseifner,ring,segmented_ring:segsize=65536,auto --builtins none" ;;
    # pass 15: 2 to 15 ranks, one a node (results/small/): every algorithm, the
    # sizes between the page's for the rules' boundaries; then auto
    small/*-np2-15|small/*-np2-15-auto) N=${1#small/}; C=${N%%-*}; P=${N#*-}; P=${P%%-*}
        NP=2,3,4,5,6,7,8,9,10,11,12,13,14,15
        case "$1" in
        *-auto) echo "$C --np $NP --platform $P -m 8,64,512,1K,4K,32K,64K,256K,1M -a auto --builtins none" ;;
        *) echo "$C --np $NP --platform $P -m 8,64,512,4K,32K,256K,1M --builtins none"
           echo "$C --np $NP --platform $P -m 1K,64K --builtins none" ;;
        esac ;;
    # pass 1 (the first two sessions): every algorithm and built-in, 16 and 64 ranks
    all*-np16-64) C=${1%%-*}; P=${1#*-}; P=${P%%-*}
        echo "$C --np 16,64 --platform $P --timeout 300" ;;
    # pass 2: np 256 subsets
    allreduce-flat-np256|allreduce-fattree-np256) P=${1#allreduce-}; P=${P%%-*}
        echo "allreduce --np 256 --platform $P -a recursive_doubling,rabenseifner,ring,auto --builtins rdb,rab_rdb,smp_rsag_rab,mvapich2 --timeout 300" ;;
    allgather-flat-np256)
        echo "allgather --np 256 --platform flat -a k_bruck:k=4,neighbor,auto --builtins 3dmesh,ompi_neighborexchange --timeout 300" ;;
    allgather-fattree-np256)
        echo "allgather --np 256 --platform fattree -m 8,1K,64K -a k_bruck:k=4,neighbor,auto --builtins 3dmesh,ompi_neighborexchange --timeout 300" ;;
    alltoall-flat-np256)
        echo "alltoall --np 256 --platform flat -m 8,1K,64K -a bruck_index,pairwise,auto --builtins 2dmesh --timeout 300" ;;
    # pass 2: np 1024 on flat
    allreduce-flat-np1024)
        echo "allreduce --np 1024 --platform flat -m 8,1K,64K,1M -a recursive_doubling,rabenseifner,auto --builtins rdb,rab_rdb --timeout 240" ;;
    allgather-flat-np1024)
        echo "allgather --np 1024 --platform flat -m 8,1K -a k_bruck:k=4,bruck,auto --builtins 3dmesh --timeout 200" ;;
    alltoall-flat-np1024)
        echo "alltoall --np 1024 --platform flat -m 8,1K -a bruck_index,auto --builtins none --timeout 200" ;;
    # pass 3
    alltoall-fattree-np256-small)
        echo "alltoall --np 256 --platform fattree -m 8,1K --timeout 300" ;;
    alltoall-fattree-np256-64K)
        echo "alltoall --np 256 --platform fattree -m 64K -a pairwise,bruck_index --builtins pair --timeout 600" ;;
    alltoall-fattree-np256-1M)
        echo "alltoall --np 256 --platform fattree -m 1M -a pairwise --builtins none --timeout 900" ;;
    alltoall-flat-np256-1M-b)
        echo "alltoall --np 256 --platform flat -m 1M -a pairwise --builtins pair --timeout 900" ;;
    allgather-fattree-np256-1M)
        echo "allgather --np 256 --platform fattree -m 1M -a neighbor,auto --builtins ompi_neighborexchange --timeout 900" ;;
    allreduce-fattree-np1024)
        echo "allreduce --np 1024 --platform fattree -m 8,1K,64K,1M -a recursive_doubling,rabenseifner,auto --builtins rdb,rab_rdb --timeout 600" ;;
    allgather-fattree-np1024)
        echo "allgather --np 1024 --platform fattree -m 8,1K -a k_bruck:k=4,bruck,recursive_doubling,sparbit,auto --builtins 3dmesh,rdb,bruck --timeout 600" ;;
    alltoall-fattree-np1024)
        echo "alltoall --np 1024 --platform fattree -m 8,1K -a bruck_index,zero_copy_bruck,radix_bruck --builtins bruck --timeout 300" ;;
    allgather-flat-np1024-64K|allgather-fattree-np1024-64K) P=${1#allgather-}; P=${P%%-*}
        echo "allgather --np 1024 --platform $P -m 64K -a k_bruck:k=4,neighbor,auto --builtins ompi_neighborexchange --timeout 900" ;;
    alltoall-flat-np1024-64K|alltoall-fattree-np1024-64K) P=${1#alltoall-}; P=${P%%-*}
        echo "alltoall --np 1024 --platform $P -m 64K -a pairwise --builtins none --timeout 900" ;;
    # pass 4 (several runs merged into one name)
    allgather-flat-np1024-1M|allgather-fattree-np1024-1M) P=${1#allgather-}; P=${P%%-*}
        echo "allgather --np 1024 --platform $P -m 1M -a auto --builtins none --timeout 1800"
        echo "allgather --np 1024 --platform $P -m 1M -a neighbor --builtins ompi_neighborexchange --timeout 1800"
        echo "allgather --np 1024 --platform $P -m 1M -a recursive_doubling --builtins rdb --timeout 1800"
        echo "allgather --np 1024 --platform $P -m 1M -a ring --builtins ring,pair --timeout 1800" ;;
    alltoall-flat-np1024-1M|alltoall-fattree-np1024-1M) P=${1#alltoall-}; P=${P%%-*}
        echo "alltoall --np 1024 --platform $P -m 1M -a linear_sync:max_requests=8 --builtins none --timeout 1200"
        echo "alltoall --np 1024 --platform $P -m 1M -a pairwise --builtins pair --timeout 1800" ;;
    allgather-flat-np256-full)
        echo "allgather --np 256 --platform flat -m 8,1K,64K,1M -a bruck,recursive_doubling,ring,sparbit,k_bruck:k=4 --builtins none --timeout 400"
        echo "allgather --np 256 --platform flat -m 8,1K,64K,1M -a neighbor --builtins 2dmesh,3dmesh,bruck,GB,loosely_lr,NTSLR,NTSLR_NB,pair,rdb,rhv,ring,SMP_NTS,smp_simple,ompi,ompi_neighborexchange,mvapich2,mvapich2_smp,mpich,impi --timeout 400" ;;
    allgather-fattree-np256-full)
        echo "allgather --np 256 --platform fattree -m 8,1K,64K,1M -a recursive_doubling,ring,sparbit --builtins none --timeout 400"
        echo "allgather --np 256 --platform fattree -m 8,1K -a bruck --builtins none --timeout 400" ;;
    allreduce-flat-np256-full|allreduce-fattree-np256-full) P=${1#allreduce-}; P=${P%%-*}
        echo "allreduce --np 256 --platform $P -m 8,1K,64K,1M -a basic_linear,nonoverlapping,ring,segmented_ring:segsize=65536 --builtins none --timeout 400"
        echo "allreduce --np 256 --platform $P -m 8,1K,64K,1M -a rabenseifner --builtins all --timeout 400" ;;
    alltoall-flat-np256-full)
        echo "alltoall --np 256 --platform flat -m 8,1K -a bruck_datatype,radix_bruck:radix=4,zero_copy_bruck,hierarchical --builtins none --timeout 400"
        echo "alltoall --np 256 --platform flat -m 8,1K,64K,1M -a linear_sync:max_requests=8,ring --builtins none --timeout 400"
        echo "alltoall --np 256 --platform flat -m 8,1K,64K,1M -a pairwise --builtins 2dmesh,3dmesh,bruck,pair,pair_light_barrier,pair_one_barrier,rdb,ring,ring_light_barrier,ring_one_barrier,mvapich2,mvapich2_scatter_dest,mpich,impi --timeout 400" ;;
    alltoall-fattree-np256-full)
        echo "alltoall --np 256 --platform fattree -m 1M -a pairwise --builtins pair --timeout 900" ;;
    alltoall-flat-np1024-builtins)
        echo "alltoall --np 1024 --platform flat -m 8,1K -a bruck_index --builtins bruck --timeout 300"
        echo "alltoall --np 1024 --platform flat -m 64K -a pairwise --builtins pair --timeout 1000" ;;
    alltoall-fattree-np1024-builtins)
        echo "alltoall --np 1024 --platform fattree -m 64K -a pairwise --builtins pair --timeout 1000" ;;
    # allreduce's radix-k recursive_multiplying, first look (docs/scale.md)
    allreduce-flat-np256-radix|allreduce-fattree-np256-radix) P=${1#allreduce-}; P=${P%%-*}
        echo "allreduce --np 256 --platform $P -m 8,1K -a recursive_doubling,recursive_multiplying:k=4,recursive_multiplying:k=8 --builtins rdb,rab_rdb" ;;
    # pass 5 (session 9): recursive_multiplying:k=4 at every np, for the rules
    allreduce-flat-radix4|allreduce-fattree-radix4) P=${1#allreduce-}; P=${P%%-*}
        for n in 16 64 256 1024; do
            echo "allreduce --np $n --platform $P -m 8,1K,64K -a recursive_multiplying:k=4 --builtins none"
        done ;;
    alltoall-flat-mesh2d|alltoall-fattree-mesh2d) P=${1#alltoall-}; P=${P%%-*}
        for n in 16,64 256 1024; do
            echo "alltoall --np $n --platform $P -m 8,1K -a mesh2d --builtins none --timeout 900"
        done ;;
    alltoall-flat-np1024-radix)
        echo "alltoall --np 1024 --platform flat -m 1K -a radix_bruck:radix=4 --builtins none" ;;
    # pass 5: auto under the rules of 16 ranks and more across nodes (the
    # other results' auto rows, of older rules, were dropped)
    all*-np16-64-auto) C=${1%%-*}; P=${1#*-}; P=${P%%-*}   # alltoall's file keeps 64K and 1M
        echo "$C --np 16,64 --platform $P -m 8,1K,64K,1M -a auto --builtins none --timeout 300" ;;
    # (alltoall's 8 B: pass 8's alltoall-*-tiny-auto; the .txt files keep
    # pass 5's 8 B runs, under the rules of then)
    alltoall-*-np16-64-small-auto) P=${1#alltoall-}; P=${P%%-*}   # 1 KiB under the mesh2d rule
        echo "alltoall --np 16,64 --platform $P -m 1K -a auto --builtins none --timeout 900" ;;
    alltoall-*-np256-1024-small-auto) P=${1#alltoall-}; P=${P%%-*}
        echo "alltoall --np 256,1024 --platform $P -m 1K -a auto --builtins none --timeout 600" ;;
    all*-np256-1024-small-auto) C=${1%%-*}; P=${1#*-}; P=${P%%-*}
        echo "$C --np 256,1024 --platform $P -m 8,1K -a auto --builtins none --timeout 600" ;;
    all*-np256-big-auto) C=${1%%-*}; P=${1#*-}; P=${P%%-*}
        echo "$C --np 256 --platform $P -m 64K,1M -a auto --builtins none --timeout 900" ;;
    all*-np1024-big-auto) C=${1%%-*}; P=${1#*-}; P=${P%%-*}
        echo "$C --np 1024 --platform $P -m 64K,1M -a auto --builtins none --timeout 1800" ;;
    # pass 6 (bcast and reduce): every mpicoll algorithm (but shm, which
    # needs shared memory) and every SimGrid built-in at 16 and 64 ranks
    bcast-*-np16-64) P=${1#bcast-}; P=${P%%-*}
        echo "bcast --np 16,64 --platform $P -m 8,1K,64K,1M -a $BCAST_ALGOS --timeout 300" ;;
    reduce-*-np16-64) P=${1#reduce-}; P=${P%%-*}
        echo "reduce --np 16,64 --platform $P -m 8,1K,64K,1M -a $REDUCE_ALGOS --timeout 300" ;;
    # pass 6 at 256 ranks: knomial:k=2 (binomial's tree) left out, k=16
    # added; the SimGrid built-ins fastest at 16 and 64 ranks
    bcast-*-np256) P=${1#bcast-}; P=${P%%-*}
        echo "bcast --np 256 --platform $P -m 8,1K,64K,1M -a binomial,knomial:k=4,knomial:k=8,knomial:k=16,linear,scatter_allgather_ring --builtins scatter_rdb_allgather,mvapich2,ompi,binomial_tree --timeout 600" ;;
    reduce-*-np256) P=${1#reduce-}; P=${P%%-*}
        echo "reduce --np 256 --platform $P -m 8,1K,64K,1M -a binomial,knomial:k=4,knomial:k=8,knomial:k=16,linear,rabenseifner --builtins mvapich2,mvapich2_knomial,mpich,ompi_binary --timeout 600" ;;
    # pass 6 at 256 ranks: the other SimGrid built-ins (not those that fail
    # at 16 and 64 ranks: bcast NTSB, arrival_scatter, SMP_linear,
    # ompi_split_bintree; nor flattree_pipeline, flattree's time and 45-87 s
    # at 64 ranks, nor arrival_pattern_aware_wait, unfinished after 5 min at
    # 256 ranks on flat, arrival_pattern_aware's time at 16 and 64)
    bcast-*-np256-builtins) P=${1#bcast-}; P=${P%%-*}
        echo "bcast --np 256 --platform $P -m 8,1K,64K,1M -a knomial:k=8 --builtins default,arrival_pattern_aware,flattree,NTSL,NTSL_Isend,scatter_LR_allgather,SMP_binary,SMP_binomial,ompi_pipeline,mpich,mvapich2_inter_node,mvapich2_intra_node,mvapich2_knomial_intra_node,impi --timeout 600" ;;
    reduce-*-np256-builtins) P=${1#reduce-}; P=${P%%-*}
        echo "reduce --np 256 --platform $P -m 8,1K,64K,1M -a knomial:k=8 --builtins default,arrival_pattern_aware,binomial,flat_tree,NTSL,scatter_gather,ompi,ompi_chain,ompi_pipeline,ompi_basic_linear,ompi_in_order_binary,ompi_binomial,mvapich2_two_level,impi,rab --timeout 600" ;;
    # pass 6: auto under the rules of 16 ranks and more across nodes
    bcast-*-np16-64-auto|reduce-*-np16-64-auto) C=${1%%-*}; P=${1#*-}; P=${P%%-*}
        echo "$C --np 16,64 --platform $P -m 8,1K,64K,1M -a auto --builtins none --timeout 300" ;;
    bcast-*-np256-auto|reduce-*-np256-auto) C=${1%%-*}; P=${1#*-}; P=${P%%-*}
        echo "$C --np 256 --platform $P -m 8,1K,64K,1M -a auto --builtins none --timeout 600" ;;
    # pass 6, later: scatter_allgather_rd (MPICH's binomial scatter +
    # recursive-doubling allgather) against SimGrid's scatter_rdb_allgather
    # and the algorithms of the rules' 64 KiB and 1 MiB bands, at pass 6's
    # rank counts and at some that are not powers of two
    bcast-*-rd) P=${1#bcast-}; P=${P%-rd}
        echo "bcast --np 16,17,24,64,65,100,256 --platform $P -m 64K,1M -a scatter_allgather_rd,scatter_allgather_ring,binomial --builtins scatter_rdb_allgather --timeout 600" ;;
    # pass 7: the newest algorithms (allgather k_bruck at radix 8, the
    # swing (= bine) allreduces, bcast and reduce bine) against mpicoll's
    # previous best and SimGrid's best built-in where one was close
    allgather-*-radix8) P=${1#allgather-}; P=${P%-radix8}
        echo "allgather --np 64,256,1024 --platform $P -m 8,1K -a k_bruck:k=4,k_bruck:k=8 --builtins 3dmesh,2dmesh --timeout 600" ;;
    allreduce-*-swing) P=${1#allreduce-}; P=${P%-swing}
        echo "allreduce --np 64,256 --platform $P -m 8,1K,64K,1M -a recursive_doubling,recursive_multiplying:k=4,swing_latency,rabenseifner,swing_bandwidth --builtins none --timeout 600"
        echo "allreduce --np 1024 --platform $P -m 8,1K,64K -a recursive_doubling,recursive_multiplying:k=4,swing_latency,rabenseifner,swing_bandwidth --builtins none --timeout 600" ;;
    bcast-*-bine|reduce-*-bine) C=${1%%-*}; P=${1#*-}; P=${P%-bine}
        echo "$C --np 64,256 --platform $P -m 8,1K,64K -a bine,binomial,knomial:k=8 --builtins none --timeout 600" ;;
    # pass 8: reduce's k-nomial tree with every child's receive posted at
    # once (prepost=1, MVAPICH2's), against the per-round tree and SimGrid's
    # fastest small-vector reduces
    reduce-*-prepost) P=${1#reduce-}; P=${P%-prepost}
        echo "reduce --np 16,64,256 --platform $P -m 8,1K -a knomial:k=4,knomial:k=8,knomial:k=2,prepost=1,knomial:k=4,prepost=1,knomial:k=8,prepost=1 --builtins mvapich2,impi --timeout 600" ;;
    # pass 8: alltoall's radix-R Bruck with a digit place's R-1 messages in
    # flight together (multiport=1) against the short-block algorithms of
    # the rules (bruck_index, mesh2d: at 1024 ranks from pass 3 and 5)
    alltoall-*-multiport) P=${1#alltoall-}; P=${P%-multiport}
        echo "alltoall --np 16,64,256 --platform $P -m 8,1K -a radix_bruck:radix=4,multiport=1,radix_bruck:radix=8,multiport=1,radix_bruck:radix=16,multiport=1,bruck_index,mesh2d --builtins none --timeout 600"
        echo "alltoall --np 1024 --platform $P -m 8,1K -a radix_bruck:radix=4,multiport=1,radix_bruck:radix=8,multiport=1 --builtins none --timeout 900" ;;
    # pass 8: linear_sync:max_requests=8 (the fastest at 64 KiB and 1 MiB on
    # 256 ranks of flat) on the fat tree, with SimGrid's mvapich2 (the same
    # scheme)
    alltoall-fattree-np256-lsync)
        echo "alltoall --np 256 --platform fattree -m 64K,1M -a linear_sync:max_requests=8 --builtins mvapich2 --timeout 1200" ;;
    # pass 8: alltoall's auto at 8 B under the multiport radix-8 Bruck rule
    alltoall-*-tiny-auto) P=${1#alltoall-}; P=${P%-tiny-auto}
        echo "alltoall --np 16,64,256,1024 --platform $P -m 8 -a auto --builtins none --timeout 600" ;;
    # pass 9: the newest algorithms where distance matters (dragonfly,
    # torus) and allgather bine on flat and fat tree, at 64 and 256 ranks,
    # against their classic counterparts and SimGrid's best of before
    allreduce-*-locality) P=${1#allreduce-}; P=${P%-locality}
        echo "allreduce --np 64,256 --platform $P -m 8,1K,64K -a recursive_doubling,recursive_multiplying:k=4,swing_latency,rabenseifner,swing_bandwidth --builtins rdb,rab_rdb --timeout 900" ;;
    allgather-*-locality|allgather-*-bine) P=${1#allgather-}; P=${P%-*}
        echo "allgather --np 64,256 --platform $P -m 8,1K,64K -a bine,recursive_doubling,k_bruck:k=8,neighbor --builtins 3dmesh --timeout 900" ;;
    # pass 10: allgather recursive_multiplying (far peers first, k - 1 a
    # step) against k_bruck and bine, at every np on flat and fat tree (the
    # torus and the dragonfly from 64 ranks, as pass 9), then auto under
    # its rules
    allgather-*-recexch) P=${1#allgather-}; P=${P%-recexch}
        case $P in flat|fattree) N=16,64,256 ;; *) N=64,256 ;; esac
        echo "allgather --np $N --platform $P -m 8,1K,64K -a recursive_multiplying:k=4,recursive_multiplying:k=8 --builtins none --timeout 900" ;;
    allgather-*-recexch1024) P=${1#allgather-}; P=${P%-recexch1024}
        echo "allgather --np 1024 --platform $P -m 8,1K -a recursive_multiplying:k=4,recursive_multiplying:k=8 --builtins none --timeout 900" ;;
    allreduce-*-locality1024|allgather-*-locality1024|bcast-*-locality1024)
        C=${1%%-*}; P=${1#*-}; P=${P%-locality1024}
        case $C in
        allreduce) A=recursive_doubling,recursive_multiplying:k=4,swing_latency,rabenseifner,swing_bandwidth ;;
        allgather) A=bine,recursive_doubling,k_bruck:k=8,neighbor ;;
        bcast) A=bine,binomial,knomial:k=8,scatter_allgather_rd ;;
        esac
        echo "$C --np 1024 --platform $P -m 8,1K -a $A --builtins none --timeout 900" ;;
    allreduce-flat-radix1k)    # the radix at 1 KiB: why 20% below SimGrid's best is out of reach
        echo "allreduce --np 256,1024 --platform flat -m 1K -a recursive_multiplying:k=2,recursive_multiplying:k=3,recursive_multiplying:k=5,recursive_multiplying:k=8 --builtins none --timeout 900" ;;
    allgather-*-bine1024) P=${1#allgather-}; P=${P%-*}
        echo "allgather --np 1024 --platform $P -m 8,1K -a bine --builtins none --timeout 900" ;;
    bcast-*-locality) P=${1#bcast-}; P=${P%-locality}
        echo "bcast --np 64,256 --platform $P -m 8,1K,64K -a bine,binomial,knomial:k=8,scatter_allgather_rd --builtins none --timeout 900" ;;
    reduce-*-locality) P=${1#reduce-}; P=${P%-locality}
        echo "reduce --np 64,256 --platform $P -m 8,1K,64K -a bine,binomial,knomial:k=4,prepost=1,rabenseifner --builtins none --timeout 900" ;;
    # pass 11: the torus and the dragonfly completed: SimGrid's built-ins
    # (the three fastest on flat and the fat tree) at 64 to 1024 ranks,
    # reduce at 1024, and 64 KiB at 1024; pass 16: the same for bcast and
    # reduce at 1024 ranks of flat and the fat tree
    *-torus-builtins|*-dragonfly-builtins|*-torus-builtins1024|*-dragonfly-builtins1024|\
    bcast-flat-builtins1024|bcast-fattree-builtins1024|reduce-flat-builtins1024|reduce-fattree-builtins1024)
        C=${1%%-*}; P=${1#*-}; P=${P%%-*}
        case $1 in *1024) N="1024 -m 8,1K" ;; *) N="64,256 -m 8,1K,64K" ;; esac
        case $C in
        allreduce) A=recursive_multiplying:k=4 B=mvapich2,rdb,rab_rdb ;;
        allgather) A=recursive_multiplying:k=8 B=3dmesh,ompi_neighborexchange,rdb ;;
        bcast) A=knomial:k=8 B=scatter_rdb_allgather,ompi,mvapich2_knomial_intra_node ;;
        reduce) A=knomial:k=4,prepost=1 B=mvapich2,scatter_gather,mpich ;;
        esac
        echo "$C --np $N --platform $P -a $A --builtins $B --timeout 600" ;;
    reduce-*-locality1024) P=${1#reduce-}; P=${P%-locality1024}
        echo "reduce --np 1024 --platform $P -m 8,1K -a bine,binomial,knomial:k=4,prepost=1,rabenseifner --builtins none --timeout 900" ;;
    *-*-locality1024-64K) C=${1%%-*}; P=${1#*-}; P=${P%%-*}
        case $C in
        allreduce) A=recursive_doubling,recursive_multiplying:k=4,swing_latency,rabenseifner,swing_bandwidth ;;
        allgather) A=bine,recursive_multiplying:k=8,neighbor ;;
        bcast) A=bine,binomial,knomial:k=8,scatter_allgather_rd ;;
        reduce) A=bine,binomial,knomial:k=4,prepost=1,rabenseifner ;;
        esac
        echo "$C --np 1024 --platform $P -m 64K -a $A --builtins none --timeout 1800" ;;
    # pass 12: reduce_scatter_block (sizes: one rank's block), its new
    # algorithms against the classic ones and SimGrid's built-ins
    reduce_scatter_block-*-np16-64) P=${1#reduce_scatter_block-}; P=${P%-np16-64}
        case $P in flat|fattree) N=16,64 ;; *) N=64 ;; esac
        echo "reduce_scatter_block --np $N --platform $P -m 8,1K,64K,1M -a all --builtins all --timeout 600" ;;
    reduce_scatter_block-*-np256) P=${1#reduce_scatter_block-}; P=${P%-np256}
        echo "reduce_scatter_block --np 256 --platform $P -m 8,1K,64K -a recursive_halving,recursive_multiplying:k=4,recursive_multiplying:k=8,bine,ring --builtins ompi,mpich_rdb,mvapich2,ompi_ring,mpich_pair --timeout 900" ;;
    reduce_scatter_block-*-auto) P=${1#reduce_scatter_block-}; P=${P%-auto}   # under its rules across nodes
        echo "reduce_scatter_block --np 16,64,256 --platform $P -m 8,1K,64K,1M -a auto --builtins none --timeout 900" ;;
    # pass 17: which built-in SimGrid's `ompi` runs at 256 ranks of the dragonfly, 1 KiB blocks
    reduce_scatter_block-dragonfly-np256-order)
        echo "reduce_scatter_block --np 256 --platform dragonfly -m 1K -a recursive_halving,bine --builtins ompi,ompi_butterfly,ompi_basic_recursivehalving,mvapich2 --timeout 600" ;;
    reduce_scatter_block-*-np1024) P=${1#reduce_scatter_block-}; P=${P%-np1024}
        echo "reduce_scatter_block --np 1024 --platform $P -m 8,1K -a recursive_halving,recursive_multiplying:k=4,recursive_multiplying:k=8,bine --builtins ompi,mpich_rdb,mvapich2 --timeout 900" ;;
    # pass 14: the ten collectives the drop-in gained (gather, scatter, barrier,
    # scan, exscan, reduce_scatter and the v-forms): every algorithm, SimGrid's
    # built-ins and auto, 16 and 64 ranks (allgatherv and alltoallv: pass 1's
    # pattern above, the same command), and 256 ranks up to 64 KiB against
    # the decisions of SimGrid's Open MPI, MPICH and MVAPICH2
    *-flat-np16-64|*-fattree-np16-64) C=${1%%-*}; P=${1#*-}; P=${P%%-*}
        echo "$C --np 16,64 --platform $P --timeout 300" ;;
    *-flat-np256|*-fattree-np256) C=${1%%-*}; P=${1#*-}; P=${P%%-*}
        echo "$C --np 256 --platform $P -m 8,1K,64K --builtins ompi,mpich,mvapich2 --timeout 900" ;;
    # and auto under their rules across nodes
    *-flat-np16-256-auto|*-fattree-np16-256-auto) C=${1%%-*}; P=${1#*-}; P=${P%%-*}
        echo "$C --np 16,64 --platform $P -a auto --builtins none --timeout 300"
        echo "$C --np 256 --platform $P -m 8,1K,64K -a auto --builtins none --timeout 900" ;;
    *) return 1 ;;
    esac
}

# pass 25's auto runs of collective $1: at the radix points (64, 128 and
# 256 ranks) and at pass 22's (64 and 256)
pass25_autos() {
    local p
    for p in flat8 fattree8 multicore fattree16; do
        echo multicore/$1-$p-np64-radixmid-auto multicore/$1-$p-np128-radixmid-auto
    done
    for p in flat8 flat64; do
        echo multicore/$1-$p-np256-radixmid-auto
    done
    for p in flat8 fattree8 multicore fattree16 cluster8; do
        echo multicore/$1-$p-np64-auto
    done
    for p in flat8 flat64 fattree8 fattree64; do
        echo multicore/$1-$p-np256-auto
    done
}

group() {
    local c p
    case "$1" in
    pass1) for c in allgather allreduce alltoall; do for p in flat fattree; do echo $c-$p-np16-64; done; done ;;
    pass2) echo allreduce-flat-np256 allreduce-fattree-np256 allgather-flat-np256 allgather-fattree-np256 \
                alltoall-flat-np256 allreduce-flat-np1024 allgather-flat-np1024 \
                alltoall-flat-np1024 ;;
    pass3) echo alltoall-fattree-np256-small alltoall-fattree-np256-64K alltoall-fattree-np256-1M \
                alltoall-flat-np256-1M-b allgather-fattree-np256-1M \
                allreduce-fattree-np1024 allgather-fattree-np1024 alltoall-fattree-np1024 \
                allgather-flat-np1024-64K allgather-fattree-np1024-64K alltoall-flat-np1024-64K \
                alltoall-fattree-np1024-64K ;;
    pass4) echo allgather-flat-np1024-1M allgather-fattree-np1024-1M alltoall-flat-np1024-1M \
                alltoall-fattree-np1024-1M allgather-flat-np256-full allgather-fattree-np256-full \
                allreduce-flat-np256-full allreduce-fattree-np256-full alltoall-flat-np256-full \
                alltoall-fattree-np256-full alltoall-flat-np1024-builtins \
                alltoall-fattree-np1024-builtins ;;
    radix) echo allreduce-flat-np256-radix allreduce-fattree-np256-radix ;;
    pass5) echo allreduce-flat-radix4 allreduce-fattree-radix4 alltoall-flat-np1024-radix \
                alltoall-flat-mesh2d alltoall-fattree-mesh2d
           for c in allgather allreduce alltoall; do for p in flat fattree; do
               echo $c-$p-np16-64-auto $c-$p-np256-1024-small-auto $c-$p-np256-big-auto $c-$p-np1024-big-auto
           done; done
           echo alltoall-flat-np16-64-small-auto alltoall-fattree-np16-64-small-auto ;;
    pass6) for c in bcast reduce; do for p in flat fattree; do
               echo $c-$p-np16-64 $c-$p-np256 $c-$p-np256-builtins $c-$p-np16-64-auto $c-$p-np256-auto
           done; done
           echo bcast-flat-rd bcast-fattree-rd ;;
    pass7) for p in flat fattree; do
               echo allgather-$p-radix8 allreduce-$p-swing bcast-$p-bine reduce-$p-bine
           done ;;
    pass8) echo reduce-flat-prepost reduce-fattree-prepost alltoall-flat-multiport \
                alltoall-fattree-multiport alltoall-fattree-np256-lsync
           for p in flat fattree; do
               echo reduce-$p-np16-64-auto reduce-$p-np256-auto alltoall-$p-tiny-auto \
                    alltoall-$p-np256-big-auto
           done ;;
    pass9) echo allgather-flat-bine allgather-fattree-bine allgather-flat-bine1024 \
                allgather-fattree-bine1024 allreduce-flat-radix1k
           for p in torus dragonfly; do
               echo allreduce-$p-locality1024 allgather-$p-locality1024 bcast-$p-locality1024
           done
           for p in torus dragonfly; do
               echo allreduce-$p-locality allgather-$p-locality bcast-$p-locality reduce-$p-locality
           done ;;
    pass10) for p in flat fattree torus dragonfly; do echo allgather-$p-recexch allgather-$p-recexch1024; done
            for p in flat fattree; do echo allgather-$p-np16-64-auto allgather-$p-np256-1024-small-auto; done ;;
    pass11) for p in torus dragonfly; do for c in bcast reduce allreduce allgather; do echo $c-$p-builtins; done; done
            echo reduce-torus-locality1024 reduce-dragonfly-locality1024
            for p in torus dragonfly; do for c in bcast reduce allreduce allgather; do echo $c-$p-builtins1024; done; done
            for p in torus dragonfly; do for c in bcast reduce allreduce allgather; do echo $c-$p-locality1024-64K; done; done ;;
    pass12) for p in flat fattree torus dragonfly; do
                echo reduce_scatter_block-$p-np16-64 reduce_scatter_block-$p-np256 reduce_scatter_block-$p-np1024
            done
            echo reduce_scatter_block-flat-auto reduce_scatter_block-fattree-auto ;;
    pass13) # allreduce's recursive_multiplying once each member's i-th message goes i
            # digits up (every run with it, or with auto below 8 KiB, again)
            echo allreduce-flat-radix1k
            for p in flat fattree; do
                echo allreduce-$p-radix4 allreduce-$p-swing allreduce-$p-np16-64-auto \
                     allreduce-$p-np256-1024-small-auto
            done
            for p in torus dragonfly; do
                echo allreduce-$p-locality allreduce-$p-locality1024 allreduce-$p-builtins \
                     allreduce-$p-builtins1024 allreduce-$p-locality1024-64K
            done ;;
    pass14) for p in flat fattree; do
                # alltoallv at 256 ranks is left out: its 64 KiB point (4 GiB of
                # blocks, on SMPI's shared memory) ran over 13 minutes an algorithm
                for c in barrier scatter gather reduce_scatter allgatherv scan exscan gatherv scatterv alltoallv; do
                    echo $c-$p-np16-64
                    [ $c = alltoallv ] || echo $c-$p-np256
                done
                for c in scatter gather reduce_scatter allgatherv; do echo $c-$p-np16-256-auto; done
            done ;;
    pass15) for p in flat fattree; do
                for c in allgather allreduce alltoall bcast reduce reduce_scatter_block reduce_scatter; do
                    echo small/$c-$p-np2-15 small/$c-$p-np2-15-auto
                done
                echo allreduce-$p-np17-48-big
            done ;;
    pass16) for p in flat fattree; do
                echo bcast-$p-locality1024 reduce-$p-locality1024 bcast-$p-builtins1024 reduce-$p-builtins1024
            done ;;
    pass17) echo reduce_scatter_block-dragonfly-np256-order
            for p in flat fattree; do
                echo reduce_scatter-$p-np16-64 reduce_scatter-$p-np256 small/reduce_scatter-$p-np2-15 \
                     bands/reduce_scatter_block-$p-np17-100 bands/reduce_scatter-$p-np17-100 \
                     bands/reduce_scatter_block-$p-np32-128 bands/reduce_scatter-$p-np32-128 \
                     bands/allreduce-$p-np32-128-small bands/allreduce-$p-np16-256-mid
            done ;;
    pass17-auto) for p in flat fattree; do
                echo reduce_scatter-$p-np16-256-auto small/reduce_scatter-$p-np2-15-auto \
                     reduce_scatter_block-$p-auto \
                     bands/reduce_scatter_block-$p-np17-128-auto bands/reduce_scatter-$p-np17-128-auto \
                     bands/allreduce-$p-np16-256-mid-auto
            done ;;
    pass18) for p in flat fattree; do
                echo bands/allgather-$p-np17-128 bands/bcast-$p-np17-128 bands/reduce-$p-np17-128 \
                     bands/allreduce-$p-np17-100-mid bands/allgather-$p-np16-256-mid \
                     bands/bcast-$p-np16-256-mid bands/reduce-$p-np16-256-mid \
                     bands/allgather-$p-np18-22-small bands/bcast-$p-np18-22-small bands/reduce-$p-np18-22-small
            done ;;
    pass18-auto) for p in flat fattree; do
                echo bands/allgather-$p-np17-128-auto bands/bcast-$p-np17-128-auto bands/reduce-$p-np17-128-auto \
                     bands/allreduce-$p-np17-100-mid-auto bands/allgather-$p-np16-256-mid-auto \
                     bands/bcast-$p-np16-256-mid-auto bands/reduce-$p-np16-256-mid-auto \
                     bands/allgather-$p-np18-22-small-auto
            done ;;
    pass19) for p in flat fattree; do
                echo bands/allgather-$p-np17-128-big bands/bcast-$p-np17-128-big bands/reduce-$p-np17-128-big
            done ;;
    pass19-auto) for p in flat fattree; do
                echo bands/allgather-$p-np17-128-big-auto bands/bcast-$p-np17-128-big-auto bands/reduce-$p-np17-128-big-auto
            done ;;
    pass20) for p in flat fattree; do
                echo bands/barrier-$p-np17-128 bands/gather-$p-np17-128 bands/scatter-$p-np17-128 \
                     bands/alltoall-$p-np17-128 bands/alltoall-$p-np17-128-large bands/alltoall-$p-np16-64-mid
            done ;;
    pass20-auto) for p in flat fattree; do
                echo bands/barrier-$p-np17-128-auto bands/gather-$p-np17-128-auto bands/scatter-$p-np17-128-auto \
                     bands/alltoall-$p-np17-128-auto bands/alltoall-$p-np17-128-large-auto \
                     bands/alltoall-$p-np16-64-mid-auto
            done ;;
    pass21) for p in flat8 fattree8 multicore fattree16 cluster8; do
                for c in allgather allreduce alltoall bcast reduce reduce_scatter_block; do
                    echo multicore/$c-$p-np64
                done
            done
            for p in flat8 fattree8 flat64 fattree64; do
                for c in allgather allreduce alltoall bcast reduce reduce_scatter_block; do
                    echo multicore/$c-$p-np256-upto64K
                done
            done ;;
    pass22-radix) for p in flat8 fattree8 multicore fattree16 cluster8; do
                for c in allgather allreduce alltoall bcast reduce reduce_scatter_block; do
                    echo multicore/$c-$p-np64-radix
                done
            done
            for p in flat8 flat64; do
                for c in allgather allreduce alltoall bcast reduce reduce_scatter_block; do
                    echo multicore/$c-$p-np256-radix
                done
            done ;;
    # (bcast and reduce_scatter_block on flat8: 10 and 13 min here; allgather
    # ran over 10 min and was stopped, the rest not yet run)
    pass25-radix) for c in allgather alltoall reduce_scatter_block; do
                for p in flat8 fattree8 multicore fattree16; do
                    echo multicore/$c-$p-np64-radixmid multicore/$c-$p-np128-radixmid
                done
                for p in flat8 flat64; do
                    echo multicore/$c-$p-np256-radixmid
                done
            done ;;
    pass25-radix-auto) for c in allgather alltoall reduce_scatter_block; do pass25_autos $c; done ;;
    pass25-noncomm) for p in flat8 fattree8 multicore fattree16 cluster8; do
                echo multicore/reduce_scatter_block-$p-np64-noncomm
            done
            for p in flat8 fattree8 multicore fattree16; do
                echo multicore/reduce_scatter_block-$p-np128-noncomm
            done
            for p in flat8 flat64; do
                echo multicore/reduce_scatter_block-$p-np256-noncomm
            done
            for p in flat fattree; do
                echo bands/reduce_scatter_block-$p-np16-noncomm \
                     bands/reduce_scatter_block-$p-np64-noncomm \
                     bands/reduce_scatter_block-$p-np256-noncomm
            done
            for p in flat8 fattree8 multicore fattree16; do
                echo bands/reduce_scatter_block-$p-np64-noncomm-ring
            done
            echo bands/reduce_scatter_block-flat8-np128-noncomm-ring \
                 bands/reduce_scatter_block-multicore-np128-noncomm-ring ;;
    pass25-noncomm-auto) pass25_autos reduce_scatter_block ;;
    pass25-far) for p in flat8 fattree8 multicore fattree16 cluster8; do
                echo multicore/bcast-$p-np64-far
            done
            for p in flat8 fattree8 flat64; do
                echo multicore/bcast-$p-np256-far
            done
            for p in flat fattree; do
                echo bands/bcast-$p-np64-far
            done ;;
    pass25-far-auto) for p in flat8 fattree8 multicore fattree16 cluster8; do
                echo multicore/bcast-$p-np64-auto
            done
            for p in flat8 flat64 fattree8 fattree64; do
                echo multicore/bcast-$p-np256-auto
            done ;;
    pass26-1024) for p in flat8 multicore; do
                for c in allreduce bcast allgather reduce reduce_scatter_block alltoall; do
                    echo multicore/$c-$p-np1024-small
                done
            done ;;
    pass28) for c in reduce-%s-noderab reduce-%s-noderab-rivals bcast-%s-binary3; do
                for p in flat8 fattree8 multicore fattree16 cluster8; do
                    printf "multicore/$c\n" $p-np64
                done
                for p in flat8 fattree8 flat64 fattree64; do
                    printf "multicore/$c\n" $p-np256
                done
            done ;;
    pass29) for c in allreduce bcast reduce; do
                for p in flat8 multicore; do echo multicore/$c-$p-np1024-64K; done
            done ;;
    pass28-auto) for p in flat8-np64 fattree8-np64 multicore-np64 fattree16-np64 cluster8-np64 \
                         flat8-np256 fattree8-np256 flat64-np256 fattree64-np256; do
                echo multicore/reduce-$p-auto multicore/reduce-$p-noderab-auto
                echo multicore/bcast-$p-auto multicore/bcast-$p-binary-auto
            done
            for p in flat8 fattree8 multicore fattree16 cluster8; do
                echo multicore/reduce-$p-np64-builtins multicore/bcast-$p-np64-builtins
            done ;;
    pass27) group pass24-binary
            for p in flat8 fattree8 multicore fattree16 cluster8; do
                echo multicore/bcast-$p-np64-auto multicore/bcast-$p-np64-binary-auto
            done
            for p in flat8 fattree8 flat64 fattree64; do
                echo multicore/bcast-$p-np256-auto multicore/bcast-$p-np256-binary-auto
            done ;;
    pass26-1024-auto) for p in flat8 multicore; do
                for c in allreduce bcast allgather reduce_scatter_block; do
                    echo multicore/$c-$p-np1024-small-auto
                done
            done ;;
    pass22-big) echo multicore/bcast-flat8-np256-1M multicore/reduce_scatter_block-flat8-np256-1M ;;
    pass22-hier) for c in bcast reduce allreduce allgather; do
                for p in flat8 fattree8 multicore fattree16 cluster8; do
                    echo multicore/$c-$p-np64-hier
                done
                for p in flat8 fattree8 flat64 fattree64; do
                    echo multicore/$c-$p-np256-hier
                done
            done ;;
    pass22-auto) for c in allgather allreduce alltoall bcast reduce reduce_scatter_block; do
                for p in flat8 fattree8 multicore fattree16 cluster8; do
                    echo multicore/$c-$p-np64-auto
                done
                for p in flat8 flat64 fattree8 fattree64; do
                    echo multicore/$c-$p-np256-auto
                done
            done ;;
    pass23-builtins) for c in allreduce bcast allgather reduce alltoall reduce_scatter_block; do
                for p in flat8 fattree8 multicore fattree16 cluster8; do
                    echo multicore/$c-$p-np64-builtins
                done
            done ;;
    pass24-nodering) for p in flat8 fattree8 multicore fattree16 cluster8; do
                echo multicore/allgather-$p-np64-nodering bands/allgather-$p-np64-nodering-mid
            done
            for p in flat8 fattree8 flat64 fattree64; do
                echo bands/allgather-$p-np256-nodering-mid
            done ;;
    pass24-nodering-auto) for p in flat8 fattree8 multicore fattree16 cluster8; do
                echo multicore/allgather-$p-np64-auto multicore/allgather-$p-np64-builtins \
                     bands/allgather-$p-np64-nodering-mid
            done
            echo multicore/allgather-flat8-np256-auto multicore/allgather-flat64-np256-auto ;;
    pass24-binary) for p in flat8 fattree8 multicore fattree16 cluster8; do
                echo multicore/bcast-$p-np64-binary
            done
            for p in flat8 fattree8 flat64 fattree64; do
                echo multicore/bcast-$p-np256-binary
            done ;;
    pass24-binary-auto) for p in flat8 fattree8 multicore fattree16 cluster8; do
                echo multicore/bcast-$p-np64-binary-auto multicore/bcast-$p-np64-auto \
                     multicore/bcast-$p-np64-builtins
            done
            for p in flat8 fattree8 flat64 fattree64; do
                echo multicore/bcast-$p-np256-binary-auto multicore/bcast-$p-np256-auto
            done ;;
    all) for c in pass1 pass2 pass3 pass4 radix pass5 pass6 pass7 pass8 pass9 pass10 pass11 pass12 pass13 pass14 pass15 pass16 pass17 pass17-auto pass18 pass18-auto pass19 pass19-auto pass20 pass20-auto pass21 pass22-radix pass22-big pass22-hier pass22-auto pass23-builtins pass24-nodering pass24-nodering-auto pass24-binary pass24-binary-auto pass25-radix pass25-radix-auto pass25-noncomm pass25-noncomm-auto pass25-far pass25-far-auto pass26-1024 pass26-1024-auto pass27 pass28 pass28-auto pass29; do group $c; done ;;
    *) return 1 ;;
    esac
}

rerun() {     # NAME: its runs, merged into $R/NAME.csv and $R/NAME.txt
    local name=$1 tmp args i=0 rc
    tmp=$(mktemp -d) || exit 2
    mkdir -p "$(dirname "$R/$name")"
    : > "$tmp/txt"
    while read -r args; do
        i=$((i + 1))
        echo "\$ tools/sim/sim.py run $args" >> "$tmp/txt"
        # shellcheck disable=SC2086  # args and SIM_OPTS are word lists
        nice -n "${NICE:-19}" tools/sim/sim.py run $args ${SIM_OPTS:-} --csv "$tmp/$i.csv" < /dev/null >> "$tmp/txt" 2>&1
        rc=$?
        [ $rc -eq 0 ] || echo "rerun: $name: exit status $rc: $args" >&2
    done < <(runs "$name")
    i=0
    for f in "$tmp"/*.csv; do     # 1.csv .. 4.csv: one header
        [ -e "$f" ] || continue
        if [ $i -eq 0 ]; then cat "$f"; else tail -n +2 "$f"; fi
        i=1
    done > "$tmp/merged"
    [ -s "$tmp/merged" ] && cp "$tmp/merged" "$R/$name.csv"
    cp "$tmp/txt" "$R/$name.txt"
    rm -rf "$tmp"
}

list=0 dry=0
while getopts ln o; do
    case $o in
    l) list=1 ;;
    n) dry=1 ;;
    *) sed -n '2,6p' "$0" >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
if [ $list -eq 1 ]; then
    for n in $(group all); do echo "$n:"; runs "$n" | sed 's|^|    tools/sim/sim.py run |'; done
    exit 0
fi
[ $# -gt 0 ] || { sed -n '2,6p' "$0" >&2; exit 2; }
names=()
for a in "$@"; do
    if g=$(group "$a"); then mapfile -t gs < <(tr ' ' '\n' <<< "$g" | grep .); names+=("${gs[@]}")
    elif runs "$a" > /dev/null; then names+=("$a")
    else echo "rerun: $a: no such result name or group (-l lists them)" >&2; exit 2
    fi
done
for n in "${names[@]}"; do
    if [ $dry -eq 1 ]; then echo "$n:"; runs "$n" | sed 's|^|    tools/sim/sim.py run |'
    else echo "rerun: $n" >&2; rerun "$n"
    fi
done
