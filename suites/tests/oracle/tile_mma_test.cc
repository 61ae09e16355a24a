// TileMma decodes each operand once per tile; its D must be, element for element, DotProduct
// (floats) or IntDotProduct (integers) over the element's own operand bits gathered by hand (the
// per-element definition it replaced), for every format, with gathers through `meets`, masked
// and permuted columns, and C present or absent.
#include "oracle/numerics/tile_mma.h"

#include <gtest/gtest.h>

#include <vector>

#include "generators/core/mma_values.h"
#include "generators/core/random_source.h"
#include "suites/tests/support/test_seed.h"

namespace tcfuzz::oracle::num {
namespace {

TEST(TileMma, EveryElementIsTheDotProductOfItsOwnOperands) {
  gen::RandomSource s(test::Seed());
  constexpr Format kAb[] = {Format::kF16,  Format::kBF16, Format::kTF32,
                            Format::kE4M3, Format::kE5M2, Format::kE2M1,
                            Format::kS8,   Format::kU8,   Format::kS4};
  for (int round = 0; round < 200; ++round) {
    TileMmaSpec spec;
    spec.fa = kAb[s.Below(std::size(kAb))];
    spec.fb = IsFloat(spec.fa) ? spec.fa : kAb[6 + s.Below(3)];
    spec.cd = IsFloat(spec.fa) ? (s.Coin() ? Format::kF32 : Format::kF16) : Format::kS32;
    spec.satfinite = s.Coin();
    spec.params.F = 13 + static_cast<int>(s.Below(13));
    spec.params.L = 1 << s.Below(6);
    spec.params.rho = spec.cd == Format::kF16 ? Rounding::kRneF16
                                              : (s.Coin() ? Rounding::kRzF32 : Rounding::kRzE8M13);
    spec.m = 1 + static_cast<int>(s.Below(6));
    spec.n = 1 + static_cast<int>(s.Below(6));
    const int k = 1 + static_cast<int>(s.Below(40));
    spec.stored = s.Coin() ? k : (k + 1) / 2;
    const bool b_n_major = s.Coin();
    spec.b_k_stride = b_n_major ? 1 : static_cast<std::size_t>(spec.n) + 1;  // +1: a padded row
    spec.b_n_stride = b_n_major ? static_cast<std::size_t>(k) : 1;
    const auto mode = s.Coin() ? gen::ValueMode::kEdge : gen::ValueMode::kRandom;
    std::vector<uint64_t> a(static_cast<std::size_t>(spec.m * spec.stored)),
        b(static_cast<std::size_t>(k) * (spec.n + 1) + 1);
    for (auto& v : a) v = gen::Value(s, spec.fa, mode);
    for (auto& v : b) v = gen::Value(s, spec.fb, mode);
    std::vector<int> meets(a.size()), columns(static_cast<std::size_t>(spec.n));
    for (auto& x : meets) x = static_cast<int>(s.Below(static_cast<uint64_t>(k)));
    for (auto& col : columns)
      col = static_cast<int>(s.Below(static_cast<uint64_t>(spec.n) + 1)) - 1;  // -1: masked
    std::vector<uint32_t> c(static_cast<std::size_t>(spec.m * spec.n));
    for (auto& v : c) v = static_cast<uint32_t>(gen::Value(s, spec.cd, mode));
    spec.a = a;
    spec.b = b;
    const bool gather = spec.stored < k || s.Coin();
    if (gather) spec.meets = meets;
    if (s.Coin()) spec.b_column = columns;
    if (s.Coin()) spec.c = c;
    const std::vector<uint32_t> d = TileMma(spec);
    ASSERT_EQ(d.size(), static_cast<std::size_t>(spec.m * spec.n));
    for (int i = 0; i < spec.m; ++i) {
      for (int j = 0; j < spec.n; ++j) {
        const int col = spec.b_column.empty() ? j : columns[static_cast<std::size_t>(j)];
        std::vector<uint64_t> av, bv;
        for (int x = 0; x < spec.stored; ++x) {
          const int kk = gather ? meets[static_cast<std::size_t>(i * spec.stored + x)] : x;
          av.push_back(a[static_cast<std::size_t>(i * spec.stored + x)]);
          bv.push_back(col < 0 ? 0
                               : b[static_cast<std::size_t>(kk) * spec.b_k_stride +
                                   static_cast<std::size_t>(col) * spec.b_n_stride]);
        }
        const uint32_t ci = spec.c.empty() ? 0 : c[static_cast<std::size_t>(i * spec.n + j)];
        EXPECT_EQ(d[static_cast<std::size_t>(i * spec.n + j)],
                  IsFloat(spec.fa)
                      ? DotProduct(av, bv, ci, spec.fa, spec.fb, spec.cd, spec.params)
                      : static_cast<uint32_t>(IntDotProduct(av, bv, static_cast<int32_t>(ci),
                                                            spec.fa, spec.fb, spec.satfinite)))
            << Name(spec.fa) << "x" << Name(spec.fb) << "->" << Name(spec.cd) << " D(" << i << ","
            << j << ") F " << spec.params.F << " L " << spec.params.L;
      }
    }
  }
}

}  // namespace
}  // namespace tcfuzz::oracle::num
