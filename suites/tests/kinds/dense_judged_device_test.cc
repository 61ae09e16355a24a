// The dense-mma-judged kernel's lane code, run on the host (the suite's host-run twin): the
// registers it draws are the registers the oracle's fragment maps pack for the host-rebuilt case,
// and the D it computes with each GPU's row is the general 128-bit model's, for
// every type and value mode. Only the mma instruction itself and the copies are left for the GPU
// test (gpu/dense_judged_hw_test.cc).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <span>

#include "generators/core/random_source.h"
#include "harness/mma_dense.h"
#include "oracle/core/counter_hash.h"
#include "suites/kinds/dense_device_cases.h"
#include "suites/kinds/judged_device.h"
#include "suites/kinds/judged_worker.h"
#include "suites/tests/support/test_seed.h"

namespace tcfuzz::suites {
namespace {

using oracle::num::Format;
using oracle::num::Gpu;

TEST(DenseJudgedLane, RegistersAndDAreTheOraclesForEveryRowTypeAndMode) {
  const harness::DenseJudgedTable table = DenseJudgedTableOf();
  const uint64_t seed = test::Seed();
  const uint64_t key = gen::SuiteKey(seed, kDenseMmaJudgedSuite);
  int seen[2][4] = {};
  for (const Gpu gpu : {Gpu::kSm80, Gpu::kSm90, Gpu::kSm100}) {
    const auto params = FastMmaParams(gpu);
    ASSERT_TRUE(params.has_value()) << oracle::num::Name(gpu);
    for (uint64_t index = 0; index < 600; ++index) {
      const uint64_t cs = oracle::CaseSeedFromKey(key, index);
      const gen::DeviceDrawnDense g = DrawDenseJudgedCase(seed, index);
      const oracle::mma::DenseTile& t = g.dense.tile;
      ++seen[t.a_type == Format::kBF16][g.mode];
      const harness::MmaDenseSpec spec{t.form, t.a_type, t.b_type, t.cd, false};
      const harness::PackedMmaDense p =
          harness::PackMmaDense(spec, std::span<const oracle::mma::DenseTile>(&t, 1));
      // The general 128-bit model (not the fast path the lane code and TileMma share).
      const oracle::num::DotParams row_params = *DenseParams(t, gpu);
      std::vector<uint32_t> want(128);
      for (int row = 0; row < 16; ++row) {
        for (int col = 0; col < 8; ++col) {
          std::vector<oracle::num::Decoded> a(16), b(16);
          for (int k = 0; k < 16; ++k) {
            a[k] = oracle::num::Decode(t.a_type, t.a[row * 16 + k]);
            b[k] = oracle::num::Decode(t.b_type, t.b[k * 8 + col]);
          }
          want[row * 8 + col] =
              oracle::num::DotProduct(a, b, t.c[row * 8 + col], Format::kF32, row_params);
        }
      }
      harness::DenseJudgedValues v;
      std::memset(static_cast<void*>(&v), 0xA5, sizeof v);  // as shared memory
      for (int lane = 0; lane < 32; ++lane) {
        const harness::DenseJudgedLane r = harness::DrawLane(table, cs, lane, v);
        for (int x = 0; x < 4; ++x)
          ASSERT_EQ(r.a[x], p.a[static_cast<std::size_t>(lane * 4 + x)]) << index << " " << lane;
        for (int x = 0; x < 2; ++x)
          ASSERT_EQ(r.b[x], p.b[static_cast<std::size_t>(lane * 2 + x)]) << index << " " << lane;
        for (int x = 0; x < 4; ++x)
          ASSERT_EQ(r.c[x], p.c[static_cast<std::size_t>(lane * 4 + x)]) << index << " " << lane;
      }
      const uint32_t bf16 = t.a_type == Format::kBF16;
      for (int lane = 0; lane < 32; ++lane) {
        for (int x = 0; x < 4; ++x) {
          const int row = table.cd_row[lane][x], col = table.cd_col[lane][x];
          ASSERT_EQ(harness::ExpectedD(v, bf16, row, col, bf16 ? params->second : params->first),
                    want[static_cast<std::size_t>(row * 8 + col)])
              << oracle::num::Name(gpu) << " case " << index << " D[" << row << "][" << col
              << "] mode " << gen::Name(g.mode);
        }
      }
    }
  }
  for (int type = 0; type < 2; ++type) {
    for (int mode = 0; mode < 4; ++mode) EXPECT_GT(seen[type][mode], 80) << type << " " << mode;
  }
}

// The recipe's modes do what they say: near_one's exponents within 2^+-3, finite_edge reaching
// subnormals and the largest exponents, Inf and NaN only in the edge mode, and there only as the
// quiet patterns the host suites draw (FromDouble of +-NaN) and +-Inf.
TEST(DenseJudgedLane, ModesDrawWhatTheySay) {
  int subnormal = 0, top = 0, inf = 0, nan = 0, c_special = 0;
  for (uint64_t index = 0; index < 3000; ++index) {
    const gen::DeviceDrawnDense g = DrawDenseJudgedCase(20261124, index);
    const oracle::mma::DenseTile& t = g.dense.tile;
    const bool bf16 = t.a_type == Format::kBF16;
    const int p = bf16 ? 7 : 10, eb = bf16 ? 8 : 5, bias = (1 << (eb - 1)) - 1;
    const uint64_t qnan = oracle::num::FromDouble(t.a_type, NAN) & 0x7FFF;
    for (const std::vector<uint64_t>* operand : {&t.a, &t.b}) {
      for (const uint64_t bits : *operand) {
        const int e = static_cast<int>((bits >> p) & ((1u << eb) - 1));
        if (e == (1 << eb) - 1) {
          ASSERT_EQ(g.mode, oracle::mma::drawn::kNonFinite) << "Inf or NaN drawn in another mode";
          const uint64_t magnitude = bits & 0x7FFF;
          ASSERT_TRUE(magnitude == (((1u << eb) - 1) << p) || magnitude == qnan) << bits;
          magnitude == qnan ? ++nan : ++inf;
        }
        if (g.mode == oracle::mma::drawn::kNearOne) {
          ASSERT_LE(std::abs(e - bias), 3) << bits;
        }
        if (g.mode == oracle::mma::drawn::kEdge) subnormal += e == 0, top += e == (1 << eb) - 2;
      }
    }
    for (const uint32_t c : t.c) {
      if (((c >> 23) & 0xFF) != 0xFFu) continue;
      ASSERT_EQ(g.mode, oracle::mma::drawn::kNonFinite) << "C Inf or NaN in another mode";
      ASSERT_TRUE((c & 0x7FFFFFFFu) == 0x7F800000u ||
                  (c & 0x7FFFFFFFu) == oracle::num::FromDouble(Format::kF32, NAN))
          << c;
      ++c_special;
    }
  }
  EXPECT_GT(subnormal, 1000);
  EXPECT_GT(top, 300);
  EXPECT_GT(inf, 300);
  EXPECT_GT(nan, 300);
  EXPECT_GT(c_special, 50);
}

}  // namespace
}  // namespace tcfuzz::suites
