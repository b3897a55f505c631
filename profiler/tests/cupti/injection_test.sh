#!/usr/bin/env bash
# CTest check of libscalecast_cupti.so's life cycle against a fake CUPTI (no GPU): entry points,
# NVTX hand-over, flush and trailer at exit, exclusive dump files, fork safety, CUPTI failure.
set -uo pipefail
library=$1 host=$2 fake_dir=$3 scalecast=$4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }
run() {  # run DUMP COMMAND...: the command with the fake CUPTI and the dump path
  local dump=$1
  shift
  LD_LIBRARY_PATH=$fake_dir SCALECAST_PROFILE_OUT=$dump "$@" 2>"$tmp/stderr"
}

# As under CUDA_INJECTION64_PATH: the driver and NVTX call the entry points.
run "$tmp/a.activity" env CUDA_INJECTION64_PATH="$library" "$host" "$library" fork ||
  fail "host run: $(cat "$tmp/stderr")"
[[ -f $tmp/a.activity ]] || fail "no dump written"
grep -qx $'range_start\t2\t7\t110\t\tfwd:conv1' "$tmp/a.activity" || fail "marker record"
grep -qx $'kernel\t5\t0\t13\t300\t800\t_Z4convv' "$tmp/a.activity" || fail "kernel record"
grep -qx $'memcpy\t6\t0\t13\t800\t900\t1024\tHtoD' "$tmp/a.activity" || fail "memcpy record"
grep -qx $'api\t5\t7\t120\t125' "$tmp/a.activity" || fail "runtime API record"
grep -qx $'device\t0\tFake GPU' "$tmp/a.activity" || fail "device record"
grep -qx $'nvtx_calls\t2\t2\t0\t0' "$tmp/a.activity" || fail "NVTX call counts"
[[ $(grep -c '^end' "$tmp/a.activity") -eq 1 ]] || fail "expected one trailer (fork)"
"$scalecast" profile --dump "$tmp/a.activity" --warmup 0 -o "$tmp/a.csv" >/dev/null 2>"$tmp/stderr" ||
  fail "attribution: $(cat "$tmp/stderr")"
grep -qx 'conv1,0.000600,0.000000,0,0,0.000000,0.000000' "$tmp/a.csv" || fail "profile row: $(cat "$tmp/a.csv")"
grep -qx '# gpu: Fake GPU' "$tmp/a.csv" || fail "profile gpu"

# A second process must not overwrite an existing dump.
cp "$tmp/a.activity" "$tmp/before"
run "$tmp/a.activity" env CUDA_INJECTION64_PATH="$library" "$host" "$library"
cmp -s "$tmp/a.activity" "$tmp/before" || fail "existing dump overwritten"
grep -q 'File exists' "$tmp/stderr" || fail "no message about the existing dump"

# LD_PRELOAD: the constructor starts recording; without NVTX hand-over there are no markers.
run "$tmp/b.activity" env -u CUDA_INJECTION64_PATH LD_PRELOAD="$library" /bin/true ||
  fail "preload run: $(cat "$tmp/stderr")"
grep -q '^kernel' "$tmp/b.activity" 2>/dev/null || fail "preload: no kernel record"
grep -q '^range_start' "$tmp/b.activity" 2>/dev/null && fail "preload: markers without NVTX hand-over"
tail -1 "$tmp/b.activity" | grep -q '^end' || fail "preload: no trailer"

# CUPTI unable to trace: no dump, and a message saying why.
run "$tmp/c.activity" env FAKE_CUPTI_FAIL=1 CUDA_INJECTION64_PATH="$library" "$host" "$library"
[[ ! -e $tmp/c.activity ]] || fail "dump left when CUPTI failed"
grep -q 'not recording: CUPTI activity tracing is unavailable' "$tmp/stderr" || fail "no failure message"

if ((failures)); then exit 1; fi
echo "injection library: all checks passed"
