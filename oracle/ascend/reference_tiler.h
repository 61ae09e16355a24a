// tcfuzz's own tiler: problem + chip -> a legal TCubeTiling, the default "tiler under test".
// The heuristic follows GetTiling's shape (reference §2.2) without its scoring:
//   1. base tile: baseM up to 128 and baseN up to 256 (16-aligned, within the problem), baseN
//      capped by the bias table; baseK the largest multiple of the alignment unit that lets A
//      and B tiles ping-pong in L0A/L0B; baseM*baseN*4 within L0C (else halve baseN, then baseM);
//   2. multi-core split: the grid of base blocks split into mDim x nDim <= cores, the most cores
//      first; singleCoreM/N whole base blocks (the last core takes the tail);
//   3. L1: stepM = stepN = 1, stepKa = stepKb = as many K blocks as fit (shared by A and B), the
//      depths double-buffered when they fit; iterateOrder 0; dbL0C 1; transLength where the arch
//      needs it.
// Problems outside the contract (problem_contract.h) are refused with the rule they break.
#pragma once

#include "oracle/ascend/tiling_rules.h"
#include "oracle/core/result.h"

namespace tcfuzz::oracle::ascend {

Result<TCubeTiling> MakeTiling(const Problem& p, const ChipProfile& chip);

}  // namespace tcfuzz::oracle::ascend
