#!/usr/bin/env bash
# On a machine with a GPU: every GPU test, then each GPU suite's host-judged and device-judged
# modes side by side in one run (same binary, seed and time each), as docs/performance.md reports
# them. Usage: scripts/gpu_throughput.sh [SECONDS per suite, default 15] [SEED, default today's].
# Writes gpu-throughput/<suite>/ reports and prints one table row per suite (from summary.json).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-15}
seed=${2:-$(date +%Y%m%d)}
bin=build/default/tcfuzz
[ -x "$bin" ] || { echo "gpu_throughput: build first (cmake --build --preset default)" >&2; exit 2; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader || true
echo "seed $seed, $seconds s per suite, $(date -u +%Y-%m-%d)"
TCFUZZ_SEED=$seed build/default/suites/gpu_tests || echo "gpu_tests: FAILED (see above)"
out=gpu-throughput
rm -rf "$out"
mkdir -p "$out"
printf '%-26s %-8s %16s %9s %16s %7s\n' suite judged cases seconds cases/s failed
for pair in sparse-mma:host sparse-mma-judged:device sparse-mma-exact:device \
  dense-mma:host dense-mma-judged:device smem-hw:host smem-hw-judged:device \
  tcgen05:host tcgen05-judged:device; do
  suite=${pair%%:*}
  "$bin" run --gpu require --no-progress --seed "$seed" --suite "$suite" --time "$seconds" \
    --report "$out/$suite" >"$out/$suite.log" 2>&1 || true
  python3 - "$out/$suite/summary.json" "$suite" "${pair##*:}" "$out/$suite.log" <<'PY'
import json, sys
try:
    s = json.load(open(sys.argv[1]))["suites"][0]
except (OSError, ValueError, KeyError, IndexError):  # no report: the log's last line says why
    lines = open(sys.argv[4]).read().strip().splitlines() or ["(empty log)"]
    print(f"{sys.argv[2]:<26} {sys.argv[3]:<8} no report: {lines[-1]}")
    sys.exit(0)
if s.get("skipped"):
    print(f"{sys.argv[2]:<26} {sys.argv[3]:<8} skipped: {s['skipped']}")
else:
    print(f"{s['suite']:<26} {sys.argv[3]:<8} {s['cases']:>16,} {s['seconds']:>9.1f} "
          f"{s['cases_per_second']:>16,.0f} {s['failed']:>7}")
PY
done
