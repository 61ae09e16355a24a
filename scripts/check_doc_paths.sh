#!/usr/bin/env bash
# Every repository path the front page and docs/ name exists (issue 29): a path in backticks or
# a link target that starts at a top-level folder, with or without its extension (a stem such as
# `generators/smem/descriptor_tile_gen` names its .h/.cc pair). Placeholders (<...>, *, {a,b}) are
# skipped. Prints each missing path with its file and exits 1 when any is.
set -uo pipefail
cd "$(dirname "$0")/.."
missing=0
roots='(oracle|generators|harness|suites|corpus|python|examples|deploy|cmake|docs|scripts)/'
for doc in README.md docs/*.md; do
  base=$(dirname "$doc")
  # `path` spans and ](path) link targets.
  grep -oE "\`[^\`]+\`|\]\([^)#]+" "$doc" | sed -E 's/^`//; s/`$//; s/^\]\(//' |
    grep -E "^(\.\./)*${roots}|^[a-z_-]+\.md$" | while read -r p; do
      case "$p" in *'<'*|*'*'*|*'{'*|*' '*) continue ;; esac
      p=${p%%:*}; p=${p%/}; p=${p%.}; p=${p%,}
      # Links are relative to the document; backticked paths to the repository root.
      for cand in "$p" "$base/$p"; do
        for ext in "" .h .cc .cu .cuh .md .sh; do
          [ -e "$cand$ext" ] && continue 3
        done
      done
      echo "check_doc_paths: $doc names '$p', which does not exist"
      echo x >> /tmp/check_doc_paths.$$
    done
done
if [ -s /tmp/check_doc_paths.$$ ]; then rm -f /tmp/check_doc_paths.$$; exit 1; fi
rm -f /tmp/check_doc_paths.$$
echo "check_doc_paths: every path named in README.md and docs/ exists"
