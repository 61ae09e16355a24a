// One named regression per hazard K1-K14 of ../shared/reference/ascend-tcubetiling.md §7 that
// can be written as a (problem, tiling) case. Not cases: K9 (an unconfirmed doc typo in the
// transposed L1 formula; the rule counts baseM as given), K10 (a gap in Huawei's tests) and K11
// (kernel checks compiled out on device): they say why this suite exists rather than what to check.
// Every expected value below is derived by hand in the comment next to it.
#include <gtest/gtest.h>

#include "oracle/ascend/tiling_sim.h"
#include "suites/tests/support/tiling_cases.h"

namespace tcfuzz::oracle::ascend {
namespace {

// Short names for the shared builders: Make(m, n, k[, type]), Tile(p, sM, sN, bM, bN, bK), B2().
Problem Make(int64_t m, int64_t n, int64_t k, DType ab = DType::kFloat16) {
  return testing::MakeProblem(m, n, k, ab);
}
TCubeTiling Tile(const Problem& p, int64_t sm, int64_t sn, int64_t bm, int64_t bn, int64_t bk) {
  return testing::MakeTiling(p, sm, sn, bm, bn, bk);
}
const ChipProfile& B2() { return testing::Ascend910B2(); }

std::string First(const Verdict& v) { return v.legal() ? "" : v.violations()[0].message; }

TEST(TilingHazards, K1_ExactL0FitIsLegal) {
  // GetTiling's default fp16 tile 128x256x64 with L0 ping-pong: L0B = 256*64*2*2 = 65536 = L0B
  // and L0C = 128*256*4 = 131072 = L0C, both at equality; the doc's strict '<' would refuse it.
  const Problem p = Make(128, 256, 64);
  TCubeTiling t = Tile(p, 128, 256, 128, 256, 64);
  t[kDbL0A] = t[kDbL0B] = 2;
  const auto ok = Validate(p, t, B2());
  EXPECT_TRUE(ok.hard.legal()) << First(ok.hard);
  // One C0 more of K: 256*80*2*2 = 81920 > 65536, while A (128*80*2*2 = 40960) still fits.
  const Problem p80 = Make(128, 256, 80);
  TCubeTiling t80 = Tile(p80, 128, 256, 128, 256, 80);
  t80[kDbL0A] = t80[kDbL0B] = 2;
  const auto bad = Validate(p80, t80, B2());
  EXPECT_TRUE(bad.hard.Violates("tiling.l0b_fit"));
  EXPECT_FALSE(bad.hard.Violates("tiling.l0a_fit"));
}

TEST(TilingHazards, K2_UsedCoreNumAboveBlockCount) {
  // The UT MatmulApiTilingCheckUsedCoreNum: M = 2048, singleCoreM = 128 gives 16 C blocks, but
  // usedCoreNum = 24 (the SetDim value). Cores 16..23 get nIdx = 1 in a 16x1 grid.
  const Problem p = Make(2048, 256, 256);
  TCubeTiling t = Tile(p, 128, 256, 128, 256, 64);
  ASSERT_EQ(t[kUsedCoreNum], 16);
  t[kUsedCoreNum] = 24;
  const auto v = Validate(p, t, B2());
  EXPECT_TRUE(v.hard.legal()) << First(v.hard);
  EXPECT_TRUE(v.warnings.Violates("tiling.warn.extra_cores"));
  const auto r = Simulate(p, t, false);
  ASSERT_FALSE(r.clean);
  EXPECT_EQ(r.findings[0].message.rfind("core 16 maps to C block (0, 1) outside the 16x1 grid", 0),
            0u)
      << r.findings[0].message;
  // One kind, once per extra core, and nothing else: C itself is covered once.
  ASSERT_EQ(r.findings.size(), 1u);
  EXPECT_EQ(r.findings[0].id, "tiling.sim.core_outside_grid");
  EXPECT_EQ(r.findings[0].count, 8);
}

TEST(TilingHazards, K3_UnfilledTilingIsRejected) {
  // Process() returning 1 hands the kernel an all-zero tiling: it must be refused, and the
  // simulator must report it instead of dividing by zero.
  const Problem p = Make(64, 64, 64);
  const TCubeTiling zero;
  const auto v = Validate(p, zero, B2());
  EXPECT_TRUE(v.hard.Violates("tiling.used_core_num"));
  EXPECT_TRUE(v.hard.Violates("tiling.positive"));
  const auto r = Simulate(p, zero, true);
  EXPECT_FALSE(r.clean);
  EXPECT_FALSE(r.numeric_run);
}

TEST(TilingHazards, K4_Fp32BDepthB1ShrunkOn910B) {
  // fp32 B on 910B: UpdateDepthB1 may shrink depthB1 = 8 (stepN 2 * stepKb 4) to 6, which is
  // neither 1x nor 2x the step product (H8), nor an MDL multiple of it (H9).
  Problem p = Make(128, 256, 256, DType::kFloat32);
  p.schedule = Schedule::kMdl;
  TCubeTiling t = Tile(p, 128, 256, 64, 64, 64);
  t[kStepN] = 2, t[kStepKb] = 4, t[kDepthB1] = 8;  // all of K in L1, so stepN 2 is allowed (H10)
  const auto ok = Validate(p, t, B2());
  EXPECT_TRUE(ok.hard.legal()) << First(ok.hard);
  t[kDepthB1] = 6;
  const auto bad = Validate(p, t, B2());
  EXPECT_TRUE(bad.hard.Violates("tiling.depth_step"));
  EXPECT_TRUE(bad.hard.Violates("tiling.mdl_depth"));
}

TEST(TilingHazards, K5_ShapesPast2To31ElementsUse64BitArithmetic) {
  // 131072 x 32768 C = 2^32 elements (int32 products wrap to 0): 16 cores of 8192 rows each.
  const Problem p = Make(131072, 32768, 256);
  const TCubeTiling t = Tile(p, 8192, 32768, 128, 256, 64);
  ASSERT_EQ(t[kUsedCoreNum], 16);
  const auto v = Validate(p, t, B2());
  EXPECT_TRUE(v.hard.legal()) << First(v.hard);
  const auto r = Simulate(p, t, false);
  EXPECT_TRUE(r.clean) << r.findings[0].message;
  EXPECT_EQ(r.tiles, 16 * (8192 / 128) * (32768 / 256));
  // One core short: the last block, 8192 * 32768 = 2^28 elements, is never written.
  TCubeTiling short_by_one = t;
  short_by_one[kUsedCoreNum] = 15;
  EXPECT_TRUE(Validate(p, short_by_one, B2()).hard.Violates("tiling.too_few_cores"));
  const auto s = Simulate(p, short_by_one, false);
  ASSERT_FALSE(s.clean);
  EXPECT_EQ(s.findings[0].message, "268435456 elements of C are never written");
}

TEST(TilingHazards, K5_RawImageProductsSaturateInsteadOfWrapping) {
  // Every size field at 2^31-1: depthA1*baseM*baseK*2 is about 2^94. Wrapped in int64 it can come
  // out small or negative and pass; saturated, every capacity rule fires (found by the fuzzer).
  const Problem p = Make(64, 64, 64);
  TCubeTiling t = Tile(p, 64, 64, 16, 16, 16);
  for (Field f : {kBaseM, kBaseN, kBaseK, kDepthA1, kDepthB1, kStepM, kStepN, kStepKa, kStepKb})
    t[f] = 2147483647;
  const auto v = Validate(p, t, B2()).hard;
  for (const char* id : {"tiling.l0a_fit", "tiling.l0b_fit", "tiling.l0c_fit", "tiling.l1_fit",
                         "tiling.mmad_limits"}) {
    EXPECT_TRUE(v.Violates(id)) << id;
  }
  // The mapping itself is sound (one tile, clamped to C, covers it): the simulator, which models
  // the mapping and not the buffers, walks it without overflow and finds nothing.
  const auto r = Simulate(p, t, true);
  EXPECT_TRUE(r.clean) << r.findings[0].message;
  EXPECT_EQ(r.tiles, 1);
}

TEST(TilingHazards, K6_L1WindowBetweenKernelAndPlatformSize) {
  // 910B: the platform says L1 = 524288 B, the kernel keeps the top 128 B (TOTAL_L1_SIZE).
  ASSERT_EQ(B2().l1, 524288 - 128);
  ASSERT_EQ(B2().l1_platform, 524288);
  // int8, baseK 368: (depthA1 8 * baseM 176 + depthB1 1 * baseN 16) * 368 = 524032 B: fits both.
  Problem p = Make(176, 16, 368 * 8, DType::kInt8);
  TCubeTiling t = Tile(p, 176, 16, 176, 16, 368);
  t[kStepKa] = 8, t[kDepthA1] = 8;
  const auto ok = Validate(p, t, B2());
  EXPECT_TRUE(ok.hard.legal()) << First(ok.hard);
  // int8, baseK 256: (8 * 128 + 4 * 256) * 256 = 524288 B: the platform's size, so 128 B into
  // the kernel's reserve; a separate rule from overrunning the platform's L1.
  p = Make(128, 256, 256 * 8, DType::kInt8);
  t = Tile(p, 128, 256, 128, 256, 256);
  t[kStepKa] = 8, t[kDepthA1] = 8, t[kStepKb] = 4, t[kDepthB1] = 4;
  const auto bad = Validate(p, t, B2());
  ASSERT_EQ(bad.hard.violations().size(), 1u) << First(bad.hard);
  EXPECT_TRUE(bad.hard.Violates("tiling.l1_kernel_reserve"));
  EXPECT_EQ(bad.hard.violations()[0].message,
            "L1 blocks need 524288 B: within the platform's 524288 B but 128 B into the top 128 B "
            "the kernel reserves (TOTAL_L1_SIZE = 524160 B)");
  // One more B block of 256 x 256: 524288 + 65536 B, past the platform's L1 by 65536 B.
  t[kStepKb] = 5, t[kDepthB1] = 5;
  const auto over = Validate(p, t, B2());
  ASSERT_EQ(over.hard.violations().size(), 1u) << First(over.hard);
  EXPECT_EQ(over.hard.violations()[0].message,
            "L1 blocks need 589824 B, 65536 B over the platform's L1 of 524288 B");
}

TEST(TilingHazards, K7_DbL0CMeasuredInBytes) {
  // GetL0CoreStatus compares baseM*baseN = 32768 elements with L0C/2 = 65536 "bytes" and would
  // allow dbL0C = 2; in bytes the two buffers need 128*256*4*2 = 262144 > 131072.
  const Problem p = Make(128, 256, 64);
  TCubeTiling t = Tile(p, 128, 256, 128, 256, 64);
  t[kDbL0C] = 2;
  const auto v = Validate(p, t, B2());
  EXPECT_TRUE(v.hard.Violates("tiling.l0c_fit"));
  EXPECT_TRUE(v.warnings.Violates("tiling.warn.db_l0c"));
}

TEST(TilingHazards, K8_StepKaStepKbNotMultiples) {
  // MDL with stepKa 3, stepKb 2, baseK 64. K = 384 gives kaIter = 2, kbIter = 3 (no divisor: a
  // hard H11 violation).
  Problem p = Make(64, 64, 384);
  p.schedule = Schedule::kMdl;
  TCubeTiling t = Tile(p, 64, 64, 32, 32, 64);
  t[kStepKa] = 3, t[kDepthA1] = 3, t[kStepKb] = 2, t[kDepthB1] = 2;
  EXPECT_TRUE(Validate(p, t, B2()).hard.Violates("tiling.mdl_k_iter"));
  // K = 256 gives 2 and 2, which the kernel's assert accepts. But kaStepFactor = 3 / 2 = 1, so
  // outer iteration 1 (K steps 2 and 3 = columns [128, 256)) copies A's chunk 1 / 1 = 1, which
  // holds columns [192, 256): columns [128, 192) of A are read from the wrong chunk.
  p.k = 256;
  t[kKa] = t[kKb] = t[kSingleCoreK] = 256;
  const auto v = Validate(p, t, B2());
  EXPECT_TRUE(v.hard.Violates("tiling.mdl_k_loop")) << First(v.hard);
  EXPECT_NE(
      First(v.hard).find("needs A's K columns [128, 192) but its L1 holds chunk 1 = [192, 256)"),
      std::string::npos)
      << First(v.hard);
  EXPECT_FALSE(Simulate(p, t, true).clean);
  // K = 128 fits in one chunk of each (2 steps <= stepKb 2 < stepKa 3): one outer iteration, no
  // chunk switch, so the non-multiple steps are only GetTiling's habit (a warning).
  p.k = 128;
  t[kKa] = t[kKb] = t[kSingleCoreK] = 128;
  const auto ok = Validate(p, t, B2());
  EXPECT_TRUE(ok.hard.legal()) << First(ok.hard);
  EXPECT_TRUE(ok.warnings.Violates("tiling.warn.step_k"));
  const auto sim = Simulate(p, t, true);
  EXPECT_TRUE(sim.clean) << sim.findings[0].message;
  EXPECT_TRUE(sim.numeric_run);
}

TEST(TilingHazards, K12_NdInnerDimensionLimitIsTheProblemsNotTheTilings) {
  // ND A, not transposed: its inner dimension is K. 65535 passes, 65536 does not, except on
  // Ascend950 (arch 3510), whose copy has no such limit. No tiling can fix it, so the problem is
  // outside the contract and the tiling is not judged at all.
  for (const int64_t k : {65535, 65536}) {
    const Problem p = Make(64, 64, k);
    const TCubeTiling t = Tile(p, 64, 64, 64, 64, 64);
    const TilingVerdict v = Validate(p, t, B2());
    EXPECT_EQ(v.problem.Violates("problem.nd_inner_dim"), k > 65535) << k;
    EXPECT_EQ(v.in_contract(), k <= 65535) << k;
    EXPECT_TRUE(v.hard.legal()) << k;  // legal where judged; not judged past the limit
    EXPECT_TRUE(Validate(p, t, *FindChip("Ascend950")).legal()) << k;
  }
}

TEST(TilingHazards, K13_UnalignedKTailWithTwoKTiles) {
  // tilelang-ascend #1341: M = 64, N = 128, K = 200 with baseK 128: two K tiles, the second 72
  // wide. The tiled result must equal the plain matmul.
  const Problem p = Make(64, 128, 200);
  const TCubeTiling t = Tile(p, 64, 128, 64, 128, 128);
  EXPECT_TRUE(Validate(p, t, B2()).hard.legal());
  const auto r = Simulate(p, t, true);
  EXPECT_TRUE(r.clean) << r.findings[0].message;
  EXPECT_TRUE(r.numeric_run);
  EXPECT_EQ(r.k_steps, 2);
}

TEST(TilingHazards, K13_Int8ToInt32WithFullMAccumulator) {
  // pto-isa #214: int8 -> int32 with the whole M = 256 in one L0C tile (256*64*4 = 65536 B).
  const Problem p = Make(256, 64, 96, DType::kInt8);
  const TCubeTiling t = Tile(p, 256, 64, 256, 64, 32);
  const auto v = Validate(p, t, B2());
  EXPECT_TRUE(v.hard.legal()) << First(v.hard);
  const auto r = Simulate(p, t, true);
  EXPECT_TRUE(r.clean) << r.findings[0].message;
  EXPECT_TRUE(r.numeric_run);
  EXPECT_EQ(r.k_steps, 3);
}

TEST(TilingHazards, K14_FiftyOneFieldMirrorIsRefused) {
  // A host struct mirrored with 51 fields writes 204 bytes.
  EXPECT_EQ(FromImage(std::vector<uint8_t>(204)).error(),
            "a TCubeTiling image is 200 bytes, got 204");
  std::string json = ToJson(TCubeTiling{});
  json.insert(json.find('{') + 1, R"("extraField": 0, )");
  EXPECT_EQ(FromJson(json).error(), "tiling JSON: unknown key 'extraField'");
}

}  // namespace
}  // namespace tcfuzz::oracle::ascend
