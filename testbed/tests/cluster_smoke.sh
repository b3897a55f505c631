#!/usr/bin/env bash
# Live cluster, healthy: links are shaped to the rate, a schedule runs on 3 hosts and compares
# with its prediction, and nothing of the testbed is left afterwards.
source "$(dirname "$0")/common.sh"
before=$(testbed_namespaces)

cluster_run --hosts 2 --rate 100mbit -- "$scalecast" execute --sweep 1MB:1MB --op sendrecv --iters 3 \
  -o "$work/sweep.csv" >"$work/sweep.txt" 2>&1 || { cat "$work/sweep.txt"; fail "sweep on 2 hosts"; }
# 100 Mbit/s = 0.0125 GB/s: the shaped link must carry between 60% and 101% of it.
awk -F, 'NR == 2 { if ($7 > 0.0125 * 1.01 || $7 < 0.0125 * 0.6) exit 1 }' "$work/sweep.csv" ||
  { cat "$work/sweep.csv"; fail "1 MB sendrecv over a 100mbit link is not shaped to it"; }

"$scalecast" schedule "$scenario" --method wfbp-allreduce --gpus 3 --set model.name=mobilenet_v2 \
  --set iterations=2 -o "$work/s.json" || fail "schedule"
cluster_run --hosts 3 -- "$scalecast" execute "$work/s.json" -o "$work/m.json" >"$work/run.txt" 2>&1 ||
  { cat "$work/run.txt"; fail "wfbp-allreduce on 3 hosts"; }
"$scalecast" compare "$work/s.json" "$work/m.json" --iterations-only || fail "compare"

[ "$(testbed_namespaces)" = "$before" ] || fail "namespaces left behind: $(ip netns list)"
echo "PASS"
