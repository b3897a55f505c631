#!/usr/bin/env bash
# End-to-end checks of `scalecast validate` and `scalecast calibrate`: outputs, the report folder,
# the regression gate's exit code, exit 2 on bad input, and a calibrated block pasted into a scenario.
set -u
bin=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$src" || exit 1
passed=0 failed=0

check() {  # check NAME EXPECTED_EXIT REGEX -- COMMAND...
  local name=$1 want=$2 regex=$3
  shift 4
  local out rc
  out=$("$@" 2>&1)
  rc=$?
  if [[ $rc -eq $want ]] && grep -Eq -- "$regex" <<<"$out"; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAIL: $name (exit $rc, wanted $want; pattern '$regex')"
    echo "$out" | head -5
  fi
}

ddl=ddl-benchmarks-2020-05-29
check "summary csv" 0 "^table,mode,rows,measured_rows" -- "$bin" validate --mode zero-shot --format csv
check "summary table has units" 0 "pairs agreeing" -- "$bin" validate --mode zero-shot
check "unknown mode" 2 "unknown mode 'sideways'" -- "$bin" validate --mode sideways
check "unknown format" 2 "unknown format" -- "$bin" validate --format json
check "missing data folder" 2 "no such folder" -- "$bin" validate --data "$tmp/none"

"$bin" validate --mode zero-shot --report "$tmp/report" >/dev/null 2>&1
check "report.md" 0 "## Rows not expressible" -- cat "$tmp/report/report.md"
check "rows.csv" 0 "^table,network,model,method,gpus" -- head -1 "$tmp/report/rows.csv"
check "gnuplot script" 0 "scatter-zero-shot.png" -- cat "$tmp/report/plots.gp"
if command -v gnuplot >/dev/null; then
  check "scatter plot drawn" 0 "PNG image" -- file "$tmp/report/scatter-zero-shot.png"
fi

printf 'table,mode,backend,rows,mape_pct\n%s,zero-shot,analytical,168,1.00\n' "$ddl" >"$tmp/tight.csv"
check "gate fails when worse" 1 "WORSE" -- "$bin" validate --mode zero-shot --check "$tmp/tight.csv"
printf 'table,mode,backend,rows,mape_pct\n%s,zero-shot,analytical,168,99\n' "$ddl" >"$tmp/loose.csv"
check "gate passes" 0 "ok$" -- "$bin" validate --mode zero-shot --check "$tmp/loose.csv"
check "gate without figures" 2 "expected figures for backend" -- \
  "$bin" validate --mode calibrated --check "$tmp/loose.csv"

check "calibrate unknown network" 2 "no rows for table" -- "$bin" calibrate --table "$ddl" --network 1GbE
check "calibrate without bsp rows" 2 "nothing to fit" -- "$bin" calibrate --table distml-2021 --network lm6
check "calibrate writes yaml" 0 "^cluster:" -- \
  bash -c "'$bin' calibrate --table $ddl --network 10GbE-TCP -o '$tmp/c.yaml' 2>/dev/null && cat '$tmp/c.yaml'"
# Paste the fitted block over the scenario's cluster section and predict with it.
scen=scenarios/ddl-resnet50-10gbe.yaml
{ sed '/^cluster:/,$d' "$scen"; cat "$tmp/c.yaml"; sed -n '/^methods:/,$p' "$scen"; } >"$tmp/pasted.yaml"
check "pasted cluster predicts" 0 "bsp-ps +8 +2" -- "$bin" predict "$tmp/pasted.yaml" -m bsp-ps -g 8

echo "validate/calibrate CLI: $passed passed, $failed failed"
[[ $failed -eq 0 ]]
