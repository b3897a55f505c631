#!/usr/bin/env bash
# CTest check of `scalecast profile`: a good dump gives a profile (and a trace); truncated or
# corrupt dumps and bad options give one error line, exit code 2, and no output file.
set -uo pipefail
scalecast=$1 data=$2 with_cuda=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

# expect CODE DESCRIPTION ARGS... : runs `scalecast profile ARGS`, checks the exit code.
expect() {
  local code=$1 what=$2
  shift 2
  "$scalecast" profile "$@" >"$tmp/stdout" 2>"$tmp/stderr"
  local got=$?
  [[ $got -eq $code ]] || fail "$what: exit $got, expected $code; stderr: $(cat "$tmp/stderr")"
}

expect 0 "good dump" --dump "$data/check_workload.activity" --warmup 1 -o "$tmp/p.csv" --trace "$tmp/t.json"
[[ $(head -1 "$tmp/p.csv" 2>/dev/null) == "# scalecast profile v1" ]] || fail "good dump: no profile header"
grep -q '^fc1,0.002600,0.002400,' "$tmp/p.csv" || fail "good dump: fc1 row"
grep -q '"traceEvents"' "$tmp/t.json" || fail "good dump: no trace"
grep -q '^profile: 2 layers, 2 iterations measured' "$tmp/stdout" || fail "good dump: summary"

expect 0 "with a zoo model" --dump "$data/check_workload.activity" --warmup 1 -o "$tmp/m.csv" \
  --model resnet50 --batch 64
grep -q '^# model: resnet50$' "$tmp/m.csv" || fail "model: metadata"
grep -q '^# batch_per_gpu: 64$' "$tmp/m.csv" || fail "batch: metadata"
grep -q ',grad_tensor_bytes$' "$tmp/m.csv" || fail "model: grad_tensor_bytes column"
grep -q 'warning: .* match no profiled layer' "$tmp/stderr" || fail "model: unmatched-gradients warning"

for bad in truncated corrupt_header unsupported_version; do
  expect 2 "$bad dump" --dump "$data/$bad.activity" -o "$tmp/$bad.csv"
  [[ $(wc -l <"$tmp/stderr") -eq 1 ]] || fail "$bad: expected one error line, got: $(cat "$tmp/stderr")"
  grep -q "$bad.activity" "$tmp/stderr" || fail "$bad: error does not name the file"
  [[ ! -e $tmp/$bad.csv && ! -e $tmp/$bad.csv.tmp ]] || fail "$bad: output file left behind"
done

expect 2 "too much warm-up" --dump "$data/check_workload.activity" --warmup 3 -o "$tmp/w.csv"
grep -q "check_workload.activity: 3 iterations recorded and 3 dropped" "$tmp/stderr" || fail "warm-up message"
[[ ! -e $tmp/w.csv ]] || fail "warm-up: output left behind"
expect 2 "wrong marker" --dump "$data/check_workload.activity" --iteration-marker step -o "$tmp/w.csv"
expect 2 "unknown model" --dump "$data/check_workload.activity" --model nosuch -o "$tmp/w.csv"
expect 2 "no input" -o "$tmp/w.csv"
expect 2 "unknown option" --frobnicate
expect 2 "negative warm-up" --dump "$data/check_workload.activity" --warmup -1
expect 0 "help" --help
if [[ $with_cuda == ON ]]; then
  expect 1 "command without CUDA work" -o "$tmp/none.csv" -- true
  grep -q "left no activity dump" "$tmp/stderr" || fail "no-dump message"
  expect 1 "failing command" -o "$tmp/none.csv" -- false
else
  expect 2 "run mode without CUDA" -o "$tmp/none.csv" -- true
fi
[[ ! -e $tmp/none.csv ]] || fail "run mode: output left behind"

if ((failures)); then exit 1; fi
echo "scalecast profile CLI: all checks passed"
