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

// The coverage count finds tile edges through a table of value / their common divisor; where
// that table would be long (M = 2^22 + 1, odd block edges: divisor 1, a table of M entries for
// four edges) it sorts them instead. Both give the exact count: one core of two leaves 2,097,152
// rows x 16 unwritten.
TEST(TilingSim, CoverageIsExactWhereTileEdgesShareNoDivisor) {
  constexpr int64_t M = (int64_t{1} << 22) + 1, half = (int64_t{1} << 21) + 1;
  const auto both = Simulate(Fp16(M, 16, 16), Tiling(2, M, 16, 16, half, 16, half, 16, 16), false);
  EXPECT_TRUE(both.clean) << both.findings[0].message;
  const auto one = Simulate(Fp16(M, 16, 16), Tiling(1, M, 16, 16, half, 16, half, 16, 16), false);
  ASSERT_FALSE(one.clean);
  EXPECT_EQ(one.findings.back().message, "33554432 elements of C are never written");
  // And on the table: 48 rows in blocks of 24 (divisor 8 with the 16-row tiles), one core short.
  const auto few = Simulate(Fp16(48, 16, 16), Tiling(1, 48, 16, 16, 24, 16, 16, 16, 16), false);
  ASSERT_FALSE(few.clean);
  EXPECT_EQ(few.findings.back().message, "384 elements of C are never written");  // 24 x 16
}

TEST(TilingSim, NzOperandsAreReadInWholeFractals) {
  // B (fp32, NZ) 32 x 40 x 16: N = 48 columns in fractals of 16 rows of N by C0 = 8 of K.
  // singleCoreN 24 puts core 1's block at N rows [24, 48): its fractal reads cover [24, 40), one
  // fractal, then [40, 48) rounded up to 16 rows = [40, 56): 8 rows past N. Each row is C0 = 8
  // fp32 elements in a K block; B is 2 K blocks x 48 rows x 8 x 4 B = 3072 B, and in the last K
  // block the overrun is bytes [3072, 3072 + 8 * 8 * 4) = [3072, 3328).
  Problem p = testing::MakeProblem(32, 48, 16, DType::kFloat32);
  p.b_format = Format::kNZ;
  TCubeTiling t = testing::MakeTiling(p, 32, 24, 32, 16, 16);
  const SimResult r = Simulate(p, t, false);
  ASSERT_TRUE(r.Has("read_past_b")) << (r.findings.empty() ? "" : r.findings[0].message);
  EXPECT_EQ(r.findings[0].message,
            "B (NZ, read in 16-row fractals): core 1 reads rows [40, 56) of N = 48: bytes [3072, "
            "3328) past B's 3072 bytes, and in every other K block rows of the next block's "
            "fractals");
  // The same split with B in ND reads exactly its rows: nothing out of range.
  p.b_format = Format::kND;
  EXPECT_TRUE(Simulate(p, t, false).clean);
}

TEST(TilingSim, UnclippedTailsReadAndWritePastTheMatrices) {
  // M = 40 in singleCoreM 32 blocks: core 1 has 8 rows. A kernel without SetTail walks 32 rows:
  // A (ND, transposed, so M is contiguous: one element per row past M) rows [32, 64) of 40, 24
  // elements x 2 B = 48 B past A's 40 x 16 x 2 = 1280 B; C rows [32, 64) x [0, 16): its last
  // element (63, 15) is 63 * 16 + 16 - 40 * 16 = 384 elements = 1536 B (fp32) past C.
  Problem p = Fp16(40, 16, 16);
  p.trans_a = true;
  TCubeTiling t = Tiling(2, 40, 16, 16, 32, 16, 32, 16, 16);
  EXPECT_TRUE(Simulate(p, t, false).clean);  // the samples clip: fine
  const SimResult r = Simulate(p, t, SimOptions{false, false});
  ASSERT_EQ(r.findings.size(), 2u);
  EXPECT_EQ(r.findings[0].message,
            "A (ND): core 1 reads rows [32, 64) of M = 40: bytes [1280, 1328) past A's 1280 bytes");
  EXPECT_EQ(r.findings[1].message,
            "core 1 writes C rows [32, 64) x columns [0, 16) of the 40x16 C: up to 1536 bytes past "
            "C's end");
}

// A legal verdict always simulates cleanly: tilings built legal for random shapes.
RC_GTEST_PROP(TilingSimProps, LegalVerdictsSimulateCleanly, ()) {
  // NZ operands (read in whole fractals) on dimensions inside the contract.
  const bool nz_a = *rc::gen::arbitrary<bool>(), nz_b = *rc::gen::arbitrary<bool>();
  const auto dim = [](bool aligned) {
    const int64_t d = *rc::gen::inRange<int64_t>(1, 300);
    return aligned ? (d + 15) / 16 * 16 : d;
  };
  const int64_t m = dim(nz_a), n = dim(nz_b), k = dim(nz_a || nz_b);
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
  Problem p = Fp16(m, n, k);
  p.a_format = nz_a ? Format::kNZ : Format::kND;
  p.b_format = nz_b ? Format::kNZ : Format::kND;
  const TilingVerdict v = Validate(p, t, *FindChip("Ascend910B2"));
  RC_PRE(v.legal());
  const SimResult r = Simulate(p, t, true);
  RC_ASSERT(r.clean);
}

}  // namespace
}  // namespace tcfuzz::oracle::ascend
