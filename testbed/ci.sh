#!/usr/bin/env bash
# CI on the live test cluster: a 4-host 1 Gbps / 50 us testbed runs an all-reduce sweep and
# ResNet-50 schedules (WFBP all-reduce; BSP and WFBP parameter server on a 5th host) for real, and
# prints what was measured next to what the analytical backend (and SimGrid, if built) predicted.
#
# usage: testbed/ci.sh BUILD_DIR [OUT_DIR]     (builds nothing; OUT_DIR keeps the files)
#
# Fails when a run fails; prediction errors are reported, not judged. Where the testbed cannot
# be built (no root, no `ip`/`tc`), it says SKIPPED and exits 0. About 2 minutes.
set -u
build=${1:?usage: testbed/ci.sh BUILD_DIR [OUT_DIR]}
root=$(cd "$(dirname "$0")/.." && pwd)
scalecast="$build/cli/scalecast"
cluster="$root/testbed/cluster.sh"
scenario="$root/scenarios/testbed-4x1gbps.yaml"
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

delay=$("$cluster" --hosts 1 -- sh -c 'echo "$SCALECAST_TESTBED_DELAY"' 2>/dev/null)
case $? in
  0) ;;
  77) echo "testbed/ci.sh: SKIPPED: the live cluster needs root, ip and tc (network namespaces)"; exit 0 ;;
  *) echo "testbed/ci.sh: the testbed does not start" >&2; exit 1 ;;
esac
section "testbed: 4 hosts (5 with the parameter server), 1 Gbit/s links, delay added: $delay"
[ "$delay" = 50us ] ||
  echo "note: this kernel has no netem, so no delay is added; predictions still assume the scenario's 50 us"
[ ${#rt[@]} -gt 0 ] || echo "note: ranks run without real-time priority (chrt -f not permitted)"

section "all-reduce sweep, 4 ranks, ring expansion (measured vs analytical)"
on_testbed 4 "$scalecast" execute --sweep 1KiB:64MiB --iters 3 --warmup 1 --scenario "$scenario" \
  -o "$out/sweep.csv" || { echo "testbed/ci.sh: the sweep failed" >&2; exit 1; }

backends=(analytical)
"$scalecast" backends 2>/dev/null | grep -q '^simgrid' && backends+=(simgrid)
status=0
for method in wfbp-allreduce bsp-ps wfbp-ps; do
  schedule="$out/$method.json" measured="$out/$method-measured.json"
  "$scalecast" schedule "$scenario" --method "$method" --gpus 4 -o "$schedule" || exit 1
  hosts=$(grep -q '"aggregation": "parameter-server"' "$schedule" && echo 5 || echo 4)
  section "resnet50 $method on $hosts hosts"
  if ! on_testbed "$hosts" "$scalecast" execute "$schedule" -o "$measured" --timeout 120s >"$out/$method.log" 2>&1; then
    cat "$out/$method.log"
    echo "testbed/ci.sh: $method failed on the testbed" >&2
    status=1
    continue
  fi
  for backend in "${backends[@]}"; do
    echo
    "$scalecast" compare "$schedule" "$measured" --backend "$backend" --iterations-only || status=1
    "$scalecast" compare "$schedule" "$measured" --backend "$backend" --format csv \
      -o "$out/$method-vs-$backend.csv" || status=1
  done
done
exit "$status"
