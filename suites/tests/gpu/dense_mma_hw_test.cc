// Dense mma.sync on the GPU against the oracle: small-integer operands (every sum exact), so a
// wrong fragment map shows up as a wrong D element. Skips without a GPU (or below sm_80).
#include <gtest/gtest.h>

#include "generators/core/random_source.h"
#include "harness/device.h"
#include "harness/mma_dense.h"
#include "suites/tests/support/test_seed.h"

namespace tcfuzz {
namespace {

using oracle::mma::DenseTile;
using oracle::num::Format;

TEST(DenseMmaHw, SmallIntegerTilesAgreeForEveryForm) {
  const harness::DeviceInfo info = harness::ProbeDevice();
  if (!info.available) GTEST_SKIP() << "no GPU: " << info.reason;
  if (info.cc_major < 8) GTEST_SKIP() << "mma.sync m16n8 needs sm_80";
  gen::RandomSource s(test::Seed());
  for (const auto& f : oracle::mma::AllDenseForms()) {
    if (f.target == "sm_89" && info.cc_major * 10 + info.cc_minor < 89) continue;
    const bool integer = !oracle::num::IsFloat(f.type);
    const harness::MmaDenseSpec spec{&f, f.type, f.type, integer ? Format::kS32 : Format::kF32,
                                     false};
    std::vector<DenseTile> tiles(64);
    for (DenseTile& t : tiles) {
      t = {&f, spec.a_type, spec.b_type, spec.cd, false, {}, {}, {}};
      // Values -2..2 (0..3 unsigned) in every format: products and sums stay exact.
      const bool unsigned_type = f.type == Format::kU8 || f.type == Format::kU4;
      const auto value = [&](Format fmt) {
        const int v =
            unsigned_type ? static_cast<int>(s.Below(4)) : static_cast<int>(s.Below(5)) - 2;
        if (!oracle::num::IsFloat(fmt))
          return static_cast<uint64_t>(v) & ((uint64_t{1} << oracle::num::StorageBits(fmt)) - 1);
        return oracle::num::FromDouble(fmt, v);
      };
      for (int i = 0; i < 16 * f.k; ++i) t.a.push_back(value(f.type));
      for (int i = 0; i < f.k * 8; ++i) t.b.push_back(value(f.type));
      for (int i = 0; i < 128; ++i)
        t.c.push_back(integer ? static_cast<uint32_t>(s.Below(9)) : 0x3f800000u);
    }
    const auto d = harness::RunMmaDense(spec, tiles);
    ASSERT_TRUE(d.ok()) << harness::MmaDenseInstruction(spec) << ": " << d.error();
    int agree = 0;
    for (std::size_t i = 0; i < tiles.size(); ++i)
      agree += d.value()[i] == oracle::mma::DenseReference(tiles[i], oracle::num::DotParams{});
    EXPECT_EQ(agree, 64) << f.Name();
  }
}

}  // namespace
}  // namespace tcfuzz
