// The sparse-mma-judged kernel's lane code, run on the host (the suite's host-run twin): the
// registers it draws are the registers the oracle's fragment maps pack for the host-rebuilt case
// (the packing that ran on the H100), and the D it computes with each GPU's row is the general
// 128-bit model's (the oracle's Reference with general_only, its metadata read through the
// oracle's own kept-position rule rather than the kernel's tables), for every variant and value
// mode. Only the mma.sp instruction itself and the copies are left for the GPU test
// (gpu/sparse_judged_hw_test.cc).
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "generators/core/random_source.h"
#include "generators/mma/device_drawn_dense_gen.h"
#include "harness/sparse_mma_exec.h"
#include "harness/sparse_mma_judged_lane.h"
#include "oracle/core/counter_hash.h"
#include "oracle/sparse/device_drawn_sparse.h"
#include "suites/checks/sparse_mma_checks.h"
#include "suites/kinds/judged_device.h"
#include "suites/kinds/judged_worker.h"
#include "suites/tests/support/sparse_mma_lane.h"
#include "suites/tests/support/test_seed.h"

namespace tcfuzz::suites {
namespace {

using namespace oracle::sparse;
using oracle::num::Gpu;

TEST(SparseJudgedLane, RegistersAndDAreTheOraclesForEveryRowVariantAndMode) {
  const std::vector<harness::SparseExactTable> tables = SparseExactTables(gen::DrawnVariants());
  const uint64_t seed = test::Seed();
  const uint64_t key = gen::SuiteKey(seed, kSparseMmaJudgedSuite);
  std::vector<int> per_variant(tables.size(), 0);
  int per_mode[4] = {};
  for (const Gpu gpu : {Gpu::kSm80, Gpu::kSm90, Gpu::kSm100}) {
    const auto params = FastMmaParams(gpu);
    ASSERT_TRUE(params.has_value()) << oracle::num::Name(gpu);
    for (uint64_t index = 0; index < 700; ++index) {
      const uint64_t cs = oracle::CaseSeedFromKey(key, index);
      const gen::DeviceDrawnSparseFloat drawn_case = DrawSparseJudgedCase(seed, index);
      const gen::GeneratedSparse& g = drawn_case.sparse;
      const std::size_t v =
          drawn::Pick(cs, drawn::kVariant, 0, 0, static_cast<uint32_t>(tables.size()));
      if (gpu == Gpu::kSm80) {  // the same 700 draws for every row: counted once
        ++per_variant[v];
        ++per_mode[drawn_case.mode];
      }
      const harness::SparseExactTable& t = tables[v];
      const harness::PackedMmaSp p = test::PackOne(g);
      const int ar = g.op.form->a_regs, br = g.op.form->b_regs;
      const std::vector<uint32_t> want =
          Reference(g.tile, *SparseParams(g.tile, gpu), SparseBlocking::kCompressed,
                    /*general_only=*/true);
      harness::SparseJudgedValues values;
      std::memset(static_cast<void*>(&values), 0xA5, sizeof values);  // as shared memory
      for (int lane = 0; lane < 32; ++lane) {
        const harness::SparseExactLane r = harness::DrawJudgedLane(t, cs, lane, values);
        test::ExpectLaneIsPacked(r, p, ar, br, lane,
                                 std::to_string(index) + " " + g.op.form->Name() + " selector " +
                                     std::to_string(g.op.selector));
      }
      const oracle::num::fast::Params& row_params =
          g.tile.a_type == oracle::num::Format::kBF16 ? params->second : params->first;
      for (int lane = 0; lane < 32; ++lane) {
        for (int x = 0; x < 4; ++x) {
          const int row = t.cd_row[lane][x], col = t.cd_col[lane][x];
          ASSERT_EQ(harness::ExpectedJudgedD(t, values, row, col, row_params),
                    want[static_cast<std::size_t>(row * 8 + col)])
              << oracle::num::Name(gpu) << " case " << index << " " << g.op.form->Name() << " D["
              << row << "][" << col << "] mode " << gen::Name(drawn_case.mode);
        }
      }
    }
  }
  // Every variant checked against the oracle above (29 draws each expected of 700: none is
  // e^-29); every mode more than 100 times (175 expected, standard deviation 11.5: 6 below).
  // The old bounds, 30 of the three rows' 2,100 counts, were 3.6 deviations below: a test seed
  // in a few hundred failed them.
  for (std::size_t v = 0; v < tables.size(); ++v) EXPECT_GT(per_variant[v], 0) << "variant " << v;
  for (int mode = 0; mode < 4; ++mode) EXPECT_GT(per_mode[mode], 100) << "mode " << mode;
  // Uniform over variants, on 1,000 draws a variant expected (standard deviation 31): each more
  // than 800.
  std::vector<int> picks(tables.size(), 0);
  const std::size_t draws = 1000 * tables.size();
  for (uint64_t index = 0; index < draws; ++index)
    ++picks[drawn::Pick(oracle::CaseSeedFromKey(key, index), drawn::kVariant, 0, 0,
                        static_cast<uint32_t>(tables.size()))];
  for (std::size_t v = 0; v < tables.size(); ++v) EXPECT_GT(picks[v], 800) << "variant " << v;
}

// The float recipe keeps the small-integer suite's shape (variant, metadata, unselected lanes) for
// the same case seed, draws Inf and NaN only in its edge mode, and its mode is not tied to its
// variant (the two come from separate streams: the same stream would tie mode to variant mod 4).
TEST(SparseJudgedLane, FloatCasesShareTheShapeAndTheirModeIsIndependentOfTheVariant) {
  int joint[24][4] = {};
  const std::size_t variants = gen::DrawnVariants().size();
  ASSERT_EQ(variants % 4, 0u) << "the test below needs a variant count a multiple of 4";
  for (uint64_t cs = 1; cs < 6000; ++cs) {
    const gen::DeviceDrawnSparseFloat f = gen::DrawDeviceDrawnFloat(cs);
    const gen::GeneratedSparse exact = gen::DrawDeviceDrawn(cs);
    ASSERT_EQ(f.sparse.op.form, exact.op.form);
    ASSERT_EQ(f.sparse.op.selector, exact.op.selector);
    ASSERT_EQ(f.sparse.op.meta, exact.op.meta);
    ASSERT_EQ(f.sparse.tile.nibbles, exact.tile.nibbles);
    ASSERT_TRUE(Validate(f.sparse.op).legal()) << cs;
    const bool bf16 = f.sparse.tile.a_type == oracle::num::Format::kBF16;
    const int p = bf16 ? 7 : 10, eb = bf16 ? 8 : 5;
    if (f.mode != oracle::mma::drawn::kNonFinite) {
      for (const uint64_t bits : f.sparse.tile.a)
        ASSERT_NE((bits >> p) & ((1u << eb) - 1), (1u << eb) - 1) << "Inf or NaN in A";
      for (const uint64_t bits : f.sparse.tile.b)
        ASSERT_NE((bits >> p) & ((1u << eb) - 1), (1u << eb) - 1) << "Inf or NaN in B";
    }
    const std::size_t v = drawn::Pick(cs, drawn::kVariant, 0, 0, static_cast<uint32_t>(variants));
    if (v < 24) ++joint[v][f.mode];
  }
  for (std::size_t v = 0; v < std::min<std::size_t>(variants, 24); ++v) {
    for (int mode = 0; mode < 4; ++mode) EXPECT_GT(joint[v][mode], 15) << v << " " << mode;
  }
}

// A table that swaps the kept positions of one nibble: the lane code's D then differs from the
// oracle's on some cases (the check above can fail).
TEST(SparseJudgedLane, AWrongKeptPositionIsSeen) {
  const std::vector<harness::SparseExactTable> right = SparseExactTables(gen::DrawnVariants());
  const auto params = FastMmaParams(Gpu::kSm90);
  ASSERT_TRUE(params.has_value());
  int differs = 0;
  for (uint64_t cs = 1; cs < 100; ++cs) {
    harness::SparseExactTable wrong = right[0];
    std::swap(wrong.kept_pos[0][0], wrong.kept_pos[0][1]);
    const harness::SparseJudgedValues v = harness::DrawJudgedCase(right[0], cs);
    for (int row = 0; row < 16; ++row) {
      differs += harness::ExpectedJudgedD(wrong, v, row, 0, params->first) !=
                 harness::ExpectedJudgedD(right[0], v, row, 0, params->first);
    }
  }
  EXPECT_GT(differs, 100);
}

}  // namespace
}  // namespace tcfuzz::suites
