#!/usr/bin/env bash
# The main job: set up, build, and run the default host campaign. Writes report/index.html,
# report/summary.json, report/junit.xml and report/reproducers/ (docs/ci.md). Extra arguments go
# to `tcfuzz run` (e.g. --seed 42, --cases 1000, --shard 0/4, --expectations FILE).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
cmake --preset default >/dev/null
cmake --build --preset default --target tcfuzz
exec ./build/default/tcfuzz run --report report "$@"
