#!/usr/bin/env bash
# The main job: set up, build, and run every subject into report/ (docs/ci.md):
#   1. the default campaign (`tcfuzz run`: the host suites, and the GPU suites where a GPU is):
#      report/index.html, summary.json, junit.xml, reproducers/; extra arguments go to it
#      (e.g. --seed 42, --cases 1000, --shard 0/4, --expectations FILE);
#   2. the toolchain scan of the installed CUDA toolkit, every form on every target through
#      nvJitLink: report/toolchain-scan.txt (skipped, said so, without a toolkit);
#   3. the tiling fuzz of the example tiler (docs/tiler-under-test.md): report/tiling/;
#   4. where no GPU suite ran (no GPU here), the mutation score instead: the catalogue's planted
#      defects against the GPU suites on the built-in emulator (docs/backends.md):
#      report/mutants/ (index.html with the kill matrix, summary.json, junit.xml).
# Every subject runs even when one fails; the exit status is the first non-zero one.
set -uo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh || exit 2
cmake --preset default >/dev/null || exit 2
cmake --build --preset default --target tcfuzz example_tiler || exit 2
tcfuzz=./build/default/tcfuzz
status=0
keep() { [ "$status" -ne 0 ] || status=$1; }

"$tcfuzz" run --report report "$@"
keep $?
"$tcfuzz" toolchain scan --out report/toolchain-scan.txt
rc=$?
if [ "$rc" -eq 3 ]; then
  echo "campaign: toolchain scan skipped (no CUDA toolkit)"
else
  keep "$rc"
fi
"$tcfuzz" tiling fuzz --tiler ./build/default/suites/example_tiler --seed 20261124 --cases 2000 \
  --report report/tiling
keep $?
# A GPU suite with cases in the campaign's summary: the real GPU suites ran, and they are the
# measure; otherwise the emulator runs them with each planted defect.
gpu_ran=$(python3 -c 'import json
d = json.load(open("report/summary.json"))
print(int(any(s.get("gpu_suite") and s.get("cases") for s in d.get("suites", []))))' 2>/dev/null)
if [ "$gpu_ran" != 1 ]; then
  "$tcfuzz" mutants --report report/mutants
  keep $?
fi
exit "$status"
