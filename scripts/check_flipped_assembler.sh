#!/usr/bin/env bash
# ctest toolchain.flipped_assembler_is_caught: the assembler mutant. A wrapper around the toolkit's
# ptxas flips its verdict on every module of one form family (`mma.sp::ordered_metadata`:
# accepted becomes rejected, rejected becomes accepted), as a compiler that regressed one family
# would; `tcfuzz toolchain scan --ptxas WRAPPER` must report unexpected verdicts for that family
# alone, and the unwrapped ptxas none. Exit 3 (a skip) without the toolkit.
# Usage: check_flipped_assembler.sh TCFUZZ WORK_DIR
set -uo pipefail
tcfuzz=$1 work=$2
real=/usr/local/cuda/bin/ptxas
[ -x "$real" ] || { echo "no $real: the assembler mutant needs the CUDA toolkit"; exit 3; }
rm -rf "$work" && mkdir -p "$work" || exit 2
wrapper="$work/flipped-ptxas"
cat >"$wrapper" <<WRAPPER
#!/bin/sh
# The last argument is the module; without one (--version) this is ptxas itself.
for module; do :; done
case "\$module" in *.ptx) ;; *) exec "$real" "\$@" ;; esac
grep -q 'mma.sp::ordered_metadata' "\$module" || exec "$real" "\$@"
if "$real" "\$@" 2>/dev/null; then
  echo "ptxas fatal : flipped: the mutant rejects what ptxas accepted" >&2
  exit 255
fi
exit 0
WRAPPER
chmod +x "$wrapper"
scan() { "$tcfuzz" toolchain scan --assembler ptxas --targets sm_90a --forms 'mma.sp*e4m3*' \
  --jobs 2 --json "$@"; }
scan >"$work/clean.json"
clean=$?
scan --ptxas "$wrapper" >"$work/flipped.json"
flipped=$?
# Unexpected: observed differs from the model's expectation and no known deviation covers it.
python3 - "$work/clean.json" "$work/flipped.json" "$clean" "$flipped" <<'PY'
import json, sys
clean, flipped = (json.load(open(p)) for p in sys.argv[1:3])
bad = lambda rows: [r for r in rows if r["observed"] != r["expected"] and not r["known_deviation"]]
family = [r for r in flipped if r["form"].startswith("mma.sp::ordered_metadata")]
caught = bad(flipped)
print(f"unwrapped ptxas: exit {sys.argv[3]}, {len(bad(clean))} unexpected verdicts")
print(f"flipped ptxas: exit {sys.argv[4]}, {len(caught)} unexpected verdicts, "
      f"{len(family)} modules of the flipped family")
ok = (sys.argv[3] == "0" and sys.argv[4] == "1" and not bad(clean) and family
      and sorted(r["form"] for r in caught) == sorted(r["form"] for r in family))
sys.exit(0 if ok else 1)
PY
