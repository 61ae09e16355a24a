#!/usr/bin/env bash
# The dependency rule, checked on every #include (ctest `style.layers`):
#   oracle/      includes only oracle/ (no generators/, harness/, suites/, no CUDA header)
#   generators/  includes only oracle/ and generators/ (no harness/, suites/, no CUDA header)
#   harness/     includes no suites/ and no generators/
#   suites/      its rooms in order, each including only rooms below it or itself:
#                checks < engine < emit < reduce < kinds < captures, tiling, toolchain, discover
#                < cli (bench/, fuzz/ and tests/ may include any)
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
# suites/: an include of a room above the including file's room runs back up.
rank() {
  case "$1" in
    checks) echo 0 ;; engine) echo 1 ;; emit) echo 2 ;; reduce) echo 3 ;; kinds) echo 4 ;;
    captures | tiling | toolchain | discover) echo 5 ;; cli) echo 6 ;; *) echo 9 ;;
  esac
}
while IFS=: read -r file line text; do
  from=$(echo "$file" | cut -d/ -f2)
  to=$(echo "$text" | sed -nE 's|.*#[[:space:]]*include[[:space:]]*"suites/([a-z_]+)/.*|\1|p')
  [ -n "$to" ] || continue
  if [ "$(rank "$from")" -lt 9 ] && [ "$(rank "$to")" -gt "$(rank "$from")" ]; then
    echo "$file:$line:$text   <- suites/$from/ may not include suites/$to/ (it is above it)"
    bad=1
  fi
done < <(git ls-files suites | grep -E '\.(h|cc|cu|cuh)$' | xargs grep -nE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"suites/' || true)
[ "$bad" -eq 0 ] && echo "layers: every include keeps the dependency rule"
exit "$bad"
