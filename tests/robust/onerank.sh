#!/bin/sh
# onerank.sh RANK VAR=VALUE PROGRAM ARGS...: runs PROGRAM with VAR=VALUE in
# its environment on MPI_COMM_WORLD rank RANK only (Open MPI, MPICH), so
# that a setting differs between the ranks (robust.agree.*).
rank=$1 setting=$2
shift 2
me=${OMPI_COMM_WORLD_RANK:-${PMI_RANK:-${PMIX_RANK:-}}}
if [ -z "$me" ]; then
  echo "FAIL onerank.sh: the launcher gives no rank (OMPI_COMM_WORLD_RANK, PMI_RANK)"
  exit 1
fi
if [ "$me" = "$rank" ]; then
  exec env "$setting" "$@"
fi
exec "$@"
