#!/usr/bin/env bash
# A live test cluster on one machine: N hosts as network namespaces on a bridge, each link shaped
# with tc to a rate and delay; runs a command in every host as a launcher would, then tears down.
#
# usage: testbed/cluster.sh [--hosts N] [--rate 1gbit] [--delay 50us] [--queue BYTES]
#                           [--port 29500] [--grace SECONDS] [--verbose] -- COMMAND [ARGS...]
#
# Every host runs COMMAND with RANK (= host index), WORLD_SIZE, MASTER_ADDR (host 0) and
# MASTER_PORT set, so `scalecast execute` (or torchrun-style programs) find each other. Host 0's
# output goes to this terminal; the others' is shown when they fail (or always with --verbose).
# Hosts are 10.77.0.1 .. 10.77.0.N on a bridge in a namespace of its own: no default route, no
# NAT, nothing reaches outside addresses. Each host's uplink is shaped to --rate with --delay
# (htb, and netem where the kernel has it); each bridge port is shaped to --rate towards its host,
# so incast at a host queues as at a switch port; every queue holds --queue bytes (512000).
#
# Exit status: COMMAND's (the first host that failed), 77 where namespaces cannot be made here
# (not root, no `ip`/`tc`), 2 for bad usage. Everything is removed on exit, also on failure,
# Ctrl-C or TERM. The variable SCALECAST_TESTBED_DELAY tells COMMAND the delay actually added.
set -u

hosts=4 rate=1gbit delay=50us queue=512000 port=29500 grace=60 verbose=0
usage() { sed -n '4,6p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
while [ $# -gt 0 ]; do
  case "$1" in
    --hosts) hosts=${2:?}; shift 2 ;;
    --rate) rate=${2:?}; shift 2 ;;
    --delay) delay=${2:?}; shift 2 ;;
    --queue) queue=${2:?}; shift 2 ;;
    --port) port=${2:?}; shift 2 ;;
    --grace) grace=${2:?}; shift 2 ;;
    --verbose) verbose=1; shift ;;
    --) shift; break ;;
    -h|--help) usage ;;
    *) echo "cluster.sh: unknown option '$1'" >&2; usage ;;
  esac
done
[ $# -gt 0 ] || { echo "cluster.sh: no COMMAND after --" >&2; usage; }
for n in "$hosts" "$queue"; do
  case "$n" in ''|*[!0-9]*) echo "cluster.sh: --hosts and --queue expect numbers, got '$n'" >&2; exit 2 ;; esac
done
if [ "$hosts" -lt 1 ] || [ "$hosts" -gt 250 ]; then echo "cluster.sh: --hosts must be 1..250" >&2; exit 2; fi

skip() { echo "cluster.sh: SKIP: $*" >&2; exit 77; }
[ "$(id -u)" = 0 ] || skip "network namespaces need root"
command -v ip >/dev/null || skip "no 'ip' command (iproute2)"
command -v tc >/dev/null || skip "no 'tc' command (iproute2)"

prefix="sc$$"              # unique per run, short enough for interface names
switch="$prefix-sw"
logs=$(mktemp -d "${TMPDIR:-/tmp}/scalecast-cluster.XXXXXX")
namespaces=() pids=()

cleanup() {
  local status=$? pid ns
  trap - EXIT INT TERM
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null; done
  for ns in "${namespaces[@]}"; do
    for pid in $(ip netns pids "$ns" 2>/dev/null); do kill -KILL "$pid" 2>/dev/null; done
  done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null; done
  for ns in "${namespaces[@]}"; do ip netns delete "$ns" 2>/dev/null; done
  rm -rf "$logs"
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

ip netns add "$switch" 2>"$logs/err" || skip "cannot create a network namespace: $(cat "$logs/err")"
namespaces+=("$switch")
ip -n "$switch" link add br0 type bridge && ip -n "$switch" link set br0 up || exit 1

# htb on a link's egress at the rate, over a queue of --queue bytes (a switch port's buffer: a
# deeper one, with veth's 64 KB segments, lets one direction's data delay the other's ACKs by
# seconds); netem for the delay on the host side, where the kernel has it.
netem=1
shape() {  # namespace device with_delay
  tc -n "$1" qdisc add dev "$2" root handle 1: htb default 1 r2q 1000 || return 1
  tc -n "$1" class add dev "$2" parent 1: classid 1:1 htb rate "$rate" ceil "$rate" || return 1
  if [ "$3" = 1 ] && [ "$netem" = 1 ]; then
    if tc -n "$1" qdisc add dev "$2" parent 1:1 handle 10: netem delay "$delay" limit "$((queue / 1500 + 1))" \
         2>/dev/null; then
      return 0
    fi
    netem=0
    echo "cluster.sh: warning: this kernel has no netem qdisc: links get the rate but no added delay" >&2
  fi
  tc -n "$1" qdisc add dev "$2" parent 1:1 handle 10: bfifo limit "$queue"
}

for ((i = 0; i < hosts; i++)); do
  ns="$prefix-h$i"
  ip netns add "$ns" || exit 1
  namespaces+=("$ns")
  ip link add "${prefix}h$i" type veth peer name "${prefix}p$i" || exit 1
  ip link set "${prefix}h$i" netns "$ns" && ip link set "${prefix}p$i" netns "$switch" || exit 1
  ip -n "$ns" link set "${prefix}h$i" name eth0 || exit 1
  ip -n "$ns" addr add "10.77.0.$((i + 1))/24" dev eth0 || exit 1
  ip -n "$ns" link set lo up && ip -n "$ns" link set eth0 up || exit 1
  ip -n "$switch" link set "${prefix}p$i" master br0 && ip -n "$switch" link set "${prefix}p$i" up || exit 1
  # 16 KB segments at most: veth's default 64 KB ones leave htb bursts that stalled 256 KB-1 MB
  # ring steps for ~10 ms; 1500 B ones cost more CPU than 1 Gbit/s on 4 hosts leaves on 2 cores.
  ip -n "$ns" link set eth0 gso_max_size 16384 2>/dev/null &&
    ip -n "$switch" link set "${prefix}p$i" gso_max_size 16384 2>/dev/null ||
    { [ "$i" = 0 ] && echo "cluster.sh: warning: cannot cap segment sizes (gso_max_size)" >&2; }
  shape "$ns" eth0 1 || exit 1
  shape "$switch" "${prefix}p$i" 0 || exit 1
done
applied_delay=$([ "$netem" = 1 ] && echo "$delay" || echo 0us)
echo "cluster.sh: $hosts hosts 10.77.0.1-$hosts, links $rate, delay $applied_delay" >&2

for ((i = 0; i < hosts; i++)); do
  env_vars=(RANK=$i WORLD_SIZE=$hosts MASTER_ADDR=10.77.0.1 MASTER_PORT=$port
            SCALECAST_TESTBED_DELAY=$applied_delay)
  if [ "$i" = 0 ] || [ "$verbose" = 1 ]; then
    ip netns exec "$prefix-h$i" env "${env_vars[@]}" "$@" &
  else
    ip netns exec "$prefix-h$i" env "${env_vars[@]}" "$@" >"$logs/h$i.log" 2>&1 &
  fi
  pids+=($!)
done

# Wait for every host; after the first failure the others get --grace seconds to stop.
first=0 failed_at=0 left=$hosts
declare -A done_pid=()
while [ "$left" -gt 0 ]; do
  for ((i = 0; i < hosts; i++)); do
    pid=${pids[$i]}
    [ -n "${done_pid[$pid]:-}" ] && continue
    kill -0 "$pid" 2>/dev/null && continue
    wait "$pid"; status=$?
    done_pid[$pid]=1; left=$((left - 1))
    if [ "$status" != 0 ]; then
      echo "cluster.sh: host $i (RANK $i) exited with status $status" >&2
      [ -f "$logs/h$i.log" ] && sed "s/^/[h$i] /" "$logs/h$i.log" >&2
      if [ "$first" = 0 ]; then first=$status; failed_at=$SECONDS; fi
    fi
  done
  if [ "$first" != 0 ] && [ $((SECONDS - failed_at)) -gt "$grace" ]; then
    echo "cluster.sh: hosts still running $grace s after the first failure; stopping them" >&2
    break
  fi
  [ "$left" -gt 0 ] && sleep 0.05
done
exit "$first"
