// The oracle's dot product, the unit of every float tile it judges: sm_90 f16 -> f32 with K = 16
// (the mma.sync m16n8k16 row), batched over the 128 outputs of a 16 x 8 tile as TileMma computes
// them. BM_Dot is the oracle's path (the 64-bit fast path, oracle/numerics/fast_dot.h);
// BM_DotGeneral is the same tile through the general 128-bit model, the code every tile took
// before, so one run compares them. Items are dot products. Figures: docs/performance.md.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <random>
#include <span>
#include <vector>

#include "oracle/numerics/dot_product.h"
#include "oracle/numerics/tile_mma.h"

namespace {

using namespace tcfuzz::oracle::num;

struct Tiles {
  std::vector<std::vector<uint64_t>> a, b;
  std::vector<std::vector<uint32_t>> c;
};

// 64 tiles of finite f16 values of mixed magnitudes and f32 C (seed 20261124).
const Tiles& RandomTiles() {
  static const Tiles t = [] {
    Tiles out;
    std::mt19937_64 rng(20261124);
    const auto f16 = [&] {  // exponent field 1..30: finite, normal
      return ((rng() & 1) << 15) | ((1 + rng() % 30) << 10) | (rng() & 0x3FF);
    };
    for (int i = 0; i < 64; ++i) {
      std::vector<uint64_t> a(16 * 16), b(16 * 8);
      std::vector<uint32_t> c(16 * 8);
      for (auto& x : a) x = f16();
      for (auto& x : b) x = f16();
      for (auto& x : c) x = static_cast<uint32_t>(rng()) & 0xBFFFFFFFu;  // finite
      out.a.push_back(a), out.b.push_back(b), out.c.push_back(c);
    }
    return out;
  }();
  return t;
}

const DotParams kParams = *ParamsFor(Gpu::kSm90, Instr::kMma, Format::kF16, Format::kF32);

void BM_Dot(benchmark::State& state) {
  const Tiles& t = RandomTiles();
  std::size_t i = 0;
  for (auto _ : state) {
    TileMmaSpec s;
    s.params = kParams;
    s.m = 16, s.n = 8, s.stored = 16;
    s.a = t.a[i % 64], s.b = t.b[i % 64], s.b_k_stride = 8, s.c = t.c[i % 64];
    benchmark::DoNotOptimize(TileMma(s));
    ++i;
  }
  state.SetItemsProcessed(static_cast<int64_t>(i * 128));
}
BENCHMARK(BM_Dot);

void BM_DotGeneral(benchmark::State& state) {
  const Tiles& t = RandomTiles();
  std::size_t i = 0;
  std::vector<Decoded> a(16 * 16), b(16 * 8), col(16);
  std::vector<uint32_t> d(128);
  for (auto _ : state) {
    const auto& ta = t.a[i % 64];
    const auto& tb = t.b[i % 64];
    for (std::size_t x = 0; x < a.size(); ++x) a[x] = Decode(Format::kF16, ta[x]);
    for (std::size_t x = 0; x < b.size(); ++x) b[x] = Decode(Format::kF16, tb[x]);
    for (int r = 0; r < 16; ++r) {
      for (int j = 0; j < 8; ++j) {
        for (int k = 0; k < 16; ++k) col[k] = b[k * 8 + j];
        d[r * 8 + j] = DotProduct(std::span<const Decoded>(a).subspan(r * 16, 16), col,
                                  t.c[i % 64][r * 8 + j], Format::kF32, kParams);
      }
    }
    benchmark::DoNotOptimize(d.data());
    ++i;
  }
  state.SetItemsProcessed(static_cast<int64_t>(i * 128));
}
BENCHMARK(BM_DotGeneral);

}  // namespace
