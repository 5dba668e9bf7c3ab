#!/usr/bin/env bash
# ci-mpi-check: a distributed run gives the same results as a sequential one.
#
# Runs configs/mpi-fat-tree-small.json (k=4 fat-tree, Poisson + permutation +
# incast, PFC active) with the default build's roce-run (Debian's ns-3, sequential), with
# the MPI build's roce-run on one rank (no mpirun), and under `mpirun -np N` for each N in
# ROCE_LAB_MPI_NP (default "2"; "2 4" also checks four ranks), split by pod, and requires
# flows.csv, pfc.csv and summary.json to be byte-identical to the sequential run's.
# Needs ./roce-lab build and ./roce-lab setup --mpi first.
#
#   .ci/ci-mpi-check.sh            uses ROCE_LAB_BUILD_DIR (default ./build) and
#                                  ROCE_LAB_MPI_DIR (default $ROCE_LAB_BUILD_DIR/mpi)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${ROCE_LAB_BUILD_DIR:-$ROOT/build}"
MPI_DIR="${ROCE_LAB_MPI_DIR:-$BUILD/mpi}"
CONFIG="${ROCE_LAB_MPI_CONFIG:-$ROOT/configs/mpi-fat-tree-small.json}"
read -r -a NPS <<<"${ROCE_LAB_MPI_NP:-2}"
SEQ="$BUILD/bin/roce-run"
DIST="$MPI_DIR/roce/bin/roce-run"

log() { printf 'ci-mpi: %s\n' "$*" >&2; }
[ -x "$SEQ" ] || { log "no $SEQ: run ./roce-lab build first"; exit 1; }
[ -x "$DIST" ] || { log "no $DIST: run ./roce-lab setup --mpi first"; exit 1; }

# Open MPI refuses root without these; in containers its shared-memory single-copy path
# (CMA) is often not permitted, so use plain copies.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl_vader_single_copy_mechanism=none

T="$(mktemp -d /tmp/roce-lab-mpi.XXXXXX)"
trap 'rm -rf "$T"' EXIT

timed() { # timed LABEL COMMAND...: run, report wall seconds
    local label="$1" start=$SECONDS
    shift
    "$@" >"$T/$label.log" 2>&1 || { cat "$T/$label.log" >&2; log "$label failed"; exit 1; }
    log "$label: $(tail -2 "$T/$label.log" | head -1) [$((SECONDS - start)) s]"
}

compare() { # compare DIR: same results as the sequential run
    local f status=0
    for f in flows.csv pfc.csv summary.json; do
        if ! cmp -s "$T/seq/$f" "$1/$f"; then
            log "$f differs from the sequential run's ($1):"
            diff "$T/seq/$f" "$1/$f" | head -20 >&2 || true
            status=1
        fi
    done
    return $status
}

timed seq "$SEQ" "$CONFIG" --out "$T/seq"
timed np1 "$DIST" "$CONFIG" --out "$T/np1"
compare "$T/np1"
for np in "${NPS[@]}"; do
    timed "np$np" mpirun -np "$np" --oversubscribe "$DIST" "$CONFIG" --out "$T/np$np" --partition=pod
    compare "$T/np$np"
    ls "$T/np$np"/queues-rank*.csv >/dev/null
    grep -q '^queues-rank<R>.csv: ' "$T/np$np/README" || { log "np$np: README lacks queues-rank<R>.csv"; exit 1; }
done
log "flows.csv, pfc.csv and summary.json identical on 1 (sequential and MPI build) and ${NPS[*]} ranks"
