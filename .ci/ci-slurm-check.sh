#!/usr/bin/env bash
# ci-slurm-check: the --slurm path of `./roce-lab sweep` on a real SLURM.
#
# Installs Debian's slurm-wlm and munge when missing, starts munged, slurmctld and slurmd
# for one node on 127.0.0.1 (configuration, keys, state and logs in a temporary
# directory; no systemd needed), submits configs/sweeps/dumbbell-smoke.json as a job
# array plus its gather job, waits (bounded) and checks the gathered table: one row per
# run, every status "done", the numbers equal to each run's summary.json; the array script
# carries the run list and the sweep's --time, the sweep's README each run's status. Stops the
# daemons it started. Needs root (to install packages and run slurmd).
#
#   .ci/ci-slurm-check.sh            uses ROCE_LAB_BUILD_DIR (default ./build)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${ROCE_LAB_BUILD_DIR:-$ROOT/build}"
SWEEP="$ROOT/configs/sweeps/dumbbell-smoke.json"
WAIT_S="${ROCE_LAB_SLURM_WAIT_S:-150}"

log() { printf 'ci-slurm: %s\n' "$*" >&2; }

if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
    log "installing slurm-wlm and munge"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -q >&2
    apt-get install -y -q --no-install-recommends slurm-wlm munge >&2
fi
[ -x "$BUILD/bin/roce-run" ] || { log "no $BUILD/bin/roce-run: build first (./roce-lab build)"; exit 1; }

T="$(mktemp -d /tmp/roce-lab-slurm.XXXXXX)"
chmod 755 "$T"
PIDS=()
cleanup() {
    local rc=$?
    for pid in "${PIDS[@]}"; do
        kill "$pid" 2>/dev/null || true
    done
    for pid in "${PIDS[@]}"; do
        for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -9 "$pid" 2>/dev/null || true
    done
    if [ $rc -ne 0 ]; then
        for f in "$T"/log/*.log; do
            [ -f "$f" ] && { log "---- $f (last 30 lines)"; tail -30 "$f" >&2; }
        done
    fi
    rm -rf "$T"
    exit $rc
}
trap cleanup EXIT

free_port() {
    /usr/bin/python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

mkdir -p "$T/munge" "$T/state" "$T/spool" "$T/log" "$T/out"
# munged insists on a private key file and directories not writable by others.
dd if=/dev/urandom of="$T/munge/munge.key" bs=1024 count=1 status=none
chmod 700 "$T/munge"
chmod 400 "$T/munge/munge.key"
log "starting munged"
munged --force --key-file="$T/munge/munge.key" --socket="$T/munge/socket" \
    --pid-file="$T/munge/munged.pid" --log-file="$T/log/munged.log" --seed-file="$T/munge/seed"
for _ in $(seq 50); do [ -S "$T/munge/socket" ] && break; sleep 0.1; done
[ -S "$T/munge/socket" ] || { log "munged did not start"; exit 1; }
PIDS+=("$(cat "$T/munge/munged.pid")")

CTLD_PORT="$(free_port)"
SLURMD_PORT="$(free_port)"
CPUS="$(nproc)"
export SLURM_CONF="$T/slurm.conf"
cat >"$SLURM_CONF" <<EOF
ClusterName=rocelab
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$CTLD_PORT
SlurmdPort=$SLURMD_PORT
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$T/munge/socket
CredType=cred/munge
StateSaveLocation=$T/state
SlurmdSpoolDir=$T/spool
SlurmctldPidFile=$T/slurmctld.pid
SlurmdPidFile=$T/slurmd.pid
SlurmctldLogFile=$T/log/slurmctld.log
SlurmdLogFile=$T/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
MpiDefault=none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SlurmdTimeout=30
NodeName=localhost NodeAddr=127.0.0.1 CPUs=$CPUS RealMemory=1000 State=UNKNOWN
PartitionName=ci Nodes=localhost Default=YES MaxTime=10 State=UP
EOF

log "starting slurmctld (port $CTLD_PORT) and slurmd (port $SLURMD_PORT)"
slurmctld -i -D >"$T/log/slurmctld.out" 2>&1 &
PIDS+=($!)
slurmd -D -N localhost >"$T/log/slurmd.out" 2>&1 &
PIDS+=($!)
for _ in $(seq 60); do
    state="$(sinfo -h -N -o '%T' 2>/dev/null | head -1 || true)"
    [ "$state" = idle ] && break
    sleep 0.5
done
[ "${state:-}" = idle ] || { log "node did not become idle (state '${state:-none}')"; exit 1; }
log "node idle; submitting the sweep"

OUT="$T/out/sweep"
start=$SECONDS
# --wait: sbatch returns when the gather job (after the whole array) has ended.
timeout "$WAIT_S" /usr/bin/python3 "$ROOT/analysis/roce_lab" slurm "$SWEEP" --out "$OUT" \
    --roce-run "$BUILD/bin/roce-run" --wait
log "array and gather jobs done in $((SECONDS - start)) s"

ROOT="$ROOT" /usr/bin/python3 - "$SWEEP" "$OUT" <<'EOF'
import csv, json, os, sys
sys.path.insert(0, os.path.join(os.environ["ROOT"], "analysis"))
import roce_lab
sweep = roce_lab.Sweep(sys.argv[1], sys.argv[2])
with open(os.path.join(sys.argv[2], "table.csv")) as f:
    rows = list(csv.DictReader(f))
assert [r["run"] for r in rows] == [r["name"] for r in sweep.runs], "rows != runs"
for row, run in zip(rows, sweep.runs):
    assert row["status"] == "done", (row["run"], row["status"])
    with open(os.path.join(sys.argv[2], run["name"], "summary.json")) as f:
        summary = json.load(f)
    assert int(row["finished"]) == summary["finished"] == summary["flows"], row["run"]
    assert float(row["fct_us.mean"]) == summary["fct_us"]["mean"], row["run"]
with open(os.path.join(sys.argv[2], "slurm", "array.sbatch")) as f:
    array = f.read()
# The tasks carry the resolved run list and the sweep's "slurm_time".
assert "#SBATCH --time=00:05:00\n" in array, "no --time in array.sbatch"
for i, run in enumerate(sweep.runs):
    assert "  %d) run=%s ;;\n" % (i, run["name"]) in array, run["name"]
with open(os.path.join(sys.argv[2], "README")) as f:
    readme = f.read()
statuses = dict(line.split() for line in readme.split("\nruns (")[1].split("\n\n")[0]
                .splitlines()[1:])
assert statuses == {r["name"]: "done" for r in sweep.runs}, "README statuses %s" % statuses
logs = [n for n in os.listdir(os.path.join(sys.argv[2], "slurm")) if n.startswith("run-")]
assert len(logs) == len(sweep.runs), "one log per array task: %d" % len(logs)
print("ci-slurm: table.csv: %d runs, all done and consistent with summary.json" % len(rows),
      file=sys.stderr)
EOF
log "OK"
