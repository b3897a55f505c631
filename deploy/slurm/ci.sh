#!/usr/bin/env bash
# CI on a real Slurm: starts munged, slurmctld and slurmd on this machine (a generated slurm.conf
# for localhost, 2 CPUs, everything under a temporary folder), runs a 4-shard array of a SimGrid
# sweep (64 runs) and its merge through submit.sh, and checks the merged CSV byte for byte against
# a one-process run; then removes one part, checks that merge refuses, re-runs that shard alone
# and merges again. The daemons are stopped on every exit.
#
# usage: deploy/slurm/ci.sh BUILD_DIR     (builds nothing; Debian's slurm-wlm and munge)
#
# Where Slurm cannot start (its programs absent, not root and no sudo) it says SKIPPED and exits 0;
# a daemon that does not start, a failed job or a difference fails it. About a minute on 2 cores.
set -uo pipefail
build=${1:?usage: deploy/slurm/ci.sh BUILD_DIR}
build=$(cd "$build" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
scalecast="$build/cli/scalecast"
skip() { echo "deploy/slurm/ci.sh: SKIPPED: $*"; exit 0; }
fail() { echo "deploy/slurm/ci.sh: FAILED: $*" >&2; exit 1; }
[ -x "$scalecast" ] || fail "no $scalecast (build the scalecast target first)"
[ -x "$build/cli/scalecast-simgrid" ] || skip "this build has no SimGrid backend (scalecast-simgrid), which the sweep replays on"
for program in munged slurmctld slurmd sbatch squeue sinfo scontrol; do
  command -v "$program" >/dev/null 2>&1 || [ -x "/usr/sbin/$program" ] ||
    skip "Slurm cannot start here: no $program (scripts/setup installs slurm-wlm and munge)"
done
if [ "$(id -u)" -ne 0 ]; then
  sudo -n true 2>/dev/null || skip "Slurm cannot start here: its daemons need root, and this user is not root and has no sudo"
  exec sudo -n -E "$0" "$@"
fi
export PATH="$PATH:/usr/sbin"

work=$(mktemp -d "${TMPDIR:-/tmp}/scalecast-slurm.XXXXXX")
chmod 755 "$work"
pids=()  # slurmctld and slurmd, once started
stop() {
  # Jobs first (their slurmstepd exit with them), then the daemons this script started, by pid.
  if [ ${#pids[@]} -gt 0 ]; then
    scancel --quiet --user="$(id -un)" 2>/dev/null
    for _ in $(seq 50); do [ -z "$(squeue -h 2>/dev/null)" ] && break; sleep 0.2; done
  fi
  for ((i = ${#pids[@]} - 1; i >= 0; i--)); do
    kill "${pids[i]}" 2>/dev/null && wait "${pids[i]}" 2>/dev/null
  done
  [ -f "$work/munge/munged.pid" ] && kill "$(cat "$work/munge/munged.pid")" 2>/dev/null
  rm -rf "$work"
}
trap stop EXIT

section() { printf '\n== %s\n' "$*"; }
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
host=$(hostname -s)
section "single-node Slurm on $host (in $work)"
mkdir -p "$work/munge" "$work/state" "$work/spool" "$work/logs" "$work/parts"
chmod 700 "$work/munge"
head -c 1024 /dev/urandom >"$work/munge/munge.key"
chmod 400 "$work/munge/munge.key"
munged --force --key-file="$work/munge/munge.key" --socket="$work/munge/munge.socket" \
  --pid-file="$work/munge/munged.pid" --log-file="$work/munge/munged.log" --seed-file="$work/munge/munged.seed" \
  >"$work/munge/start.log" 2>&1 || { cat "$work/munge/start.log" "$work/munge/munged.log" 2>/dev/null; fail "munged does not start"; }
ctld_port=$(free_port) slurmd_port=$(free_port)
cat >"$work/slurm.conf" <<CONF
ClusterName=scalecast-ci
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$work/munge/munge.socket
CredType=cred/munge
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/logs/slurmctld.log
SlurmdLogFile=$work/logs/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
NodeName=$host NodeAddr=127.0.0.1 CPUs=2 State=UNKNOWN
PartitionName=ci Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$work/slurm.conf"
slurmctld -D -i -f "$SLURM_CONF" >"$work/logs/slurmctld.out" 2>&1 &
pids+=($!)
slurmd -D -f "$SLURM_CONF" -N "$host" >"$work/logs/slurmd.out" 2>&1 &
pids+=($!)
up=""
for _ in $(seq 100); do
  state=$(sinfo -h -n "$host" -o %T 2>/dev/null)
  case $state in idle*) up=1; break ;; esac
  sleep 0.2
done
if [ -z "$up" ]; then
  tail -n 20 "$work"/logs/*
  fail "slurmctld and slurmd did not bring $host up (state '${state:-none}')"
fi
sinfo

# 64 SimGrid runs: 2 methods x 2 GPU counts x 4 rates x 4 latencies on the 4-host 1 Gbps testbed.
sweep=("$root/scenarios/testbed-4x1gbps.yaml" --backend simgrid -m bsp-allreduce -m wfbp-allreduce -g 2 -g 4
  --sweep "cluster.network.bandwidth=1Gbps,2Gbps,5Gbps,10Gbps" --sweep "cluster.network.latency=10us,50us,100us,200us"
  --format csv)
section "one process: scalecast predict ${sweep[*]}"
start=$SECONDS
"$scalecast" predict "${sweep[@]}" -o "$work/single.csv" || fail "the one-process sweep failed"
single_s=$((SECONDS - start))
rows=$(($(wc -l <"$work/single.csv") - 1))
echo "$rows rows in $single_s s"
[ "$rows" -ge 64 ] || fail "expected at least 64 runs, got $rows"

wait_jobs() {  # job ids: waits until none is queued or running (at most 10 minutes)
  local ids
  ids=$(IFS=,; echo "$*")
  for _ in $(seq 3000); do
    [ -z "$(squeue -h -j "$ids" 2>/dev/null)" ] && return 0
    sleep 0.2
  done
  fail "jobs $ids still running after 10 minutes"
}
section "4 shards as a Slurm array, and the merge after them (deploy/slurm/submit.sh)"
cd "$work" || fail "no $work"
start=$SECONDS
read -r _ array _ merge < <(SCALECAST="$scalecast" SBATCH_OPTIONS="--chdir=$work" \
  "$here/submit.sh" 4 "$work/parts" -- predict "${sweep[@]}" -o "$work/merged.csv") ||
  fail "submit.sh did not submit"
echo "array job $array, merge job $merge"
wait_jobs "$array" "$merge"
echo "shards and merge in $((SECONDS - start)) s"
for log in "$work"/scalecast-*.out; do
  echo "-- ${log##*/}"
  cat "$log"
done
[ -f "$work/merged.csv" ] || fail "the merge wrote no $work/merged.csv (logs above)"
cmp "$work/single.csv" "$work/merged.csv" || fail "the merged CSV differs from the one-process run"
echo "merged.csv is single.csv byte for byte ($rows rows)"

section "a lost shard: merge refuses, the shard re-runs alone, merge again"
mv "$work/parts/part-2.json" "$work/part-2.lost"
rm "$work/merged.csv"
"$scalecast" merge "$work"/parts/part-*.json -o "$work/merged.csv" 2>"$work/refused.txt"
status=$?
cat "$work/refused.txt"
if [ "$status" -ne 2 ] || ! grep -q "2/4" "$work/refused.txt" || [ -e "$work/merged.csv" ]; then
  fail "merge without shard 2/4: expected exit 2 naming it and no output, got exit $status"
fi
rerun=$(SCALECAST="$scalecast" sbatch --parsable --chdir="$work" --array=2 "$here/sweep-array.sh" shard 4 "$work/parts" \
  -- predict "${sweep[@]}" -o "$work/merged.csv") || fail "sbatch of the re-run did not submit"
wait_jobs "${rerun%%;*}"
cmp "$work/parts/part-2.json" "$work/part-2.lost" || fail "the re-run shard's part differs from the first"
"$scalecast" merge "$work"/parts/part-*.json || fail "merge after the re-run failed"
cmp "$work/single.csv" "$work/merged.csv" || fail "the merged CSV after the re-run differs"
echo "the re-run shard's part is the first's byte for byte; merged again: same CSV"
section "passed: Slurm array of 4 shards + merge = one process, $rows SimGrid runs"
