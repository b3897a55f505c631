#!/usr/bin/env bash
# Runs a sharded scalecast sweep on Kubernetes: applies the Indexed Job, waits for it, reports any
# failed index, then applies the merge Job and prints its log. `run.sh SHARD=I` re-runs index I
# alone (a one-pod Job with SHARD set), for a shard that failed; merge again with `run.sh merge`.
#
#   deploy/k8s/run.sh [SHARD=I | merge]     (kubectl's current context and namespace)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
timeout=${SCALECAST_K8S_TIMEOUT:-6h}
merge() {
  kubectl delete job scalecast-merge --ignore-not-found
  kubectl apply -f "$here/sweep-merge-job.yaml"
  kubectl wait --for=condition=complete job/scalecast-merge --timeout="$timeout" ||
    { kubectl logs job/scalecast-merge >&2; echo "run.sh: the merge failed" >&2; exit 1; }
  kubectl logs job/scalecast-merge
}
case ${1:-} in
  "")
    kubectl delete job scalecast-sweep --ignore-not-found
    kubectl apply -f "$here/sweep-indexed-job.yaml"
    if ! kubectl wait --for=condition=complete job/scalecast-sweep --timeout="$timeout"; then
      failed=$(kubectl get job scalecast-sweep -o jsonpath='{.status.failedIndexes}')
      echo "run.sh: shards failed: ${failed:-unknown}; re-run each alone (run.sh SHARD=I), then run.sh merge" >&2
      exit 1
    fi
    merge
    ;;
  merge) merge ;;
  SHARD=*)
    index=${1#SHARD=}
    [[ $index =~ ^[0-9]+$ ]] || { echo "run.sh: SHARD: expected an index, got '$index'" >&2; exit 2; }
    name="scalecast-sweep-shard-$index"
    kubectl delete job "$name" --ignore-not-found
    # The same pod, one completion, with SHARD set to the index to re-run.
    python3 - "$here/sweep-indexed-job.yaml" "$name" "$index" <<'PY' | kubectl apply -f -
import sys, yaml
path, name, index = sys.argv[1:]
job = yaml.safe_load(open(path))
job["metadata"]["name"] = name
spec = job["spec"]
for key in ("completionMode", "backoffLimitPerIndex", "maxFailedIndexes"):
    spec.pop(key, None)
spec["completions"] = spec["parallelism"] = 1
spec["backoffLimit"] = 0
for env in spec["template"]["spec"]["containers"][0]["env"]:
    if env["name"] == "SHARD":
        env["value"] = index
yaml.safe_dump(job, sys.stdout, sort_keys=False)
PY
    kubectl wait --for=condition=complete "job/$name" --timeout="$timeout" ||
      { kubectl logs "job/$name" >&2; echo "run.sh: shard $index failed again" >&2; exit 1; }
    ;;
  *) echo "usage: run.sh [SHARD=I | merge]" >&2; exit 2 ;;
esac
