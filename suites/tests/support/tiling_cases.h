// Hand-built Ascend problems and tilings for the oracle tests, so each test states only the
// fields it is about.
#pragma once

#include <cstdint>

#include "oracle/ascend/chip_profile.h"
#include "oracle/ascend/tcube_tiling.h"
#include "oracle/ascend/tiling_rules.h"

namespace tcfuzz::testing {

using oracle::ascend::DType;

inline oracle::ascend::Problem MakeProblem(int64_t m, int64_t n, int64_t k,
                                           DType ab = DType::kFloat16, bool bias = false) {
  oracle::ascend::Problem p;
  p.m = m, p.n = n, p.k = k, p.a = p.b = ab, p.is_bias = bias;
  if (ab == DType::kInt8 || ab == DType::kInt4) p.c = p.bias = DType::kInt32;
  return p;
}

// One core per C block, singleCoreK = K, single-buffered L0, stepKa = stepKb = 1 and depths
// equal to stepM / stepN.
inline oracle::ascend::TCubeTiling MakeTiling(const oracle::ascend::Problem& p, int64_t sm,
                                              int64_t sn, int64_t bm, int64_t bn, int64_t bk,
                                              int step_m = 1, int step_n = 1, int order = 0) {
  using namespace oracle::ascend;
  TCubeTiling t;
  const auto i32 = [](int64_t x) { return static_cast<int32_t>(x); };
  t[kM] = i32(p.m), t[kN] = i32(p.n), t[kKa] = t[kKb] = i32(p.k);
  t[kUsedCoreNum] = i32(((p.m + sm - 1) / sm) * ((p.n + sn - 1) / sn));
  t[kSingleCoreM] = i32(sm), t[kSingleCoreN] = i32(sn), t[kSingleCoreK] = i32(p.k);
  t[kBaseM] = i32(bm), t[kBaseN] = i32(bn), t[kBaseK] = i32(bk);
  t[kStepM] = step_m, t[kStepN] = step_n, t[kStepKa] = t[kStepKb] = 1;
  t[kDepthA1] = step_m, t[kDepthB1] = step_n;
  t[kIterateOrder] = order, t[kIsBias] = p.is_bias ? 1 : 0;
  t[kDbL0A] = t[kDbL0B] = t[kDbL0C] = 1;
  return t;
}

// The hand-written tiling of a Huawei kernel UT (reference §8): {coreNum 1, M 64, N 256, K 256,
// single 64/256/256, base 32/64/256, depthA1 2, depthB1 4, stepM 1, stepN 2, stepKa 1,
// stepKb 1, isBias 1, iterateOrder 1}, for MakeProblem(64, 256, 256, kFloat16, true); L0
// buffers single (the UT leaves them to the kernel).
inline oracle::ascend::TCubeTiling HuaweiUt() {
  using namespace oracle::ascend;
  TCubeTiling t =
      MakeTiling(MakeProblem(64, 256, 256, DType::kFloat16, true), 64, 256, 32, 64, 256, 1, 2, 1);
  t[kDepthA1] = 2, t[kDepthB1] = 4;
  return t;
}

inline const oracle::ascend::ChipProfile& Ascend910B2() {
  return *oracle::ascend::FindChip("Ascend910B2");
}

}  // namespace tcfuzz::testing
