#!/usr/bin/env bash
# CI on the live test cluster, the operator's loop: on a 4-host 1 Gbps testbed, measure all-reduce
# sweeps (2 and 4 hosts), calibrate from them alone, then run ResNet-50's schedules for real and
# print each measured iteration next to the prediction before and after calibration.
#
# usage: testbed/ci.sh BUILD_DIR [OUT_DIR]     (builds nothing; OUT_DIR keeps the files)
#
# Fails when a run fails; prediction errors are reported, not judged. Where the testbed cannot
# be built (no root, no `ip`/`tc`), it says SKIPPED and exits 0. About 5 minutes.
set -u
build=${1:?usage: testbed/ci.sh BUILD_DIR [OUT_DIR]}
root=$(cd "$(dirname "$0")/.." && pwd)
scalecast="$build/cli/scalecast"
cluster="$root/testbed/cluster.sh"
base_scenario="$root/scenarios/testbed-4x1gbps.yaml"
methods=(${SCALECAST_TESTBED_METHODS:-bsp-allreduce wfbp-allreduce mgwfbp ddp horovod bytescheduler-allreduce bsp-ps wfbp-ps bytescheduler-ps})
[ -x "$scalecast" ] || { echo "testbed/ci.sh: no $scalecast (build the scalecast target first)" >&2; exit 1; }
if [ $# -ge 2 ]; then
  out=$2
  mkdir -p "$out"
else
  out=$(mktemp -d "${TMPDIR:-/tmp}/scalecast-ci.XXXXXX")
  trap 'rm -rf "$out"' EXIT
fi

# Real-time priority keeps other jobs on a shared machine from stretching each small transfer by
# milliseconds of scheduling delay; where it is not allowed, runs go without it.
rt=()
chrt -f 10 true 2>/dev/null && rt=(chrt -f 10)

section() { printf '\n== %s\n' "$*"; }
on_testbed() {  # hosts, then the command for every host
  local hosts=$1
  shift
  timeout 600 "$cluster" --hosts "$hosts" --rate 1gbit --delay 50us -- "${rt[@]}" "$@"
  local status=$?
  if [ "$status" = 77 ]; then
    echo "testbed/ci.sh: SKIPPED: the live cluster needs root, ip and tc (network namespaces)"
    exit 0
  fi
  return "$status"
}
measured_steady() {  # the measured steady-state iteration (s) of a compare CSV
  awk -F, '$1 == "steady" { print $8 }' "$1"
}
measured_range() {  # the fastest and slowest of the iterations the steady state averages
  awk -F, '$1 == "iteration" && $4 >= 1 { if (n++ == 0 || $8 < lo) lo = $8; if ($8 > hi) hi = $8 }
           END { print lo, hi }' "$1"
}
predicted() {  # backend, then predict's options: the predicted iteration (s) of the one run
  local backend=$1
  shift
  "$scalecast" predict "$scenario" -g 4 --backend "$backend" --format csv "$@" | awk -F, 'NR == 2 { print $7 }'
}

delay=$("$cluster" --hosts 1 -- sh -c 'echo "$SCALECAST_TESTBED_DELAY"' 2>/dev/null)
case $? in
  0) ;;
  77) echo "testbed/ci.sh: SKIPPED: the live cluster needs root, ip and tc (network namespaces)"; exit 0 ;;
  *) echo "testbed/ci.sh: the testbed does not start" >&2; exit 1 ;;
esac
section "testbed: 4 hosts (5 with the parameter server), 1 Gbit/s links, delay added: $delay"
# The scenario of the testbed this machine builds: its cores, which all hosts share, and where
# the kernel has no netem, no added delay (the veth stack's own ~10 us, as the scenario says).
scenario="$out/testbed.yaml"
cores=$(nproc)
sed -e "s/^  shared_cores: .*/  shared_cores: $cores/" "$base_scenario" >"$scenario"
if [ "$delay" != 50us ]; then
  sed -i -e 's/^    latency: 50us$/    latency: 10us/' "$scenario"
  echo "note: this kernel has no netem, so no delay is added: the scenario's latency is the stack's 10 us"
fi
echo "note: the hosts share this machine's $cores cores (cluster.shared_cores)"
[ ${#rt[@]} -gt 0 ] || echo "note: ranks run without real-time priority (chrt -f not permitted)"

section "all-reduce sweeps, ring expansion, 2 and 4 hosts"
for hosts in 2 4; do
  # 10 calls per size, and below 1 MiB as many as time 10 MiB (at most 100): on shared cores a
  # 1-64 KiB call varies by 10-30% from run to run.
  on_testbed "$hosts" "$scalecast" execute --sweep 1KiB:64MiB --iters 10 --max-iters 100 --warmup 2 \
    --scenario "$scenario" -o "$out/sweep-$hosts.csv" ||
    { echo "testbed/ci.sh: the $hosts-host sweep failed" >&2; exit 1; }
done

section "calibration from the sweeps alone"
"$scalecast" calibrate "$out/sweep-2.csv" "$out/sweep-4.csv" --scenario "$scenario" -o "$out/cluster.yaml" ||
  { echo "testbed/ci.sh: calibration failed" >&2; exit 1; }

backends=(analytical)
"$scalecast" backends 2>/dev/null | grep -q '^simgrid' && backends+=(simgrid)
status=0
rows=()
for method in "${methods[@]}"; do
  schedule="$out/$method.json" measured="$out/$method-measured.json"
  # 8 iterations: the steady state is the mean of the 7 after the first, as one iteration on the
  # shared cores varies by +-10% (a parameter server's by up to 20%).
  "$scalecast" schedule "$scenario" --method "$method" --gpus 4 --cluster "$out/cluster.yaml" -s iterations=8 \
    -o "$schedule" || exit 1
  hosts=$(grep -q '"aggregation": "parameter-server"' "$schedule" && echo 5 || echo 4)
  section "resnet50 $method on $hosts hosts"
  if ! on_testbed "$hosts" "$scalecast" execute "$schedule" -o "$measured" --timeout 120s >"$out/$method.log" 2>&1; then
    cat "$out/$method.log"
    echo "testbed/ci.sh: $method failed on the testbed" >&2
    status=1
    continue
  fi
  for backend in "${backends[@]}"; do
    "$scalecast" compare "$schedule" "$measured" --backend "$backend" --format csv \
      -o "$out/$method-vs-$backend.csv" || status=1
    rows+=("$method $backend $(measured_steady "$out/$method-vs-$backend.csv") \
$(measured_range "$out/$method-vs-$backend.csv") $(predicted "$backend" -m "$method") \
$(predicted "$backend" -m "$method" --cluster "$out/cluster.yaml")")
  done
done

section "steady-state iteration of ResNet-50 on the testbed: measured, and predicted before and after calibration"
# The iterations' range shows what the mean hides: a parameter server's iterations are fair or
# slowed by uneven shares at its port (docs/MODEL.md, "TCP incast at a parameter server").
printf '%-24s %-10s %9s %9s %9s %9s %7s %9s %7s\n' method backend measured fastest slowest zero-shot error \
  calibrated error
printf '%-24s %-10s %9s %9s %9s %9s %7s %9s %7s\n' "" "" s s s s % s %
for r in "${rows[@]}"; do
  read -r method backend m lo hi before after <<<"$r"
  awk -v m="$method" -v b="$backend" -v meas="$m" -v lo="$lo" -v hi="$hi" -v z="$before" -v c="$after" 'BEGIN {
    printf "%-24s %-10s %9.4f %9.4f %9.4f %9.4f %+7.1f %9.4f %+7.1f\n", m, b, meas, lo, hi, z, 100 * (z - meas) / meas,
      c, 100 * (c - meas) / meas
  }'
done
exit "$status"
