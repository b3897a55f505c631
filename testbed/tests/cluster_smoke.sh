#!/usr/bin/env bash
# Live cluster, healthy: links are shaped to the rate, a schedule runs on 3 hosts and compares
# with its prediction, and nothing of the testbed is left afterwards.
source "$(dirname "$0")/common.sh"
before=$(testbed_namespaces)

# 100 Mbit/s = 0.0125 GB/s: every run must stay under 101% of it (the shaping), and the best of
# up to three runs must carry 60% or more (one direction's traffic halving the other's gives 50%);
# a CPU busy elsewhere only ever slows a run, so one good run shows the link.
shaped=0
for attempt in 1 2 3; do
  cluster_run --hosts 2 --rate 100mbit -- "$scalecast" execute --sweep 1MB:1MB --op sendrecv --iters 5 \
    -o "$work/sweep.csv" >"$work/sweep.txt" 2>&1 || { cat "$work/sweep.txt"; fail "sweep on 2 hosts"; }
  tail -n 1 "$work/sweep.csv" >>"$work/sweeps.csv"
  awk -F, 'NR == 2 { exit ($7 > 0.0125 * 1.01) }' "$work/sweep.csv" ||
    { cat "$work/sweep.csv"; fail "1 MB sendrecv over a 100mbit link ran faster than the link"; }
  awk -F, 'NR == 2 { exit ($7 < 0.0125 * 0.6) }' "$work/sweep.csv" && { shaped=1; break; }
done
[ "$shaped" = 1 ] || { cat "$work/sweeps.csv"; fail "1 MB sendrecv over a 100mbit link carried under 60% of it in 3 runs"; }

"$scalecast" schedule "$scenario" --method wfbp-allreduce --gpus 3 --set model.name=mobilenet_v2 \
  --set iterations=2 -o "$work/s.json" || fail "schedule"
cluster_run --hosts 3 -- "$scalecast" execute "$work/s.json" -o "$work/m.json" >"$work/run.txt" 2>&1 ||
  { cat "$work/run.txt"; fail "wfbp-allreduce on 3 hosts"; }
"$scalecast" compare "$work/s.json" "$work/m.json" --iterations-only || fail "compare"

[ "$(testbed_namespaces)" = "$before" ] || fail "namespaces left behind: $(ip netns list)"
echo "PASS"
