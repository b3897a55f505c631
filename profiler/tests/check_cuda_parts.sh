#!/usr/bin/env bash
# CTest check (no GPU needed): the CUDA parts were built, the injection library exports its
# entry points and resolves CUPTI, and the check workload links against cuBLAS.
set -euo pipefail
library=$1 workload=$2
for f in "$library" "$workload"; do
  [[ -f $f ]] || { echo "missing: $f" >&2; exit 1; }
done
for symbol in InitializeInjection InitializeInjectionNvtx2; do
  nm -D --defined-only "$library" | grep -qw "$symbol" || { echo "$library does not export $symbol" >&2; exit 1; }
done
ldd "$library" | grep -q 'libcupti\.so.*=> /' || { echo "$library: libcupti not resolved" >&2; exit 1; }
ldd "$workload" | grep -q 'libcublas\.so.*=> /' || { echo "$workload: libcublas not resolved" >&2; exit 1; }
echo "CUDA parts built: $library, $workload"
