// The deciding vectors of rows N5 and N6 (suites/tests/support/zero_deciding.h) through the
// oracle's rows: each gives the value derived by hand, and each decides (the other reading
// differs). The GPU test runs the same vectors on a device.
#include "suites/tests/support/zero_deciding.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>

#include "oracle/numerics/dot_product.h"

namespace tcfuzz::oracle::num {
namespace {

// The instruction K the vectors run at: 16 for f16/bf16 (m16n8k16, wgmma k16), 8 for tf32.
int KOf(Format ab) { return ab == Format::kTF32 ? 8 : 16; }

TEST(ZeroDeciding, HandDerivedConstants) {
  // N5: 0x0049 is bf16 73 * 2^-133, times -1; as f32 it is the subnormal 73 * 2^16 ulps of 2^-149.
  EXPECT_EQ(std::bit_cast<uint32_t>(std::ldexp(-73.0f, -133)), 0x80490000u);
  EXPECT_EQ(std::bit_cast<uint32_t>(-std::ldexp(1.0f, -126)), 0x80800000u);  // tf32 2^-126 x -1
  // The other reading aligns the zero product at -126 + (0x7ab8's exponent 245 - 127 = 118) = -8
  // (tf32: -126 + 127 = 1); 24 or 25 bits below that, a term near 2^-127 is truncated to 0.
  EXPECT_EQ((0x7ab8 >> 7) & 0xff, 245);
  EXPECT_EQ((0x7f000000u >> 23) & 0xff, 254u);
  // N6: bf16 0x1a00 = 2^-75 (exponent field 52), so the product is -2^-150: below f32's smallest
  // subnormal 2^-149, RZ gives -0; f16 0x0800 = 2^-13, the product -2^-26 is below half of
  // f16's 2^-24, RNE gives -0.
  EXPECT_EQ((0x1a00 >> 7) & 0xff, 127 - 75);
  EXPECT_EQ((0x0800 >> 10) & 0x1f, 15 - 13);
}

TEST(ZeroDeciding, OracleRowsGiveThePredictionsAndEachVectorDecides) {
  for (const test::ZeroVector& v : test::ZeroVectors()) {
    const int k = KOf(v.ab);
    const auto a = test::Spread(v, v.a, k), b = test::Spread(v, v.b, k);
    struct Row {
      Gpu gpu;
      Instr instr;
      uint32_t want;
    };
    for (const Row& r :
         {Row{Gpu::kSm80, Instr::kMma, v.ieee}, Row{Gpu::kSm89, Instr::kMma, v.ieee},
          Row{Gpu::kSm90, Instr::kMma, v.sm90}, Row{Gpu::kSm90, Instr::kWgmma, v.sm90},
          Row{Gpu::kSm100, Instr::kMma, v.ieee}}) {
      const auto p = ParamsFor(r.gpu, r.instr, v.ab, v.cd);
      if (!p) continue;  // e.g. no bf16 -> f16 row
      EXPECT_EQ(DotProduct(a, b, v.c, v.ab, v.ab, v.cd, *p), r.want)
          << v.name << " " << Name(r.gpu) << " " << Name(r.instr);
    }
    // Deciding: the IEEE rows' answer is not the other reading's (sm_90's +0 is N4/N6, settled on
    // an H100 by these vectors).
    EXPECT_NE(v.ieee, v.other) << v.name;
  }
}

}  // namespace
}  // namespace tcfuzz::oracle::num
