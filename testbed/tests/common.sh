# Shared by the live-cluster tests: the command under test, the scenario, skip and fail helpers,
# and a count of testbed namespaces to check that a run leaves none behind.
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
scalecast=${1:?usage: $0 PATH/TO/scalecast}
cluster="$root/testbed/cluster.sh"
scenario="$root/scenarios/testbed-4x1gbps.yaml"
work=$(mktemp -d "${TMPDIR:-/tmp}/scalecast-livecluster.XXXXXX")
trap 'rm -rf "$work"' EXIT

fail() { echo "FAIL: $*" >&2; exit 1; }
testbed_namespaces() { ip netns list 2>/dev/null | grep -c '^sc[0-9]*-' ; }
# Skips (77) at once where the testbed cannot be built here.
"$cluster" --hosts 1 -- true >/dev/null 2>&1
[ $? = 77 ] && { echo "SKIP: no network namespaces here (needs root, ip and tc)"; exit 77; }

# Runs cluster.sh; exits 77 (skip) where the testbed cannot be built here.
cluster_run() {
  "$cluster" "$@"
  local status=$?
  [ "$status" = 77 ] && { echo "SKIP: no network namespaces here (needs root, ip and tc)"; exit 77; }
  return "$status"
}
