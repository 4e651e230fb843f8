! A plain Fortran MPI program for the component test (run.sh): every
! collective blocking, non-blocking or persistent, in place and not, with
! derived datatypes, MPI_BOTTOM, an operation of its own and every root, on
! MPI_COMM_WORLD and on a split communicator. Rank 0 prints one line per
! call: a label and each rank's hash of its result. Integer data (doubles
! with exact sums), so that every algorithm gives the same bits.
!
!   app_<binding> [blocking|nb|persistent]
!
! One source, three programs: compiled with -DMPIFH (include 'mpif.h'),
! -DUSEMPI (use mpi) or -DF08 (use mpi_f08). nb: MPI_I<name> and MPI_Wait;
! persistent: Open MPI 4.1's MPIX_<Name>_init (its pcollreq extension:
! mpif-ext.h, use mpi_ext, use mpi_f08_ext), or with -DMPI4_PERSISTENT
! MPI-4's MPI_<Name>_init (MPICH 4), MPI_Start, MPI_Wait,
! MPI_Request_free.
!
! gfortran's preprocessor is traditional (no variadic macros): COLL<k> is
! the dispatch for a call of k arguments. Expanded lines are long: build
! with -ffree-line-length-none.
#if defined(F08)
#define HANDLE(kind) type(MPI_/**/kind)
#else
#define HANDLE(kind) integer
#endif
#if defined(MPI4_PERSISTENT)
#define DISPATCH(Name, b, nb, p) \
  ierr = -1; if (mode == BLOCKING) then; call MPI_/**/Name b; \
  else if (mode == NB) then; call MPI_I/**/Name nb; \
  else; call MPI_/**/Name/**/_init p; end if; call finish(req, ierr)
#else
#define DISPATCH(Name, b, nb, p) \
  ierr = -1; if (mode == BLOCKING) then; call MPI_/**/Name b; \
  else if (mode == NB) then; call MPI_I/**/Name nb; \
  else; call MPIX_/**/Name/**/_init p; end if; call finish(req, ierr)
#endif
#define COLL1(N, a) DISPATCH(N, (a, ierr), (a, req, ierr), (a, MPI_INFO_NULL, req, ierr))
#define COLL5(N, a, b, c, d, e) DISPATCH(N, (a, b, c, d, e, ierr), (a, b, c, d, e, req, ierr), (a, b, c, d, e, MPI_INFO_NULL, req, ierr))
#define COLL6(N, a, b, c, d, e, f) DISPATCH(N, (a, b, c, d, e, f, ierr), (a, b, c, d, e, f, req, ierr), (a, b, c, d, e, f, MPI_INFO_NULL, req, ierr))
#define COLL7(N, a, b, c, d, e, f, g) DISPATCH(N, (a, b, c, d, e, f, g, ierr), (a, b, c, d, e, f, g, req, ierr), (a, b, c, d, e, f, g, MPI_INFO_NULL, req, ierr))
#define COLL8(N, a, b, c, d, e, f, g, h) DISPATCH(N, (a, b, c, d, e, f, g, h, ierr), (a, b, c, d, e, f, g, h, req, ierr), (a, b, c, d, e, f, g, h, MPI_INFO_NULL, req, ierr))
#define COLL9(N, a, b, c, d, e, f, g, h, i) DISPATCH(N, (a, b, c, d, e, f, g, h, i, ierr), (a, b, c, d, e, f, g, h, i, req, ierr), (a, b, c, d, e, f, g, h, i, MPI_INFO_NULL, req, ierr))

module app_m
  use, intrinsic :: iso_fortran_env, only: error_unit
#if defined(F08)
  use mpi_f08
#if !defined(MPI4_PERSISTENT)
  use mpi_f08_ext
#endif
#elif defined(USEMPI)
  use mpi
#if !defined(MPI4_PERSISTENT)
  use mpi_ext
#endif
#endif
  implicit none
#if defined(MPIFH)
  include 'mpif.h'
#if !defined(MPI4_PERSISTENT)
  include 'mpif-ext.h'
#endif
#endif
  integer, parameter :: BLOCKING = 1, NB = 2, PERSISTENT = 3, n = 37
  integer :: mode = BLOCKING
  ! the requests completed so far: which completion call completes the next
  integer :: completed = 0
  ! a hash of the indices and counts the completion calls returned (printed
  ! at the end: compared, not checked; not kept with -DF08_INDICES_FROM_0:
  ! MPICH 4.0.2's own use mpi_f08 MPI_Waitany & co. return C's 0-based
  ! indices, which a program's reference run would print)
  integer(8) :: indices = 0
  ! the buffers of the running calls (asynchronous: MPI writes them while
  ! a non-blocking or persistent call is pending)
  integer, allocatable, asynchronous :: si(:), ri(:)
  double precision, allocatable, asynchronous :: sd(:), rd(:)
contains

  ! Completes the call that DISPATCH made in the program's mode, after
  ! checking the error code it set (cerr).
  subroutine finish(req, cerr)
    HANDLE(Request), intent(inout) :: req
    integer, intent(in) :: cerr
    HANDLE(Request) :: reqs(1)
    integer :: ierr
    if (cerr /= MPI_SUCCESS) then
      write(error_unit, '(a, i0)') 'app: a collective returned ', cerr
      call MPI_Abort(MPI_COMM_WORLD, 3, ierr)
    end if
    if (mode == NB) then
      call complete(req)
      if (req /= MPI_REQUEST_NULL) call fail('a completed request is not MPI_REQUEST_NULL')
    else if (mode == PERSISTENT) then
      if (mod(completed, 2) == 0) then
        call MPI_Start(req, ierr)
      else
        reqs(1) = req
        call MPI_Startall(1, reqs, ierr)
        req = reqs(1)
      end if
      call complete(req)
      if (req == MPI_REQUEST_NULL) call fail('a completed persistent request is MPI_REQUEST_NULL')
      call MPI_Request_free(req, ierr)
      if (req /= MPI_REQUEST_NULL) call fail('a freed request is not MPI_REQUEST_NULL')
    end if
  end subroutine finish

  ! Completes req with the next of the completion calls in turn (a Test
  ! loop polls), with and without statuses.
  subroutine complete(req)
    HANDLE(Request), intent(inout) :: req
    HANDLE(Request) :: reqs(1)
#if defined(F08)
    type(MPI_Status) :: st, sts(1)
#else
    integer :: st(MPI_STATUS_SIZE), sts(MPI_STATUS_SIZE, 1)
#endif
    integer :: ierr, idx, cnt, idxs(1)
    logical :: done
    reqs(1) = req
    select case (mod(completed, 10))
    case (0)
      call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
    case (1)
      call MPI_Wait(req, st, ierr)
    case (2)
      done = .false.
      do while (.not. done)
        call MPI_Test(req, done, st, ierr)
      end do
    case (3)
      call MPI_Waitall(1, reqs, sts, ierr)
    case (4)
      call MPI_Waitany(1, reqs, idx, st, ierr)
      call seen(idx)
    case (5)
      call MPI_Waitsome(1, reqs, cnt, idxs, sts, ierr)
      call seen(cnt)
      call seen(idxs(1))
    case (6)
      ! (MPICH 4.0.2's own MPI_Testall fails on a persistent collective's
      ! request: MPI_Waitall there)
      if (mode == NB) then
        done = .false.
        do while (.not. done)
          call MPI_Testall(1, reqs, done, sts, ierr)
        end do
      else
        call MPI_Waitall(1, reqs, MPI_STATUSES_IGNORE, ierr)
      end if
    case (7)
      done = .false.
      do while (.not. done)
        call MPI_Testany(1, reqs, idx, done, MPI_STATUS_IGNORE, ierr)
      end do
      call seen(idx)
    case (8)
      cnt = 0
      do while (cnt == 0)
        call MPI_Testsome(1, reqs, cnt, idxs, MPI_STATUSES_IGNORE, ierr)
      end do
      call seen(cnt)
      call seen(idxs(1))
    case default
      done = .false.
      do while (.not. done)
        call MPI_Request_get_status(req, done, st, ierr)
      end do
      call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
    end select
    if (mod(completed, 10) >= 3 .and. mod(completed, 10) <= 8) req = reqs(1)
    if (ierr /= MPI_SUCCESS) call fail('a completion call returned an error')
    completed = completed + 1
  end subroutine complete

  subroutine seen(i)
    integer, intent(in) :: i
#if !(defined(F08) && defined(F08_INDICES_FROM_0))
    indices = modulo(indices * 31 + i, 2147483647_8)
#endif
  end subroutine seen

  subroutine fail(what)
    character(*), intent(in) :: what
    integer :: ierr
    write(error_unit, '(2a)') 'app: ', what
    call MPI_Abort(MPI_COMM_WORLD, 3, ierr)
  end subroutine fail

  ! A polynomial hash of cnt integers (or doubles' bits) modulo 2**31 - 1.
  integer(8) function hash(a, cnt, seed)
    integer, intent(in) :: a(*), cnt, seed
    integer :: i
    hash = seed
    do i = 1, cnt
      hash = modulo(hash * 65599_8 + a(i), 2147483647_8)
    end do
  end function hash

  integer(8) function hashd(x, cnt, seed)
    double precision, intent(in) :: x(*)
    integer, intent(in) :: cnt, seed
    integer :: i
    hashd = seed
    do i = 1, cnt
      hashd = modulo(hashd * 65599_8 + modulo(transfer(x(i), 0_8), 2147483647_8), 2147483647_8)
    end do
  end function hashd

  ! Every rank's communicator (color) and result hash (0: nothing defined
  ! to hash), gathered to rank 0 of MPI_COMM_WORLD (blocking in every
  ! mode), which prints them on one line. Both halves of the split call it
  ! together.
  subroutine report(what, h, color, round)
    character(*), intent(in) :: what
    integer(8), intent(in) :: h
    integer, intent(in) :: color
    integer, intent(in), optional :: round
    integer(8), allocatable :: all(:)
    integer(8) :: mine(2)
    character(len=32) :: label
    integer :: wrank, wsize, ierr
    call MPI_Comm_rank(MPI_COMM_WORLD, wrank, ierr)
    call MPI_Comm_size(MPI_COMM_WORLD, wsize, ierr)
    allocate(all(2 * wsize))
    mine = [int(color, 8), h]
    call MPI_Gather(mine, 2, MPI_INTEGER8, all, 2, MPI_INTEGER8, 0, MPI_COMM_WORLD, ierr)
    label = what
    if (present(round)) write(label, '(a, " round ", i0)') what, round
    if (wrank == 0) write(*, '(a, *(1x, i0, ":", i0))') label, all
  end subroutine report

  ! The larger sum of each pair of integers: an operation of the program's.
#if defined(F08)
  subroutine pair_max_fn(invec, inoutvec, len, datatype)
    use, intrinsic :: iso_c_binding, only: c_ptr, c_f_pointer
    type(c_ptr), value :: invec, inoutvec
    integer :: len
    type(MPI_Datatype) :: datatype
    integer, pointer :: a(:, :), b(:, :)
    integer :: i
    call c_f_pointer(invec, a, [2, len])
    call c_f_pointer(inoutvec, b, [2, len])
#else
  subroutine pair_max_fn(a, b, len, datatype)
    integer :: len, datatype, a(2, len), b(2, len)
    integer :: i
#endif
    do i = 1, len
      if (a(1, i) + a(2, i) > b(1, i) + b(2, i)) b(:, i) = a(:, i)
    end do
  end subroutine pair_max_fn

  ! Rank r's block of r % 3 + 1 integers, the blocks in reverse rank order.
  subroutine vblocks(np, counts, displs)
    integer, intent(in) :: np
    integer, intent(out) :: counts(0:np - 1), displs(0:np - 1)
    integer :: r
    counts = [(mod(r, 3) + 1, r = 0, np - 1)]
    displs(np - 1) = 0
    do r = np - 2, 0, -1
      displs(r) = displs(r + 1) + counts(r + 1)
    end do
  end subroutine vblocks

  ! The rooted collectives at every root of comm: round k at root
  ! k % size, as many rounds as MPI_COMM_WORLD has ranks, so that the
  ! halves of a split report together.
  subroutine rooted(comm, color)
    HANDLE(Comm), intent(in) :: comm
    integer, intent(in) :: color
    HANDLE(Request) :: req
    HANDLE(Datatype) :: strided
    integer, allocatable :: counts(:), displs(:)
    integer :: rank, np, wsize, k, root, total, ierr
    call MPI_Comm_rank(comm, rank, ierr)
    call MPI_Comm_size(comm, np, ierr)
    call MPI_Comm_size(MPI_COMM_WORLD, wsize, ierr)
    allocate(counts(0:np - 1), displs(0:np - 1))
    call vblocks(np, counts, displs)
    total = sum(counts)
    ! every other integer (MPI's reductions take predefined types only:
    ! the strided type goes to a broadcast)
    call MPI_Type_vector(n / 2, 1, 2, MPI_INTEGER, strided, ierr)
    call MPI_Type_commit(strided, ierr)
    do k = 0, wsize - 1
      root = mod(k, np)
      ri = si
      COLL5(Bcast, ri, 1, strided, root, comm)
      call report('bcast strided', hash(ri, n, 6), color, k)
      ri = si
      COLL5(Bcast, ri, n, MPI_INTEGER, root, comm)
      call report('bcast', hash(ri, n, 7), color, k)
      rd = 0
      COLL7(Reduce, sd, rd, n, MPI_DOUBLE_PRECISION, MPI_SUM, root, comm)
      call report('reduce', merge(hashd(rd, n, 9), 0_8, rank == root), color, k)
      ri = si
      if (rank == root) then
        COLL7(Reduce, MPI_IN_PLACE, ri, n, MPI_INTEGER, MPI_MAX, root, comm)
      else
        COLL7(Reduce, si, ri, n, MPI_INTEGER, MPI_MAX, root, comm)
      end if
      call report('reduce in place', merge(hash(ri, n, 21), 0_8, rank == root), color, k)
      ri = 0
      COLL9(Gatherv, si, counts(rank), MPI_INTEGER, ri, counts, displs, MPI_INTEGER, root, comm)
      call report('gatherv', merge(hash(ri, total, 18), 0_8, rank == root), color, k)
      COLL9(Scatterv, si, counts, displs, MPI_INTEGER, ri, counts(rank), MPI_INTEGER, root, comm)
      call report('scatterv', hash(ri, counts(rank), 19), color, k)
      ri = 0
      COLL8(Gather, si, n, MPI_INTEGER, ri, n, MPI_INTEGER, root, comm)
      call report('gather', merge(hash(ri, n * np, 14), 0_8, rank == root), color, k)
      ri = 0
      if (rank == root) then
        ri(rank * n + 1:rank * n + n) = si(1:n)
        COLL8(Gather, MPI_IN_PLACE, n, MPI_INTEGER, ri, n, MPI_INTEGER, root, comm)
      else
        COLL8(Gather, si, n, MPI_INTEGER, ri, n, MPI_INTEGER, root, comm)
      end if
      call report('gather in place', merge(hash(ri, n * np, 15), 0_8, rank == root), color, k)
      COLL8(Scatter, si, n, MPI_INTEGER, ri, n, MPI_INTEGER, root, comm)
      call report('scatter', hash(ri, n, 16), color, k)
      ri = 0
      if (rank == root) then
        COLL8(Scatter, si, n, MPI_INTEGER, MPI_IN_PLACE, n, MPI_INTEGER, root, comm)
      else
        COLL8(Scatter, si, n, MPI_INTEGER, ri, n, MPI_INTEGER, root, comm)
      end if
      call report('scatter in place', merge(0_8, hash(ri, n, 17), rank == root), color, k)
    end do
    call MPI_Type_free(strided, ierr)
  end subroutine rooted

  subroutine run(comm, color)
    HANDLE(Comm), intent(in) :: comm
    integer, intent(in) :: color
    HANDLE(Request) :: req
    HANDLE(Datatype) :: block, pair, absolute
    HANDLE(Op) :: pair_max
    integer(kind=MPI_ADDRESS_KIND) :: addr
    integer, allocatable :: counts(:), displs(:), sc(:), sdis(:), rc(:), rdis(:)
    integer :: rank, np, i, q, ierr
    call MPI_Comm_rank(comm, rank, ierr)
    call MPI_Comm_size(comm, np, ierr)
    allocate(si(n * np), ri(n * np), sd(n * np), rd(n * np))
    si = [(rank * 100000 + i, i = 0, n * np - 1)]
    sd = [((rank + 1) * mod(i, 11), i = 0, n * np - 1)]

    COLL7(Allgather, si, n, MPI_INTEGER, ri, n, MPI_INTEGER, comm)
    call report('allgather', hash(ri, n * np, 1), color)
    ri(rank * n + 1:rank * n + n) = si(1:n)
    COLL7(Allgather, MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, ri, n, MPI_INTEGER, comm)
    call report('allgather in place', hash(ri, n * np, 2), color)
    ! a block of n integers as one element of a derived type
    call MPI_Type_contiguous(n, MPI_INTEGER, block, ierr)
    call MPI_Type_commit(block, ierr)
    COLL7(Allgather, si, 1, block, ri, n, MPI_INTEGER, comm)
    call report('allgather derived', hash(ri, n * np, 22), color)
    ri = si
    COLL5(Bcast, ri, 1, block, 0, comm)
    call report('bcast derived', hash(ri, n, 24), color)
    call MPI_Type_free(block, ierr)
    ! ri's first n integers by their address: MPI_BOTTOM and a type of
    ! absolute displacements
    call MPI_Get_address(ri, addr, ierr)
    call MPI_Type_create_hindexed(1, [n], [addr], MPI_INTEGER, absolute, ierr)
    call MPI_Type_commit(absolute, ierr)
    ri = si
    COLL5(Bcast, MPI_BOTTOM, 1, absolute, 0, comm)
    call report('bcast bottom', hash(ri, n, 29), color)
    call MPI_Type_free(absolute, ierr)
    ! an error returned in ierror: a root out of range, under
    ! MPI_ERRORS_RETURN
    call MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN, ierr)
    ierr = MPI_SUCCESS
    call MPI_Bcast(ri, n, MPI_INTEGER, np, comm, ierr)
    call report('bcast bad root', merge(1_8, 0_8, ierr /= MPI_SUCCESS), color)
    call MPI_Comm_set_errhandler(comm, MPI_ERRORS_ARE_FATAL, ierr)
    COLL7(Alltoall, si, n, MPI_INTEGER, ri, n, MPI_INTEGER, comm)
    call report('alltoall', hash(ri, n * np, 3), color)
    ri = si
    COLL7(Alltoall, MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, ri, n, MPI_INTEGER, comm)
    call report('alltoall in place', hash(ri, n * np, 25), color)

    COLL6(Allreduce, sd, rd, n, MPI_DOUBLE_PRECISION, MPI_SUM, comm)
    call report('allreduce double', hashd(rd, n, 4), color)
    ri = si
    COLL6(Allreduce, MPI_IN_PLACE, ri, n, MPI_INTEGER, MPI_MAX, comm)
    call report('allreduce in place', hash(ri, n, 5), color)
    ! pairs of integers, a derived type, under the program's operation
    call MPI_Type_contiguous(2, MPI_INTEGER, pair, ierr)
    call MPI_Type_commit(pair, ierr)
    call MPI_Op_create(pair_max_fn, .true., pair_max, ierr)
    COLL6(Allreduce, si, ri, n / 2, pair, pair_max, comm)
    call report('allreduce pairs', hash(ri, n / 2 * 2, 23), color)
    call MPI_Op_free(pair_max, ierr)
    call MPI_Type_free(pair, ierr)

    call rooted(comm, color)

    COLL6(Reduce_scatter_block, si, ri, n, MPI_INTEGER, MPI_SUM, comm)
    call report('reduce_scatter_block', hash(ri, n, 8), color)
    ri = si
    COLL6(Reduce_scatter_block, MPI_IN_PLACE, ri, n, MPI_INTEGER, MPI_SUM, comm)
    call report('reduce_scatter_block in place', hash(ri, n, 26), color)
    allocate(counts(0:np - 1), displs(0:np - 1))
    call vblocks(np, counts, displs)
    ri = 0
    COLL8(Allgatherv, si, counts(rank), MPI_INTEGER, ri, counts, displs, MPI_INTEGER, comm)
    call report('allgatherv', hash(ri, sum(counts), 10), color)
    ! the same counts: rank r's block of the sum
    COLL6(Reduce_scatter, si, ri, counts, MPI_INTEGER, MPI_SUM, comm)
    call report('reduce_scatter', hash(ri, counts(rank), 11), color)
    ! (s + 2d) % 3 integers from rank s to rank d (zeros included); sent in
    ! rank order, received in reverse rank order
    allocate(sc(0:np - 1), sdis(0:np - 1), rc(0:np - 1), rdis(0:np - 1))
    sc = [(mod(rank + 2 * q, 3), q = 0, np - 1)]
    rc = [(mod(q + 2 * rank, 3), q = 0, np - 1)]
    sdis(0) = 0
    rdis(np - 1) = 0
    do q = 1, np - 1
      sdis(q) = sdis(q - 1) + sc(q - 1)
      rdis(np - 1 - q) = rdis(np - q) + rc(np - q)
    end do
    ri = 0
    COLL9(Alltoallv, si, sc, sdis, MPI_INTEGER, ri, rc, rdis, MPI_INTEGER, comm)
    call report('alltoallv', hash(ri, sum(rc), 20), color)

    ! prefix reductions; exscan leaves rank 0's receive buffer undefined
    COLL6(Scan, sd, rd, n, MPI_DOUBLE_PRECISION, MPI_SUM, comm)
    call report('scan', hashd(rd, n, 12), color)
    ri = si
    COLL6(Scan, MPI_IN_PLACE, ri, n, MPI_INTEGER, MPI_MAX, comm)
    call report('scan in place', hash(ri, n, 27), color)
    COLL6(Exscan, si, ri, n, MPI_INTEGER, MPI_SUM, comm)
    call report('exscan', merge(hash(ri, n, 28), 0_8, rank > 0), color)
    ri = si
    COLL6(Exscan, MPI_IN_PLACE, ri, n, MPI_INTEGER, MPI_SUM, comm)
    call report('exscan in place', merge(hash(ri, n, 13), 0_8, rank > 0), color)
    COLL1(Barrier, comm)
    call report('barrier', 0_8, color)
    deallocate(si, ri, sd, rd)
  end subroutine run
end module app_m

program app
  use app_m
  use, intrinsic :: iso_fortran_env, only: error_unit
  implicit none
  character(len=16) :: arg
  HANDLE(Comm) :: half
  integer :: rank, np, ierr
  call MPI_Init(ierr)
  call get_command_argument(1, arg)
  select case (arg)
  case ('blocking', '')
    mode = BLOCKING
  case ('nb')
    mode = NB
  case ('persistent')
    mode = PERSISTENT
  case default
    write(error_unit, '(a)') 'usage: app blocking|nb|persistent'
    call MPI_Abort(MPI_COMM_WORLD, 2, ierr)
  end select
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, np, ierr)
  call run(MPI_COMM_WORLD, 0)
  call MPI_Comm_split(MPI_COMM_WORLD, mod(rank, 2), np - rank, half, ierr)
  call run(half, 1 + mod(rank, 2))
  call MPI_Comm_free(half, ierr)
  call report('completion indices', indices, 0)
  call MPI_Finalize(ierr)
end program app
