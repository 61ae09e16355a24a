#!/usr/bin/env bash
# Every tracked C++ and CUDA file is formatted by the repository's .clang-format (ctest
# `style.format`). Fix with: git ls-files '*.h' '*.cc' '*.cu' '*.cuh' | xargs clang-format -i
set -euo pipefail
cd "$(dirname "$0")/.."
formatter=$(command -v clang-format-14 || command -v clang-format || true)
if [ -z "$formatter" ]; then
  echo "style.format: clang-format is not installed (scripts/setup.sh installs it)" >&2
  exit 1
fi
git ls-files '*.h' '*.cc' '*.cu' '*.cuh' | xargs "$formatter" --dry-run --Werror
echo "format: every C++ and CUDA file is as $($formatter --version | head -1) formats it"
