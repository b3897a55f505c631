#!/usr/bin/env bash
# Submits a sharded scalecast run to Slurm: an array of N shard tasks (sweep-array.sh shard), then
# the merge as a job that starts once every shard has succeeded; prints both job ids.
#
#   deploy/slurm/submit.sh N PARTS_DIR [--merge-args 'ARGS'] -- predict SCENARIO.yaml --sweep ... -o OUT
#
# Extra sbatch options go in $SBATCH_OPTIONS (e.g. "--partition=cpu --time=1:00:00"). A failed
# shard cancels the merge job: re-run the shard alone (the line its log ends with), then merge
# (sbatch sweep-array.sh merge PARTS_DIR, or scalecast merge PARTS_DIR/part-*.json).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
usage() { echo "usage: submit.sh N PARTS_DIR [--merge-args 'ARGS'] -- COMMAND ARGS..." >&2; exit 2; }
[ $# -ge 4 ] || usage
shards=$1 parts=$2
shift 2
merge_args=()
if [ "$1" = --merge-args ]; then
  read -r -a merge_args <<<"$2"
  shift 2
fi
[ "${1:-}" = -- ] || usage
shift
[[ $shards =~ ^[1-9][0-9]*$ ]] || { echo "submit.sh: N: expected a number of shards >= 1, got '$shards'" >&2; exit 2; }
read -r -a options <<<"${SBATCH_OPTIONS:-}"
array=$(sbatch --parsable "${options[@]}" --array="0-$((shards - 1))" "$here/sweep-array.sh" shard "$shards" "$parts" -- "$@")
array=${array%%;*}
if [ ${#merge_args[@]} -gt 0 ]; then merge_args=(-- "${merge_args[@]}"); fi
merge=$(sbatch --parsable "${options[@]}" --job-name=scalecast-merge --output="%x-%j.out" \
  --dependency="afterok:$array" --kill-on-invalid-dep=yes "$here/sweep-array.sh" merge "$parts" "${merge_args[@]}")
merge=${merge%%;*}
echo "array $array merge $merge"
