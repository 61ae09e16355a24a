// The tiled-execution simulator: coverage, core mapping hazards, tile order, and numeric
// agreement with a plain matmul; and legal verdicts always simulate cleanly.
#include "oracle/ascend/tiling_sim.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "suites/tests/support/tiling_cases.h"

namespace tcfuzz::oracle::ascend {
namespace {

Problem Fp16(int64_t m, int64_t n, int64_t k, bool bias = false) {
  return testing::MakeProblem(m, n, k, DType::kFloat16, bias);
}

// MakeTiling with an explicit core count (the mapping tests give too many or too few).
TCubeTiling Tiling(int cores, int64_t m, int64_t n, int64_t k, int64_t sm, int64_t sn, int64_t bm,
                   int64_t bn, int64_t bk, int step_m = 1, int step_n = 1, int order = 0) {
  TCubeTiling t = testing::MakeTiling(Fp16(m, n, k), sm, sn, bm, bn, bk, step_m, step_n, order);
  t[kUsedCoreNum] = cores;
  return t;
}

TEST(TilingSim, HuaweiUtTilingSimulatesCleanly) {
  const auto r = Simulate(Fp16(64, 256, 256, true),
                          Tiling(1, 64, 256, 256, 64, 256, 32, 64, 256, 1, 2, 1), true);
  EXPECT_TRUE(r.clean) << r.findings[0].message;
  EXPECT_TRUE(r.numeric_run);
  EXPECT_EQ(r.tiles, 8);  // 2 x 4 tiles of 32 x 64
}

TEST(TilingSim, TailsInEveryDimension) {
  // 65 x 33 x 17 with 16-element tiles on 2 x 2 cores: tails in M, N and K at once.
  const auto r = Simulate(Fp16(65, 33, 17), Tiling(4, 65, 33, 17, 48, 32, 16, 16, 16), true);
  EXPECT_TRUE(r.clean) << r.findings[0].message;
  EXPECT_EQ(r.k_steps, 2);
}

TEST(TilingSim, OrderMWalksStepNBlocksOutermost) {
  // Reference §4: ORDER_M = for nBlk (stepN) : for mBlk (stepM) : for m : for n.
  const auto r =
      Simulate(Fp16(32, 64, 16), Tiling(1, 32, 64, 16, 32, 64, 16, 16, 16, 1, 2, 0), false);
  ASSERT_EQ(r.visits.size(), 8u);
  const std::vector<std::pair<int64_t, int64_t>> want = {{0, 0},  {0, 16}, {16, 0},  {16, 16},
                                                         {0, 32}, {0, 48}, {16, 32}, {16, 48}};
  for (std::size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(r.visits[i].m0, want[i].first) << i;
    EXPECT_EQ(r.visits[i].n0, want[i].second) << i;
  }
  const auto n =
      Simulate(Fp16(32, 64, 16), Tiling(1, 32, 64, 16, 32, 64, 16, 16, 16, 2, 1, 1), false);
  EXPECT_EQ(n.visits[1].m0, 16);  // ORDER_N: M fastest inside the block
  EXPECT_EQ(n.visits[1].n0, 0);
}

TEST(TilingSim, ExtraCoresAndMissingCoresAreFindings) {
  // K2: 3 cores for 2 C blocks: the third maps outside the grid.
  const auto extra = Simulate(Fp16(64, 64, 16), Tiling(3, 64, 64, 16, 32, 64, 16, 16, 16), false);
  EXPECT_FALSE(extra.clean);
  EXPECT_NE(extra.findings[0].message.find("core 2 maps to C block"), std::string::npos)
      << extra.findings[0].message;
  const auto few = Simulate(Fp16(64, 64, 16), Tiling(1, 64, 64, 16, 32, 64, 16, 16, 16), false);
  EXPECT_FALSE(few.clean);
  EXPECT_EQ(few.findings[0].message, "2048 elements of C are never written");
}

// A legal verdict always simulates cleanly: tilings built legal for random shapes.
RC_GTEST_PROP(TilingSimProps, LegalVerdictsSimulateCleanly, ()) {
  const int64_t m = *rc::gen::inRange<int64_t>(1, 300), n = *rc::gen::inRange<int64_t>(1, 300),
                k = *rc::gen::inRange<int64_t>(1, 300);
  const int64_t bm = 16 * *rc::gen::inRange<int64_t>(1, 5),
                bn = 16 * *rc::gen::inRange<int64_t>(1, 5),
                bk = 16 * *rc::gen::inRange<int64_t>(1, 5);
  const int64_t sm = bm * *rc::gen::inRange<int64_t>(1, 4),
                sn = bn * *rc::gen::inRange<int64_t>(1, 4);
  const int64_t cores = ((m + sm - 1) / sm) * ((n + sn - 1) / sn);
  RC_PRE(cores <= 24 && sm <= m && sn <= n);
  const int step_m = *rc::gen::inRange(1, 3), step_n = *rc::gen::inRange(1, 3),
            order = *rc::gen::inRange(0, 2);
  const TCubeTiling t =
      Tiling(static_cast<int>(cores), m, n, k, sm, sn, bm, bn, bk, step_m, step_n, order);
  const Problem p = Fp16(m, n, k);
  const TilingVerdict v = Validate(p, t, *FindChip("Ascend910B2"));
  RC_PRE(v.hard.legal());
  const SimResult r = Simulate(p, t, true);
  RC_ASSERT(r.clean);
}

}  // namespace
}  // namespace tcfuzz::oracle::ascend
