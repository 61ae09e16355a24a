#!/usr/bin/env bash
# The dependency rule, checked on every #include (ctest `style.layers`):
#   oracle/      includes only oracle/ (no generators/, harness/, suites/, no CUDA header)
#   generators/  includes only oracle/ and generators/ (no harness/, suites/, no CUDA header)
#   harness/     includes no suites/ and no generators/
# Prints each include that breaks it, and exits 1 when there is one.
set -euo pipefail
cd "$(dirname "$0")/.."
bad=0
check() {  # folder, pattern of forbidden includes, why
  local hits
  hits=$(git ls-files "$1" | grep -E '\.(h|cc|cu|cuh)$' | xargs grep -nE "^[[:space:]]*#[[:space:]]*include[[:space:]]*[<\"]($2)" || true)
  if [ -n "$hits" ]; then
    printf '%s\n' "$hits" | sed "s|\$|   <- $3|"
    bad=1
  fi
}
cuda='cuda[a-zA-Z_]*\.h|cuda/|nvJitLink|crt/|device_launch|cooperative_groups|mma\.h'
check oracle "generators/|harness/|suites/|${cuda}" "oracle/ includes only oracle/"
check generators "harness/|suites/|${cuda}" "generators/ include only oracle/ and generators/"
check harness "suites/|generators/" "harness/ includes no suites/ or generators/"
[ "$bad" -eq 0 ] && echo "layers: every include keeps the dependency rule"
exit "$bad"
