// The matmul problem's contract: the documented input limits a problem must meet before any
// tiling can serve it (rule ids `problem.*`). They are about the problem alone, so no tiling can
// fix them: a tiler that refuses such a problem is right, one that answers it is warned about,
// and the tiling rules (`tiling.*`) are judged only on problems inside the contract.
#pragma once

#include "oracle/ascend/chip_profile.h"
#include "oracle/ascend/tiling_rules.h"
#include "oracle/core/rule.h"
#include "oracle/core/span.h"
#include "oracle/core/verdict.h"

namespace tcfuzz::oracle::ascend {

Span<const Rule* const> ProblemRules();

// Empty (legal) when the problem is inside the contract on this chip.
Verdict ValidateProblem(const Problem& p, const ChipProfile& chip);

// The granule a dimension must be a multiple of, and the largest value it may take, to stay
// inside the contract (the generator's repair step and the rules share these).
struct DimLimits {
  int64_t m_granule = 1, n_granule = 1, k_granule = 1;
  int64_t m_max = 0, n_max = 0, k_max = 0;  // 0: no limit
};
DimLimits ContractLimits(const Problem& p, const ChipProfile& chip);

}  // namespace tcfuzz::oracle::ascend
