#!/usr/bin/env bash
# The whole test suite: set up, build both presets, run every test.
#   default preset (g++, CUDA parts when nvcc exists): every ctest; GPU tests skip visibly
#                  without a GPU.
#   fuzz preset (clang, ASan+UBSan): the same tests under sanitizers, plus a short libFuzzer
#                  run of every fuzz target.
# Set TCFUZZ_SEED to replay a failing seed; TCFUZZ_SKIP_FUZZ_PRESET=1 skips the second build.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh

cmake --preset default >/dev/null
cmake --build --preset default
ctest --preset default

if [ "${TCFUZZ_SKIP_FUZZ_PRESET:-0}" != "1" ]; then
  cmake --preset fuzz >/dev/null
  cmake --build --preset fuzz
  ctest --preset fuzz
fi
