#include "oracle/ascend/reference_tiler.h"

#include <algorithm>

#include "oracle/ascend/problem_contract.h"
#include "oracle/ascend/tiling_math.h"

namespace tcfuzz::oracle::ascend {
Result<TCubeTiling> MakeTiling(const Problem& p, const ChipProfile& chip) {
  using R = Result<TCubeTiling>;
  // A problem outside the contract is refused with the rule it breaks (a correct refusal).
  if (const Verdict contract = ValidateProblem(p, chip); !contract.legal()) {
    const Violation& x = contract.violations()[0];
    return R::Fail("no tiling: " + std::string(x.rule->id) + ": " + x.message);
  }
  // 1. Base tile.
  // Rule H6 asks for C0 or 16; GetTiling's habit of whole C0 blocks (int8: 32, int4: 64) also
  // keeps the MDL inner loop, which cuts K in C0 blocks, exact (k_loop.h).
  const int64_t k_unit = (!p.trans_a && p.trans_b) ? C0(p.a) : std::max<int64_t>(16, C0(p.a));
  int64_t bm = std::min<int64_t>(128, AlignUp(p.m, 16));
  int64_t bn = std::min<int64_t>(256, AlignUp(p.n, 16));
  if (p.is_bias && chip.bias_table > 0)
    bn = std::min(bn, (2 * chip.bias_table / SizeTimes2(p.bias)) / 16 * 16);
  while (bm * bn * 4 > chip.l0c && bn > 16) bn = std::max<int64_t>(16, bn / 2 / 16 * 16);
  while (bm * bn * 4 > chip.l0c && bm > 16) bm = std::max<int64_t>(16, bm / 2 / 16 * 16);
  const auto fits_l0 = [&](int64_t bk) {
    return bm * bk * SizeTimes2(p.a) * 2 <= 2 * chip.l0a &&
           bn * bk * SizeTimes2(p.b) * 2 <= 2 * chip.l0b;
  };
  int64_t bk = std::min<int64_t>(AlignUp(p.k, k_unit), 4095 / k_unit * k_unit);
  while (bk > k_unit && !fits_l0(bk)) bk -= k_unit;
  if (!fits_l0(bk)) return R::Fail("no tiling: even the smallest base tile does not fit L0");
  // 2. Multi-core split over whole base blocks.
  const int64_t m_blocks = CeilDiv(p.m, bm), n_blocks = CeilDiv(p.n, bn);
  int64_t best_m = 1, best_n = 1;
  for (int64_t md = 1; md <= std::min<int64_t>(m_blocks, chip.ai_cores); ++md) {
    const int64_t nd = std::min<int64_t>(n_blocks, chip.ai_cores / md);
    // The cores a split really uses: ceil over whole blocks per core.
    const int64_t used =
        CeilDiv(m_blocks, CeilDiv(m_blocks, md)) * CeilDiv(n_blocks, CeilDiv(n_blocks, nd));
    if (used > CeilDiv(m_blocks, CeilDiv(m_blocks, best_m)) *
                   CeilDiv(n_blocks, CeilDiv(n_blocks, best_n))) {
      best_m = md;
      best_n = nd;
    }
  }
  const int64_t sm = std::min(p.m, CeilDiv(m_blocks, best_m) * bm);
  const int64_t sn = std::min(p.n, CeilDiv(n_blocks, best_n) * bn);
  TCubeTiling t;
  t[kUsedCoreNum] = static_cast<int32_t>(CeilDiv(p.m, sm) * CeilDiv(p.n, sn));
  t[kM] = static_cast<int32_t>(p.m), t[kN] = static_cast<int32_t>(p.n);
  t[kKa] = t[kKb] = static_cast<int32_t>(p.k);
  t[kSingleCoreM] = static_cast<int32_t>(sm), t[kSingleCoreN] = static_cast<int32_t>(sn);
  t[kSingleCoreK] = static_cast<int32_t>(p.k);
  t[kBaseM] = static_cast<int32_t>(bm), t[kBaseN] = static_cast<int32_t>(bn),
  t[kBaseK] = static_cast<int32_t>(bk);
  // 3. L1: as many K blocks as fit for both operands, double-buffered when that fits too.
  const int64_t a_blk = bm * bk * SizeTimes2(p.a), b_blk = bn * bk * SizeTimes2(p.b);  // x2 bytes
  const int64_t bias_row = p.is_bias ? bn * SizeTimes2(p.bias) : 0;
  const int64_t k_blocks = CeilDiv(p.k, bk);
  int64_t step_k = k_blocks;
  while (step_k > 1 && step_k * (a_blk + b_blk) + bias_row > 2 * chip.l1) --step_k;
  if (step_k * (a_blk + b_blk) + bias_row > 2 * chip.l1)
    return R::Fail("no tiling: one base block of A and B does not fit L1");
  // stepKa == stepKb: the MDL iteration counts kaIter and kbIter are then equal (H11), and with
  // stepM = stepN = 1 the K-not-resident rule (H10) holds whatever step_k is.
  const int64_t db = 2 * step_k * (a_blk + b_blk) + bias_row <= 2 * chip.l1 ? 2 : 1;
  t[kStepM] = 1, t[kStepN] = 1, t[kStepKa] = t[kStepKb] = static_cast<int32_t>(step_k);
  t[kDepthA1] = static_cast<int32_t>(step_k * db), t[kDepthB1] = static_cast<int32_t>(step_k * db);
  t[kIsBias] = p.is_bias ? 1 : 0;
  t[kIterateOrder] = 0;
  t[kDbL0A] = 2, t[kDbL0B] = 2, t[kDbL0C] = 1;
  t[kShareL1Size] = static_cast<int32_t>((db * step_k * (a_blk + b_blk) + bias_row) / 2);
  t[kShareL0CSize] = static_cast<int32_t>(bm * bn * 4);
  t[kBatchM] = t[kBatchN] = t[kSingleBatchM] = t[kSingleBatchN] = 1;
  if (chip.npu_arch == 1001 || chip.npu_arch == 2002 || chip.npu_arch == 3002) {
    const int64_t want = std::max({a_blk / 2, b_blk / 2, bm * bn * 4});
    t[kTransLength] = static_cast<int32_t>(std::min(want, chip.ub / 4));
  }
  return R::Ok(t);
}

}  // namespace tcfuzz::oracle::ascend
