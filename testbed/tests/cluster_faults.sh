#!/usr/bin/env bash
# Live cluster, faulty: a host whose rank is killed, and one whose rank never starts, stop the
# others within a bounded time with an error naming the rank; Ctrl-C of the script, and every
# failure, still remove every namespace.
source "$(dirname "$0")/common.sh"
before=$(testbed_namespaces)
"$scalecast" schedule "$scenario" --method wfbp-allreduce --gpus 3 --set model.name=mobilenet_v2 \
  --set iterations=3 -o "$work/s.json" || fail "schedule"

# Rank 2 is killed 2 s into a run stretched to take much longer; the timeout (60 s) is not needed.
start=$SECONDS
cluster_run --hosts 3 --grace 20 -- sh -c 'if [ "$RANK" = 2 ]; then (sleep 2; kill -9 $$) & fi;
  exec "$0" execute "$1" --compute-scale 30 --timeout 60s' "$scalecast" "$work/s.json" >"$work/dies.txt" 2>&1
status=$?
[ "$status" != 0 ] || fail "a killed rank went unnoticed"
grep -q "rank 2" "$work/dies.txt" || { cat "$work/dies.txt"; fail "the error does not name rank 2"; }
[ $((SECONDS - start)) -lt 30 ] || fail "took $((SECONDS - start)) s to stop"

# Rank 1 never starts: the others give up after --timeout and name it.
start=$SECONDS
cluster_run --hosts 3 -- sh -c '[ "$RANK" = 1 ] && exit 0; exec "$0" execute "$1" --timeout 3s' \
  "$scalecast" "$work/s.json" >"$work/absent.txt" 2>&1
[ $? != 0 ] || fail "a missing rank went unnoticed"
grep -q "rank 1 never arrived within 3 s" "$work/absent.txt" || { cat "$work/absent.txt"; fail "not named"; }
[ $((SECONDS - start)) -lt 30 ] || fail "took $((SECONDS - start)) s to stop"

# Interrupted (Ctrl-C) or terminated while running: everything is removed all the same. Job
# control on, so that the background script does not start with SIGINT ignored.
set -m
for signal in INT TERM; do
  start=$SECONDS
  "$cluster" --hosts 2 -- sleep 60 >/dev/null 2>&1 &
  pid=$!
  sleep 2
  kill -"$signal" "$pid"
  wait "$pid"
  [ $((SECONDS - start)) -lt 20 ] || fail "SIG$signal did not stop cluster.sh"
done
set +m
[ "$(testbed_namespaces)" = "$before" ] || fail "namespaces left behind: $(ip netns list)"
echo "PASS"
