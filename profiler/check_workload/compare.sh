#!/usr/bin/env bash
# Compares the profiler's per-layer times with the check workload's CUDA-event truth:
# prints forward/backward error % per layer and fails when any exceeds the tolerance.
set -euo pipefail
if [[ $# -lt 2 || $# -gt 3 ]]; then
  echo "usage: compare.sh TRUTH.csv PROFILE.csv [MAX_ERROR_PERCENT (default 5)]" >&2
  exit 2
fi
truth=$1 profile=$2 tolerance=${3:-5}
for f in "$truth" "$profile"; do
  [[ -r $f ]] || { echo "compare.sh: $f: cannot read" >&2; exit 2; }
done
# Data rows are the lines that are neither comments nor the header row.
awk -F, -v tol="$tolerance" -v truth="$truth" -v profile="$profile" '
  function abs(x) { return x < 0 ? -x : x }
  function err(measured, expected) { return expected == 0 ? 0 : 100 * (measured - expected) / expected }
  /^#/ || $1 == "layer" { next }
  FILENAME == truth { tf[$1] = $2; tb[$1] = $3; order[++n] = $1; next }
  { pf[$1] = $2; pb[$1] = $3 }
  END {
    printf "%-12s %12s %12s %8s %12s %12s %8s\n", "layer", "fwd_true", "fwd_prof", "err%", "bwd_true", "bwd_prof", "err%"
    printf "%-12s %12s %12s %8s %12s %12s %8s\n", "", "ms", "ms", "%", "ms", "ms", "%"
    bad = 0
    for (i = 1; i <= n; ++i) {
      l = order[i]
      if (!(l in pf)) { printf "%-12s missing from %s\n", l, profile; bad = 1; continue }
      ef = err(pf[l], tf[l]); eb = err(pb[l], tb[l])
      flag = (abs(ef) > tol || abs(eb) > tol) ? "  <-- over " tol "%" : ""
      if (flag != "") bad = 1
      printf "%-12s %12.4f %12.4f %8.2f %12.4f %12.4f %8.2f%s\n", l, tf[l], pf[l], ef, tb[l], pb[l], eb, flag
    }
    if (bad) { print "compare.sh: FAILED (tolerance " tol "%)"; exit 1 }
    print "compare.sh: all layers within " tol "%"
  }' "$truth" "$profile"
