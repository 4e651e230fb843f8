"""A plain mpi4py program for the component test (run.sh): every collective
blocking, non-blocking or persistent, in place and not, with derived
datatypes, an operation of its own and every root, on MPI_COMM_WORLD and on
a split communicator. Rank 0 prints one line per call: a label and each
rank's hash of its result, the same lines as app.F90 prints. Integer data
(doubles with exact sums), so that every algorithm gives the same bits.

    python3 app.py [blocking|nb|persistent]

nb: comm.I<name> and Wait. persistent: comm.<Name>_init, Start, Wait, Free
where mpi4py has them (4.0 and later, on an MPI-4 library); mpi4py 3.1 has
no persistent collectives, and there persistent runs as nb (said on
stderr). Buffers are array.array (no numpy needed).
"""
import struct
import sys
from array import array

from mpi4py import MPI

N = 37
P = 2147483647  # the hash's modulus, 2**31 - 1
mode = sys.argv[1] if len(sys.argv) > 1 else "blocking"
if mode not in ("blocking", "nb", "persistent"):
    sys.exit("usage: app.py blocking|nb|persistent")
world = MPI.COMM_WORLD


def coll(comm, name, *args):
    """MPI_<name>(args) on comm in the program's mode."""
    if mode == "blocking":
        getattr(comm, name)(*args)
        return
    init = getattr(comm, name + "_init", None) if mode == "persistent" else None
    if init is None:
        getattr(comm, "I" + name.lower())(*args).Wait()
    else:
        req = init(*args)
        req.Start()
        req.Wait()
        req.Free()


def hash_(a, cnt, seed):
    """A polynomial hash of cnt integers (doubles: their bits) mod P."""
    h = seed
    for v in a[:cnt]:
        if isinstance(v, float):
            v = struct.unpack("q", struct.pack("d", v))[0]
        h = (h * 65599 + v) % P
    return h


def report(what, h, color, round_=None):
    """Every rank's communicator (color) and result hash (0: nothing defined
    to hash), gathered to rank 0 of MPI_COMM_WORLD (blocking in every mode)
    and printed on one line. Both halves of the split call it together."""
    everyone = array("q", [0] * 2 * world.size)
    world.Gather([array("q", [color, h]), MPI.INT64_T], [everyone, MPI.INT64_T], root=0)
    if round_ is not None:
        what = f"{what} round {round_}"
    if world.rank == 0:
        pairs = zip(everyone[0::2], everyone[1::2])
        print(f"{what:<32}" + "".join(f" {c}:{x}" for c, x in pairs), flush=True)


def pair_max_fn(inbuf, inoutbuf, datatype):
    """The larger sum of each pair of integers: an operation of the program's."""
    a = memoryview(inbuf).cast("B").cast("i")
    b = memoryview(inoutbuf).cast("B").cast("i")
    for i in range(0, len(b), 2):
        if a[i] + a[i + 1] > b[i] + b[i + 1]:
            b[i], b[i + 1] = a[i], a[i + 1]


def vblocks(np_):
    """Rank r's block of r % 3 + 1 integers, the blocks in reverse rank order."""
    counts = [r % 3 + 1 for r in range(np_)]
    displs = [sum(counts[r + 1:]) for r in range(np_)]
    return counts, displs


def rooted(comm, color, si, ri, sd, rd):
    """The rooted collectives at every root of comm: round k at root
    k % size, as many rounds as MPI_COMM_WORLD has ranks, so that the
    halves of a split report together."""
    rank, np_ = comm.rank, comm.size
    counts, displs = vblocks(np_)
    INT, DOUBLE = MPI.INT, MPI.DOUBLE
    # every other integer (MPI's reductions take predefined types only: the
    # strided type goes to a broadcast)
    strided = INT.Create_vector(N // 2, 1, 2).Commit()
    for k in range(world.size):
        root = k % np_
        is_root = rank == root
        ri[:] = si
        coll(comm, "Bcast", [ri, 1, strided], root)
        report("bcast strided", hash_(ri, N, 6), color, k)
        ri[:] = si
        coll(comm, "Bcast", [ri, N, INT], root)
        report("bcast", hash_(ri, N, 7), color, k)
        rd[:] = array("d", [0.0] * len(rd))
        coll(comm, "Reduce", [sd, N, DOUBLE], [rd, N, DOUBLE], MPI.SUM, root)
        report("reduce", hash_(rd, N, 9) if is_root else 0, color, k)
        ri[:] = si
        coll(comm, "Reduce", MPI.IN_PLACE if is_root else [si, N, INT], [ri, N, INT], MPI.MAX, root)
        report("reduce in place", hash_(ri, N, 21) if is_root else 0, color, k)
        ri[:] = array("i", [0] * len(ri))
        coll(comm, "Gatherv", [si, counts[rank], INT], [ri, counts, displs, INT], root)
        report("gatherv", hash_(ri, sum(counts), 18) if is_root else 0, color, k)
        coll(comm, "Scatterv", [si, counts, displs, INT], [ri, counts[rank], INT], root)
        report("scatterv", hash_(ri, counts[rank], 19), color, k)
        ri[:] = array("i", [0] * len(ri))
        coll(comm, "Gather", [si, N, INT], [ri, N, INT], root)
        report("gather", hash_(ri, N * np_, 14) if is_root else 0, color, k)
        ri[:] = array("i", [0] * len(ri))
        if is_root:
            ri[rank * N:rank * N + N] = si[:N]
        coll(comm, "Gather", MPI.IN_PLACE if is_root else [si, N, INT], [ri, N, INT], root)
        report("gather in place", hash_(ri, N * np_, 15) if is_root else 0, color, k)
        coll(comm, "Scatter", [si, N, INT], [ri, N, INT], root)
        report("scatter", hash_(ri, N, 16), color, k)
        ri[:] = array("i", [0] * len(ri))
        coll(comm, "Scatter", [si, N, INT], MPI.IN_PLACE if is_root else [ri, N, INT], root)
        report("scatter in place", 0 if is_root else hash_(ri, N, 17), color, k)
    strided.Free()


def run(comm, color):
    rank, np_ = comm.rank, comm.size
    INT, DOUBLE = MPI.INT, MPI.DOUBLE
    si = array("i", [rank * 100000 + i for i in range(N * np_)])
    ri = array("i", [0] * (N * np_))
    sd = array("d", [float((rank + 1) * (i % 11)) for i in range(N * np_)])
    rd = array("d", [0.0] * (N * np_))

    coll(comm, "Allgather", [si, N, INT], [ri, N, INT])
    report("allgather", hash_(ri, N * np_, 1), color)
    ri[rank * N:rank * N + N] = si[:N]
    coll(comm, "Allgather", MPI.IN_PLACE, [ri, N, INT])
    report("allgather in place", hash_(ri, N * np_, 2), color)
    # a block of N integers as one element of a derived type
    block = INT.Create_contiguous(N).Commit()
    coll(comm, "Allgather", [si, 1, block], [ri, N, INT])
    report("allgather derived", hash_(ri, N * np_, 22), color)
    ri[:] = si
    coll(comm, "Bcast", [ri, 1, block], 0)
    report("bcast derived", hash_(ri, N, 24), color)
    block.Free()
    coll(comm, "Alltoall", [si, N, INT], [ri, N, INT])
    report("alltoall", hash_(ri, N * np_, 3), color)
    ri[:] = si
    coll(comm, "Alltoall", MPI.IN_PLACE, [ri, N, INT])
    report("alltoall in place", hash_(ri, N * np_, 25), color)

    coll(comm, "Allreduce", [sd, N, DOUBLE], [rd, N, DOUBLE], MPI.SUM)
    report("allreduce double", hash_(rd, N, 4), color)
    ri[:] = si
    coll(comm, "Allreduce", MPI.IN_PLACE, [ri, N, INT], MPI.MAX)
    report("allreduce in place", hash_(ri, N, 5), color)
    # pairs of integers, a derived type, under the program's operation
    pair = INT.Create_contiguous(2).Commit()
    pair_max = MPI.Op.Create(pair_max_fn, commute=True)
    coll(comm, "Allreduce", [si, N // 2, pair], [ri, N // 2, pair], pair_max)
    report("allreduce pairs", hash_(ri, N // 2 * 2, 23), color)
    pair_max.Free()
    pair.Free()

    rooted(comm, color, si, ri, sd, rd)

    coll(comm, "Reduce_scatter_block", [si, N, INT], [ri, N, INT], MPI.SUM)
    report("reduce_scatter_block", hash_(ri, N, 8), color)
    ri[:] = si
    coll(comm, "Reduce_scatter_block", MPI.IN_PLACE, [ri, N, INT], MPI.SUM)
    report("reduce_scatter_block in place", hash_(ri, N, 26), color)
    counts, displs = vblocks(np_)
    ri[:] = array("i", [0] * len(ri))
    coll(comm, "Allgatherv", [si, counts[rank], INT], [ri, counts, displs, INT])
    report("allgatherv", hash_(ri, sum(counts), 10), color)
    # the same counts: rank r's block of the sum
    coll(comm, "Reduce_scatter", [si, sum(counts), INT], [ri, counts[rank], INT], counts, MPI.SUM)
    report("reduce_scatter", hash_(ri, counts[rank], 11), color)
    # (s + 2d) % 3 integers from rank s to rank d (zeros included); sent in
    # rank order, received in reverse rank order
    sc = [(rank + 2 * q) % 3 for q in range(np_)]
    rc = [(q + 2 * rank) % 3 for q in range(np_)]
    sdis = [sum(sc[:q]) for q in range(np_)]
    rdis = [sum(rc[q + 1:]) for q in range(np_)]
    ri[:] = array("i", [0] * len(ri))
    coll(comm, "Alltoallv", [si, sc, sdis, INT], [ri, rc, rdis, INT])
    report("alltoallv", hash_(ri, sum(rc), 20), color)

    # prefix reductions; exscan leaves rank 0's receive buffer undefined
    coll(comm, "Scan", [sd, N, DOUBLE], [rd, N, DOUBLE], MPI.SUM)
    report("scan", hash_(rd, N, 12), color)
    ri[:] = si
    coll(comm, "Scan", MPI.IN_PLACE, [ri, N, INT], MPI.MAX)
    report("scan in place", hash_(ri, N, 27), color)
    coll(comm, "Exscan", [si, N, INT], [ri, N, INT], MPI.SUM)
    report("exscan", hash_(ri, N, 28) if rank > 0 else 0, color)
    ri[:] = si
    coll(comm, "Exscan", MPI.IN_PLACE, [ri, N, INT], MPI.SUM)
    report("exscan in place", hash_(ri, N, 13) if rank > 0 else 0, color)
    coll(comm, "Barrier")
    report("barrier", 0, color)


if mode == "persistent" and not hasattr(MPI.Intracomm, "Allreduce_init") and world.rank == 0:
    print(f"app.py: mpi4py {__import__('mpi4py').__version__} has no persistent collectives:"
          " persistent runs as nb", file=sys.stderr)
run(world, 0)
half = world.Split(world.rank % 2, world.size - world.rank)
run(half, 1 + world.rank % 2)
half.Free()
