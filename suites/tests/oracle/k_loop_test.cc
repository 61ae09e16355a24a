// The K loop of one C tile (oracle/ascend/k_loop.h): Norm baseK steps and KLoopMDLBase's chunked
// loop, traced by hand from the kernel arithmetic in ../shared/reference/ascend-tcubetiling.md
// §4; and the bounded walk that the validator uses agrees with the full walk.
#include "oracle/ascend/k_loop.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "suites/tests/support/tiling_cases.h"

namespace tcfuzz::oracle::ascend {
namespace {

Problem Mdl(int64_t k, DType ab = DType::kFloat16) {
  Problem p = testing::MakeProblem(64, 64, k, ab);
  p.schedule = Schedule::kMdl;
  return p;
}

TCubeTiling Steps(const Problem& p, int64_t bk, int step_ka, int step_kb) {
  TCubeTiling t = testing::MakeTiling(p, 64, 64, 64, 64, bk);
  t[kStepKa] = step_ka, t[kStepKb] = step_kb;
  return t;
}

std::vector<std::pair<int64_t, int64_t>> Pairs(const std::vector<KStep>& steps) {
  std::vector<std::pair<int64_t, int64_t>> out;
  for (const KStep& s : steps) out.push_back({s.k0, s.len});
  return out;
}

using Want = std::vector<std::pair<int64_t, int64_t>>;

TEST(KLoop, NormStepsBaseKWithTheTailLast) {
  const Problem p = testing::MakeProblem(64, 64, 150);
  EXPECT_EQ(Pairs(KLoopSteps(p, Steps(p, 64, 1, 1), 100)), (Want{{0, 64}, {64, 64}, {128, 22}}));
  EXPECT_FALSE(KLoopFault(p, Steps(p, 64, 3, 2)));  // Norm does not chunk by stepKa/stepKb
  EXPECT_TRUE(KLoopSteps(p, Steps(p, 64, 1, 1), 2).empty());  // 3 steps > the bound
}

TEST(KLoop, MdlWithMultipleStepsAndTails) {
  // K = 300, baseK 64, stepKa 2, stepKb 1: kIter 5, A chunks of 128 (3, tail 44), B chunks of
  // 64 (5, tail 44), minStep 1, kaStepFactor 2. Outer o reads A chunk o/2 and B chunk o; the
  // last outer iteration is the tail: base = tailK = 44, block = ceil(44/16)*16 = 48, tile =
  // min(44, 44) = 44 -> one step of 44.
  const Problem p = Mdl(300);
  const TCubeTiling t = Steps(p, 64, 2, 1);
  EXPECT_FALSE(KLoopFault(p, t));
  EXPECT_EQ(Pairs(KLoopSteps(p, t, 100)),
            (Want{{0, 64}, {64, 64}, {128, 64}, {192, 64}, {256, 44}}));
  // stepKa 4, stepKb 2, K = 512: minStep 2, two inner steps per outer iteration; A chunk o/2.
  const Problem q = Mdl(512);
  const TCubeTiling u = Steps(q, 64, 4, 2);
  EXPECT_FALSE(KLoopFault(q, u));
  EXPECT_EQ(KLoopSteps(q, u, 100).size(), 8u);
}

TEST(KLoop, NonMultipleStepsReadTheWrongChunk) {
  // stepKa 2, stepKb 3, baseK 32, K = 128: kIter 4, kaIter 2, kbIter 2 (the kernel's assert
  // passes); minStep 2, kbStepFactor 3 / 2 = 1: outer 1 starts at step 2 (columns [64, 128)) but
  // copies B's chunk 1 = steps [3, 4) = columns [96, 128).
  const Problem p = Mdl(128);
  const auto fault = KLoopFault(p, Steps(p, 32, 2, 3));
  ASSERT_TRUE(fault);
  EXPECT_EQ(*fault,
            "MDL K loop, outer iteration 1: needs B's K columns [64, 96) but its L1 holds chunk 1 "
            "= [96, 128) (K8)");
}

TEST(KLoop, BaseKOffTheC0GridLeavesColumnsUnread) {
  // int8 A has C0 = 32; baseK 48 passes H6 when A is transposed (multiple of 16). The inner loop
  // cuts the 96-column chunk in blocks of ceil(48/32)*32 = 64: one step of 48 at column 0, then
  // the tail 96 - 64 = 32 at column 48, so columns [80, 96) are never multiplied.
  const Problem p = Mdl(96, DType::kInt8);
  const auto fault = KLoopFault(p, Steps(p, 48, 2, 2));
  ASSERT_TRUE(fault);
  EXPECT_EQ(*fault, "MDL K loop, outer iteration 0: K columns [80, 96) are never multiplied");
  // The same loop in fp16 (C0 = 16, block = 48) is exact.
  const Problem f = Mdl(96);
  EXPECT_FALSE(KLoopFault(f, Steps(f, 48, 2, 2)));
}

// KLoopFault walks only the first and last 4096 outer iterations and the ones around the first
// chunk switch; KLoopSteps walks them all and stops at the first fault. They must agree.
RC_GTEST_PROP(KLoopProps, BoundedWalkFindsEveryFault, ()) {
  const DType type = *rc::gen::element(DType::kFloat16, DType::kInt8, DType::kFloat32);
  const int64_t bk = 16 * *rc::gen::inRange<int64_t>(1, 5);
  const int step_ka = *rc::gen::inRange(1, 9), step_kb = *rc::gen::inRange(1, 9);
  // Up to 12,000 steps: long enough that the walk skips outer iterations when minStep is 1.
  const int64_t k = *rc::gen::inRange<int64_t>(1, 12000 * bk);
  const Problem p = Mdl(k, type);
  const TCubeTiling t = Steps(p, bk, step_ka, step_kb);
  const auto steps = KLoopSteps(p, t, 1 << 20);
  int64_t at = 0;
  bool exact = true;
  for (const KStep& s : steps) {
    exact = exact && s.k0 == at && s.len > 0;
    at = s.k0 + s.len;
  }
  exact = exact && at == k;
  RC_ASSERT(KLoopFault(p, t).has_value() == !exact);
}

}  // namespace
}  // namespace tcfuzz::oracle::ascend
