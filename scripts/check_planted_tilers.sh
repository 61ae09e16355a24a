#!/usr/bin/env bash
# ctest tiling.planted_tilers_are_caught: each tiler mutant of corpus/mutants/tilers.txt, planted
# in the example tiler's answers, is found by `tcfuzz tiling fuzz` under the rule its line names.
# Usage: check_planted_tilers.sh TCFUZZ PLANTED_TILER EXAMPLE_TILER WORK_DIR
set -uo pipefail
tcfuzz=$1 planted=$2 tiler=$3 work=$4
list="$(dirname "$0")/../corpus/mutants/tilers.txt"
rm -rf "$work" && mkdir -p "$work" || exit 2
caught=0 total=0
trim() { sed -e 's/^[[:space:]]*//' -e 's/[[:space:]]*$//' <<<"$1"; }
while IFS='|' read -r name defect rule _; do
  case "$name" in '' | '#'*) continue ;; esac
  name=$(trim "$name") defect=$(trim "$defect") rule=$(trim "$rule")
  total=$((total + 1))
  "$tcfuzz" tiling fuzz --seed 20261127 --cases 100 --tiler "$planted $defect $tiler" \
    --report "$work/$name" >"$work/$name.log" 2>&1
  rc=$?
  if [ "$rc" -eq 1 ] && grep -q "\"$rule\"" "$work/$name/summary.json"; then
    caught=$((caught + 1))
    echo "caught   $name by $rule"
  else
    echo "MISSED   $name: exit $rc, $rule not among the findings (log: $work/$name.log)"
  fi
done <"$list"
echo "tiler mutants: $caught of $total caught"
[ "$total" -ge 5 ] && [ "$caught" -eq "$total" ]
