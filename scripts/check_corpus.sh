#!/usr/bin/env bash
# A fuzz target's corpus/<target>/seed and regression folders hold chosen inputs, not a fuzzer's
# output: a libFuzzer run given one of them first writes every new input there (on 2026-11-28 a
# timing run put 1,261 into corpus/cli_args/seed, nearly into a commit). Fails when such a folder
# holds more files than the largest chosen one (corpus/ptx_assembler/seed: 212 merged inputs).
set -uo pipefail
cd "$(dirname "$0")/.."
max=250
bad=0
for dir in corpus/*/seed corpus/*/regression; do
  [ -d "$dir" ] || continue
  n=$(find "$dir" -maxdepth 1 -type f | wc -l)
  if [ "$n" -gt "$max" ]; then
    echo "corpus: $dir holds $n files (at most $max): a fuzzer's output? Fuzz into a scratch folder" \
      "named first (docs/fuzzing.md)" >&2
    bad=1
  fi
done
[ "$bad" -eq 0 ] && echo "corpus: every seed and regression folder within $max files"
exit "$bad"
