#!/usr/bin/env bash
# One shard of a sharded scalecast run as a Slurm array task, or the merge of the shards' parts
# (docs/DESIGN.md, "Sharded runs"); submit.sh submits both, the merge after every shard succeeded.
#
#   sbatch --array=0-$((N-1)) sweep-array.sh shard N PARTS_DIR -- predict SCENARIO.yaml --sweep ... [-o OUT]
#   sbatch --dependency=afterok:ARRAY_JOB sweep-array.sh merge PARTS_DIR [-- -o OUT]
#
# Task I (SLURM_ARRAY_TASK_ID) runs `scalecast ARGS... --shard I/N --part PARTS_DIR/part-I.json`.
# N is given, not taken from the array's size, so a failed shard re-runs alone with the same
# arguments: sbatch --array=I sweep-array.sh shard N PARTS_DIR -- ARGS...; then merge again.
# scalecast is $SCALECAST (default: scalecast on PATH). Paths are read where the job runs: submit
# from the folder the arguments name files in (sbatch runs jobs there).
#SBATCH --job-name=scalecast-shard
#SBATCH --cpus-per-task=1
#SBATCH --output=%x-%A_%a.out
set -uo pipefail
scalecast=${SCALECAST:-scalecast}
usage() {
  echo "usage: sweep-array.sh shard N PARTS_DIR -- COMMAND ARGS...   (as an array task 0..N-1)" >&2
  echo "       sweep-array.sh merge PARTS_DIR [-- MERGE ARGS...]" >&2
  exit 2
}
mode=${1:-}
case $mode in
  shard)
    if [ $# -lt 5 ] || [ "$4" != -- ]; then usage; fi
    shards=$2 parts=$3
    shift 4
    index=${SLURM_ARRAY_TASK_ID:?sweep-array.sh shard: run it as a Slurm array task (sbatch --array=0-$((shards - 1)))}
    mkdir -p "$parts" || exit 1
    echo "sweep-array: shard $index/$shards on $(hostname): $scalecast $*" >&2
    start=$SECONDS
    "$scalecast" "$@" --shard "$index/$shards" --part "$parts/part-$index.json"
    status=$?
    if [ "$status" -ne 0 ]; then
      echo "sweep-array: shard $index/$shards FAILED (exit $status) after $((SECONDS - start)) s; re-run it alone:" \
        "sbatch --array=$index $0 shard $shards $parts -- $*" >&2
      exit "$status"
    fi
    echo "sweep-array: shard $index/$shards done in $((SECONDS - start)) s: $parts/part-$index.json" >&2
    ;;
  merge)
    [ $# -ge 2 ] || usage
    parts=$2
    shift 2
    if [ $# -gt 0 ]; then
      [ "$1" = -- ] || usage
      shift
    fi
    shopt -s nullglob
    files=("$parts"/part-*.json)
    echo "sweep-array: merging ${#files[@]} parts of $parts" >&2
    exec "$scalecast" merge "${files[@]}" "$@"
    ;;
  *) usage ;;
esac
