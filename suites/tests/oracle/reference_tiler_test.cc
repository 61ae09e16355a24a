// The reference tiler: whatever it answers validates and simulates cleanly, on every chip, for
// edge shapes (1, 15, 17, non-multiples of 16 and C0, exact fits, bias) and random ones.
#include "oracle/ascend/reference_tiler.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "oracle/ascend/tiling_sim.h"

namespace tcfuzz::oracle::ascend {
namespace {

void ExpectSound(const Problem& p, const ChipProfile& chip) {
  auto t = MakeTiling(p, chip);
  if (!t.ok()) {
    // Only problem-level impossibilities may be refused.
    EXPECT_EQ(t.error().rfind("no tiling: ", 0), 0u) << t.error();
    return;
  }
  const TilingVerdict v = Validate(p, t.value(), chip);
  ASSERT_TRUE(v.hard.legal()) << chip.name << " " << ProblemToJson(p)
                              << v.hard.violations()[0].rule->id << ": "
                              << v.hard.violations()[0].message;
  const SimResult r = Simulate(p, t.value(), p.m * p.n * p.k <= (1 << 20));
  ASSERT_TRUE(r.clean) << chip.name << " " << ProblemToJson(p) << r.findings[0].message;
}

TEST(ReferenceTiler, EdgeShapesOnEveryChip) {
  for (const ChipProfile& chip : ChipProfiles()) {
    for (int64_t m : {1, 15, 17, 128, 1000}) {
      for (int64_t n : {1, 16, 33, 256, 4096}) {
        for (int64_t k : {1, 31, 64, 4097}) {
          for (bool bias : {false, true}) {
            Problem p;
            p.m = m, p.n = n, p.k = k, p.is_bias = bias;
            ExpectSound(p, chip);
            p.a = p.b = DType::kInt8, p.c = p.bias = DType::kInt32;
            ExpectSound(p, chip);
          }
        }
      }
    }
  }
}

TEST(ReferenceTiler, RefusesWhatNoTilingCanServe) {
  Problem p;
  p.m = 64, p.n = 64, p.k = 70000;  // ND A, not transposed: inner dimension K
  EXPECT_EQ(MakeTiling(p, *FindChip("Ascend910B2")).error(),
            "no tiling: problem.nd_inner_dim: ND A's inner dimension K = 70000 exceeds 65535 on "
            "Ascend910B2");
  EXPECT_TRUE(MakeTiling(p, *FindChip("Ascend950")).ok());  // arch 3510 has no such limit
}

RC_GTEST_PROP(ReferenceTilerProps, AnswersValidateAndSimulate, ()) {
  Problem p;
  p.m = *rc::gen::inRange<int64_t>(1, 5000);
  p.n = *rc::gen::inRange<int64_t>(1, 5000);
  p.k = *rc::gen::inRange<int64_t>(1, 5000);
  p.a = p.b = *rc::gen::element(DType::kFloat16, DType::kBFloat16, DType::kFloat32, DType::kInt8);
  p.c = p.a == DType::kInt8 ? DType::kInt32 : DType::kFloat32;
  p.is_bias = *rc::gen::arbitrary<bool>();
  p.trans_a = *rc::gen::arbitrary<bool>();
  p.trans_b = *rc::gen::arbitrary<bool>();
  p.schedule = *rc::gen::element(Schedule::kNorm, Schedule::kMdl);
  const ChipProfile& chip =
      ChipProfiles()[*rc::gen::inRange<std::size_t>(0, ChipProfiles().size())];
  auto t = MakeTiling(p, chip);
  if (!t.ok()) {
    RC_ASSERT(t.error().rfind("no tiling: ", 0) == 0);
    return;
  }
  const TilingVerdict v = Validate(p, t.value(), chip);
  if (!v.hard.legal())
    RC_LOG() << v.hard.violations()[0].rule->id << ": " << v.hard.violations()[0].message << "\n";
  RC_ASSERT(v.hard.legal());
  RC_ASSERT(Simulate(p, t.value(), false).clean);
}

}  // namespace
}  // namespace tcfuzz::oracle::ascend
