#!/usr/bin/env bash
# The main job: set up, build, and run every subject into report/ (docs/ci.md):
#   1. the default campaign (`tcfuzz run`), one report of every subject: the host suites, the
#      toolchain suite (a sample of the toolchain scan's forms x targets through the installed
#      CUDA toolkit's nvJitLink; skipped, said so, without a toolkit), the tiling-fuzz suite (the
#      example tiler) and the GPU suites where a GPU is: report/index.html, summary.json,
#      junit.xml, reproducers/; extra arguments go to it (e.g. --seed 42, --time 1800,
#      --shard 0/4, --expectations FILE);
#   2. where no GPU suite ran (no GPU here), the mutation score instead: the catalogue's planted
#      defects against the GPU suites on the built-in emulator (docs/backends.md):
#      report/mutants/ (index.html with the kill matrix, summary.json, junit.xml).
# The whole toolchain scan is `tcfuzz run --suite toolchain --cases 100000` (every item once) or
# `tcfuzz toolchain scan`. Both parts run even when one fails; the exit status is the first
# non-zero one.
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
