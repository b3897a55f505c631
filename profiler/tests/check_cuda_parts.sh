#!/usr/bin/env bash
# CTest check (no GPU needed): the CUDA parts were built, the injection library exports its
# entry points and resolves CUPTI, and the check workload links against cuBLAS.
set -euo pipefail
library=$1 workload=$2
for f in "$library" "$workload"; do
  [[ -f $f ]] || { echo "missing: $f" >&2; exit 1; }
done
for symbol in InitializeInjection InitializeInjectionNvtx2; do
  # grep without -q reads to the end: an early exit would SIGPIPE the producer under pipefail.
  nm -D --defined-only "$library" | grep -w "$symbol" >/dev/null || { echo "$library does not export $symbol" >&2; exit 1; }
done
ldd "$library" | grep 'libcupti\.so.*=> /' >/dev/null || { echo "$library: libcupti not resolved" >&2; exit 1; }
ldd "$workload" | grep 'libcublas\.so.*=> /' >/dev/null || { echo "$workload: libcublas not resolved" >&2; exit 1; }
echo "CUDA parts built: $library, $workload"
