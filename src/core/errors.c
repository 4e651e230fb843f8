/* Errors: argument checks and raising through the error handler. */
#include "runtime.h"

int mpicoll_raise(MPI_Comm comm, int code)
{
    if (code == MPI_SUCCESS)
        return code;
    PMPI_Comm_call_errhandler(comm == MPI_COMM_NULL ? MPI_COMM_WORLD : comm, code);
    return code;
}

int check_comm(MPI_Comm comm)
{
    int inter = 0;
    if (comm == MPI_COMM_NULL)
        return MPI_ERR_COMM;
    if (PMPI_Comm_test_inter(comm, &inter) != MPI_SUCCESS || inter)
        return MPI_ERR_COMM;
    return MPI_SUCCESS;
}

int check_count_type(int count, MPI_Datatype t)
{
    if (count < 0)
        return MPI_ERR_COUNT;
    if (t == MPI_DATATYPE_NULL)
        return MPI_ERR_TYPE;
    return MPI_SUCCESS;
}
