// Generator for Ascend Matmul tiling cases: a chip, a problem (edge shapes first: 1, 15, 17, C0 and
// 16 non-multiples, exact L0 fits; mostly inside the problem's contract, some outside it), and a
// tiling with an intent: legal (the reference tiler's answer), one rule broken (one field of that
// answer changed so that exactly one hard rule fails), or a raw 200-byte image.
#pragma once

#include "generators/core/intent.h"
#include "generators/core/source.h"
#include "oracle/ascend/tiling_rules.h"

namespace tcfuzz::gen {

struct GeneratedTiling {
  oracle::ascend::Problem problem;
  const oracle::ascend::ChipProfile* chip = nullptr;
  oracle::ascend::TCubeTiling tiling;
  Intent intent = Intent::kLegal;
  const oracle::Rule* broken = nullptr;  // kBreakOne: the one violated rule, when one was reached
  bool tiler_refused = false;            // the reference tiler has no answer for this problem
};

// Seven in eight problems are inside the chip's contract (problem_contract.h); the rest break one
// of the chip's documented limits (sometimes another with it: a K past 65535 is rarely aligned
// for an NZ B). A tiler should refuse those.
oracle::ascend::Problem DrawTilingProblem(Source& s, const oracle::ascend::ChipProfile& chip);

// kLegal and kBreakOne start from the reference tiler; when it refuses the problem (it says
// why), the case keeps a zero tiling and tiler_refused. kBreakOne tries a few single-field
// changes and keeps the first that breaks exactly one hard rule (else `broken` stays null).
GeneratedTiling DrawTiling(Source& s, Intent intent);

}  // namespace tcfuzz::gen
