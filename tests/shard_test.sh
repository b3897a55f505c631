#!/usr/bin/env bash
# End-to-end checks of sharded runs: predict --sweep, recommend and validate split with --shard I/N
# and joined by `scalecast merge` print byte for byte what one process prints, in every format;
# a shard run again writes the same part; merge refuses missing, duplicate, foreign and stale parts.
set -u
bin=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=tests/cli_check.sh
source "$src/tests/cli_check.sh"
cd "$src" || exit 1

same() {  # same NAME FILE_A FILE_B: byte for byte
  if cmp -s "$2" "$3"; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAIL: $1: $2 and $3 differ"
    diff "$2" "$3" | head -5
  fi
}
# sharded NAME N OUT COMMAND ARGS...: runs the N shards into $tmp/NAME/, then merges them into OUT.
sharded() {
  local name=$1 n=$2 out=$3
  shift 3
  rm -rf "${tmp:?}/$name" && mkdir -p "$tmp/$name"
  for ((i = 0; i < n; i++)); do
    "$bin" "$@" --shard "$i/$n" --part "$tmp/$name/part-$i.json" 2>>"$tmp/$name/progress.txt" ||
      echo "FAIL: $name: shard $i/$n failed"
  done
  "$bin" merge "$tmp/$name"/part-*.json -o "$out" 2>>"$tmp/$name/progress.txt"
}

scen=scenarios/ddl-resnet50-10gbe.yaml
sweep=(predict "$scen" --sweep "cluster.network.bandwidth=10Gbps,25Gbps,100Gbps" --sweep "cluster.network.transport=tcp,rdma")
for format in table csv json; do
  "$bin" "${sweep[@]}" --format "$format" -o "$tmp/one.$format" 2>/dev/null
  sharded "predict-$format" 4 "$tmp/merged.$format" "${sweep[@]}" --format "$format"
  same "predict --sweep, 4 shards, $format" "$tmp/one.$format" "$tmp/merged.$format"
done
check "168 runs, 42 a shard" 0 "^predict: shard 3/4: 42 of 168 runs" -- cat "$tmp/predict-csv/progress.txt"
check "progress per item" 0 "^predict: shard 1/4: 42/42 done: item 165 \(bytescheduler-ps x 8 GPUs, cluster.network.bandwidth=100Gbps, cluster.network.transport=rdma\)" -- cat "$tmp/predict-csv/progress.txt"
# More shards than items: the empty shards write parts too.
"$bin" predict "$scen" -m ddp -g 8 --format csv -o "$tmp/one-run.csv"
sharded predict-empty 3 "$tmp/merged-run.csv" predict "$scen" -m ddp -g 8 --format csv
same "one run over 3 shards" "$tmp/one-run.csv" "$tmp/merged-run.csv"
# The output named by the shards' -o, with no -o given to merge.
mkdir -p "$tmp/own" && for i in 0 1; do
  "$bin" "${sweep[@]}" --format csv -o "$tmp/own/out.csv" --shard "$i/2" --part "$tmp/own/p$i.json" 2>/dev/null
done
"$bin" merge "$tmp/own/p0.json" "$tmp/own/p1.json" 2>/dev/null
same "merge writes the shards' -o" "$tmp/one.csv" "$tmp/own/out.csv"
# A shard run again writes the same part, byte for byte.
"$bin" "${sweep[@]}" --format csv --shard 1/4 --part "$tmp/again.json" 2>/dev/null
same "a shard run again" "$tmp/predict-csv/part-1.json" "$tmp/again.json"

rec=(recommend scenarios/whatif-a100-25gbe.yaml --threads 2)
for format in table csv json; do
  "$bin" "${rec[@]}" --format "$format" -o "$tmp/rec-one.$format" 2>/dev/null
  sharded "recommend-$format" 3 "$tmp/rec-merged.$format" "${rec[@]}" --format "$format"
  same "recommend, 3 shards, $format" "$tmp/rec-one.$format" "$tmp/rec-merged.$format"
done
check "recommend shard progress" 0 "^recommend: shard 2/3: wrote .*part-2.json \(112 of 336 configurations" -- cat "$tmp/recommend-csv/progress.txt"

for format in table csv; do
  "$bin" validate --mode zero-shot --format "$format" >"$tmp/val-one.$format" 2>/dev/null
  rm -rf "$tmp/val" && mkdir -p "$tmp/val"
  for i in 0 1 2; do
    "$bin" validate --mode zero-shot --format "$format" --shard "$i/3" --part "$tmp/val/part-$i.json" 2>/dev/null
  done
  "$bin" merge "$tmp"/val/part-*.json >"$tmp/val-merged.$format" 2>/dev/null
  same "validate zero-shot, 3 shards, $format" "$tmp/val-one.$format" "$tmp/val-merged.$format"
done

# Both modes, with the calibration's fits, on a small data folder: 16 rows, 2 (table, network)
# groups; the summary, the report and the baseline as one process writes them.
data=$tmp/data && mkdir -p "$data"
{ head -1 validation/data/ddl-benchmarks-2020-05-29.csv
  grep -E "^resnet50,64,(10GbE-TCP|100GbIB-RDMA),(bsp-allreduce|wfbp-allreduce)," validation/data/ddl-benchmarks-2020-05-29.csv
} >"$data/ddl-benchmarks-2020-05-29.csv"
sed "s|,\.\./\.\./|,$src/|" validation/data/testbeds.csv >"$data/testbeds.csv"
"$bin" validate --data "$data" --report "$tmp/report-one" --write-baseline "$tmp/baseline-one.csv" >"$tmp/cal-one.txt" 2>/dev/null
rm -rf "$tmp/cal" && mkdir -p "$tmp/cal"
for i in 0 1 2; do
  "$bin" validate --data "$data" --report "$tmp/report-merged" --write-baseline "$tmp/baseline-merged.csv" \
    --shard "$i/3" --part "$tmp/cal/part-$i.json" 2>>"$tmp/cal/progress.txt"
done
"$bin" merge "$tmp"/cal/part-*.json >"$tmp/cal-merged.txt" 2>/dev/null
same "validate calibrated, 3 shards, summary" "$tmp/cal-one.txt" "$tmp/cal-merged.txt"
same "validate calibrated, 3 shards, report" "$tmp/report-one/report.md" "$tmp/report-merged/report.md"
same "validate calibrated, 3 shards, report rows" "$tmp/report-one/rows.csv" "$tmp/report-merged/rows.csv"
same "validate calibrated, 3 shards, baseline" "$tmp/baseline-one.csv" "$tmp/baseline-merged.csv"
check "validate shard: the fit of its group" 0 "calibrating ddl-benchmarks-2020-05-29 / 100GbIB-RDMA" -- cat "$tmp/cal/progress.txt"
check "validate shard progress" 0 "^validate: shard 1/3: 6 of 18 work items" -- cat "$tmp/cal/progress.txt"

if "$bin" backends 2>/dev/null | grep -q '^simgrid'; then
  sg=(predict scenarios/testbed-4x1gbps.yaml --backend simgrid -m bsp-allreduce -g 2 -g 4 --sweep "cluster.network.latency=10us,100us" --format csv)
  "$bin" "${sg[@]}" -o "$tmp/sg-one.csv" 2>/dev/null
  sharded simgrid 3 "$tmp/sg-merged.csv" "${sg[@]}"
  same "SimGrid sweep, 3 shards" "$tmp/sg-one.csv" "$tmp/sg-merged.csv"
fi

parts=("$tmp"/predict-csv/part-*.json)
check "a missing shard is named" 2 "^scalecast merge: expected every shard of .*part-0.json's run, got none of 2/4" -- \
  "$bin" merge "${parts[0]}" "${parts[1]}" "${parts[3]}" -o "$tmp/none.csv"
check "nothing written without every shard" 0 "^absent$" -- bash -c "[[ -e '$tmp/none.csv' ]] && echo present || echo absent"
check "a shard twice is named" 2 "part-1.json: shard 1/4 again \(.*part-1.json is that shard\)" -- \
  "$bin" merge "${parts[@]}" "${parts[1]}" -o "$tmp/none.csv"
check "parts of another run" 2 "part-0.json: from another run than .*predict-csv/part-0.json: its command line .* differs" -- \
  "$bin" merge "${parts[0]}" "$tmp/predict-json/part-0.json" -o "$tmp/none.csv"
cp "$scen" "$tmp/scenario.yaml"
"$bin" predict "$tmp/scenario.yaml" -m ddp --shard 0/1 --part "$tmp/stale.json" 2>/dev/null
echo "# edited" >>"$tmp/scenario.yaml"
check "an input changed since" 2 "scenario.yaml: changed since the shards read it \(.*stale.json\): run them again" -- \
  "$bin" merge "$tmp/stale.json"
check "not a part" 2 "schedule.json: expected a part file" -- "$bin" merge tests/bad_inputs/valid/schedule.json
check "--shard needs --part" 2 "^scalecast predict: --shard 0/2: expected --part FILE" -- "$bin" "${sweep[@]}" --shard 0/2
check "--part needs --shard" 2 "^scalecast recommend: --part: expected with --shard I/N only" -- "$bin" "${rec[@]}" --part "$tmp/p.json"
check "--shard I below N" 2 "^scalecast predict: --shard: expected I/N with 0 <= I < N" -- "$bin" "${sweep[@]}" --shard 4/4 --part "$tmp/p.json"
check "--shard not with --trace" 2 "^scalecast predict: --shard: expected no --trace" -- \
  "$bin" predict "$scen" -m ddp -g 8 --trace "$tmp/t.json" --shard 0/1 --part "$tmp/p.json"
check "--shard not with --ablation" 2 "^scalecast validate: --shard: expected no --ablation" -- \
  "$bin" validate --ablation --shard 0/2 --part "$tmp/p.json"
check "merge -o not for validate" 2 "^scalecast merge: -o: validate prints its summary on stdout" -- \
  "$bin" merge "$tmp"/val/part-*.json -o "$tmp/v.txt"
check "the part is not an input" 2 "that file is the command's input" -- "$bin" "${sweep[@]}" --shard 0/2 --part "$scen"
echo "shard checks: $passed passed, $failed failed"
[[ $failed -eq 0 ]]
