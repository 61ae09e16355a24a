// Rows N5 (the exponent of a zero product) and N6 (the sign of an exact-zero D) on a device: the
// deciding vectors of suites/tests/support/zero_deciding.h through dense mma.sync (sm_80+) and, on
// sm_90a, wgmma (scale-d 0, so C = +0 only). Each line printed says what the device returned and
// which reading it follows; record it in docs/doc-vs-hardware.md. The test holds the device to the
// oracle's row, so a device that follows the other reading fails here until the row changes.
#include "suites/tests/support/zero_deciding.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <span>
#include <string>

#include "generators/smem/descriptor_tile_gen.h"
#include "harness/device.h"
#include "harness/mma_dense.h"
#include "harness/wgmma_exec.h"
#include "oracle/smem/smem_case.h"
#include "oracle/tile/descriptor_tile.h"
#include "suites/engine/device_workers.h"

namespace tcfuzz {
namespace {

using oracle::num::Format;
namespace smem = oracle::smem;

std::string Which(uint32_t got, uint32_t tcfuzz, uint32_t other) {
  if (got == tcfuzz) return "tcfuzz's reading";
  if (got == other) return "the other reading";
  return "neither reading";
}

// Row 0 of A and column 0 of B hold the vector, everything else +0; C = c at D[0][0], +0 elsewhere.
oracle::mma::DenseTile DenseTileOf(const test::ZeroVector& v, const oracle::mma::DenseForm* f) {
  oracle::mma::DenseTile t{f, v.ab, v.ab, v.cd, false, {}, {}, {}};
  t.a.assign(static_cast<std::size_t>(16 * f->k), 0);
  t.b.assign(static_cast<std::size_t>(f->k * 8), 0);
  t.c.assign(128, 0);
  const auto a = test::Spread(v, v.a, f->k), b = test::Spread(v, v.b, f->k);
  for (int k = 0; k < f->k; ++k) {
    t.a[static_cast<std::size_t>(k)] = a[static_cast<std::size_t>(k)];      // A[0][k]
    t.b[static_cast<std::size_t>(k * 8)] = b[static_cast<std::size_t>(k)];  // B[k][0]
  }
  t.c[0] = v.c;
  return t;
}

// A wgmma tile (gen::PlainWgmmaTile: both operands K-major, no swizzle): row 0 of A and of B hold
// the vector.
oracle::tile::DescriptorTile WgmmaTileOf(const test::ZeroVector& v) {
  const int k = v.ab == Format::kTF32 ? 8 : 16;
  std::vector<uint64_t> a(static_cast<std::size_t>(64 * k), 0),
      b(static_cast<std::size_t>(8 * k), 0);
  const auto va = test::Spread(v, v.a, k), vb = test::Spread(v, v.b, k);
  for (int x = 0; x < k; ++x)
    a[static_cast<std::size_t>(x)] = va[static_cast<std::size_t>(x)],
    b[static_cast<std::size_t>(x)] = vb[static_cast<std::size_t>(x)];
  return gen::PlainWgmmaTile(v.ab, v.ab, v.cd, 8, a, b, {});
}

TEST(ZeroDeciding, OnTheDevice) {
  const harness::DeviceInfo info = harness::ProbeDevice();
  if (!info.available) GTEST_SKIP() << "no GPU: " << info.reason;
  if (info.cc_major < 8) GTEST_SKIP() << "mma.sync m16n8 needs sm_80, this is " << info.name;
  const oracle::num::Gpu gpu = suites::GpuOf(info);  // the device's numerics row
  const bool sm90 = gpu == oracle::num::Gpu::kSm90;
  for (const test::ZeroVector& v : test::ZeroVectors()) {
    const oracle::mma::DenseForm* f =
        oracle::mma::FindDenseForm(v.ab == Format::kTF32 ? "m16n8k8" : "m16n8k16", v.ab);
    ASSERT_NE(f, nullptr) << v.name;
    const auto params = oracle::num::ParamsFor(gpu, oracle::num::Instr::kMma, v.ab, v.cd);
    if (params) {
      const harness::MmaDenseSpec spec{f, v.ab, v.ab, v.cd, false};
      const std::vector<oracle::mma::DenseTile> tiles = {DenseTileOf(v, f)};
      const auto d = harness::RunMmaDense(spec, tiles);
      ASSERT_TRUE(d.ok()) << v.name << ": " << d.error();
      const uint32_t want = oracle::mma::DenseReference(tiles[0], *params)[0];
      EXPECT_EQ(want, sm90 ? v.sm90 : v.ieee) << v.name;  // the oracle's row gives the prediction
      const uint32_t got = d.value()[0][0];
      std::printf("%s %s mma.sync: device %08x, tcfuzz %08x, other %08x: %s\n",
                  std::string(v.question).c_str(), std::string(v.name).c_str(), got, want, v.other,
                  Which(got, want, v.other).c_str());
      EXPECT_EQ(got, want) << v.question << " " << v.name
                           << " through mma.sync: the device follows " << Which(got, want, v.other);
    }
    // wgmma: sm_90a only, f16/bf16 inputs, C = +0 (the kernels run with scale-d 0).
    if (!sm90 || v.ab == Format::kTF32 || v.c != 0) continue;
    const oracle::tile::DescriptorTile t = WgmmaTileOf(v);
    const auto d =
        harness::RunWgmma(harness::SpecOf(t), std::span<const oracle::tile::DescriptorTile>(&t, 1));
    ASSERT_TRUE(d.ok()) << v.name << ": " << d.error();
    const auto want = oracle::tile::TileReference(t);
    ASSERT_TRUE(want.ok()) << want.error();
    EXPECT_EQ(want.value()[0], v.sm90) << v.name;
    const uint32_t got = d.value()[0][0];
    std::printf("%s %s wgmma: device %08x, tcfuzz %08x, other %08x: %s\n",
                std::string(v.question).c_str(), std::string(v.name).c_str(), got, want.value()[0],
                v.other, Which(got, want.value()[0], v.other).c_str());
    EXPECT_EQ(got, want.value()[0])
        << v.question << " " << v.name << " through wgmma: the device follows "
        << Which(got, want.value()[0], v.other);
  }
}

}  // namespace
}  // namespace tcfuzz
