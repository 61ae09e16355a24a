// wgmma.mma_async with fp8 operands and a nonzero C (scale-d true) on an sm_90a device: the data
// that decides the sm_90 wgmma fp8 rows with C (docs/numerics.md: R90-wgmma, R90-wgmma-fp8-f16).
// Each tile's D is scored against candidate readings (printed); where the oracle's row is
// hardware-backed on the device, every element must agree. TCFUZZ_CAPTURE_DIR keeps every tile
// with its C and the D the device returned (wgmma_tile text files).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <map>
#include <string>

#include "generators/core/random_source.h"
#include "generators/smem/descriptor_tile_gen.h"
#include "harness/device.h"
#include "harness/wgmma_exec.h"
#include "oracle/core/backing.h"
#include "oracle/smem/smem_case.h"
#include "oracle/tile/descriptor_tile.h"
#include "oracle/tile/descriptor_tile_text.h"
#include "suites/engine/atomic_file.h"
#include "suites/engine/device_workers.h"
#include "suites/tests/support/test_seed.h"

namespace tcfuzz {
namespace {

using oracle::num::Format;
namespace num = oracle::num;
namespace smem = oracle::smem;

// A finite fp8 pattern with its exponent field in lo..hi (0..max: every binade).
uint64_t Fp8(gen::RandomSource& s, Format f, int lo, int hi) {
  const int mant = f == Format::kE4M3 ? 3 : 2, max_e = f == Format::kE4M3 ? 15 : 30;
  for (;;) {
    const uint64_t bits = s.Below(256);
    const int e = static_cast<int>(bits >> mant) & ((1 << (7 - mant)) - 1);
    if (e > max_e || (f == Format::kE4M3 && (bits & 0x7f) == 0x7f) || e < lo || e > hi) continue;
    return bits;
  }
}

// A 64 x 8 x 32 tile (gen::PlainWgmmaTile: both operands K-major, no swizzle), random values; C
// near the products' magnitudes.
oracle::tile::DescriptorTile Draw(gen::RandomSource& s, Format a, Format b, Format d, bool narrow) {
  const auto value = [&](Format f) {
    if (!narrow) return Fp8(s, f, 0, 255);
    return f == Format::kE4M3 ? Fp8(s, f, 6, 9) : Fp8(s, f, 14, 17);  // four binades: cancellation
  };
  std::vector<uint64_t> av(64 * 32), bv(8 * 32);
  for (uint64_t& x : av) x = value(a);
  for (uint64_t& x : bv) x = value(b);
  const int max_exp = d == Format::kF16 ? 12 : 16;
  std::vector<uint32_t> c;
  for (int i = 0; i < 64 * 8; ++i) {
    const double v = (1.0 + static_cast<double>(s.Below(1u << 23)) / (1u << 23)) *
                     std::ldexp(1.0, static_cast<int>(s.Below(21)) + max_exp - 20) *
                     (s.Below(2) ? -1 : 1);
    c.push_back(static_cast<uint32_t>(num::FromDouble(d, v)));
  }
  return gen::PlainWgmmaTile(a, b, d, 8, av, bv, std::move(c));
}

struct Candidate {
  std::string name;
  num::DotParams p;
  bool c_last;  // C added after the products' sum, rounded to nearest in d
};

// Candidate D for one element: the products of row r and column j, then C fused or added last.
uint32_t CandidateD(const oracle::tile::DescriptorTile& t, const std::vector<uint64_t>& a,
                    const std::vector<uint64_t>& b, int r, int j, const Candidate& c) {
  std::vector<uint64_t> x(a.begin() + r * 32, a.begin() + (r + 1) * 32),
      y(b.begin() + j * 32, b.begin() + (j + 1) * 32);
  const uint32_t cv = t.c[static_cast<std::size_t>(r * 8 + j)];
  if (!c.c_last) return num::DotProduct(x, y, cv, t.ab, t.b_type, t.d, c.p);
  return num::AddRoundedToNearest(t.d, num::DotProduct(x, y, 0, t.ab, t.b_type, t.d, c.p), cv);
}

std::vector<Candidate> Candidates(Format d) {
  const bool f32 = d == Format::kF32;
  std::vector<Candidate> c;
  for (bool last : {false, true}) {
    for (int F : {13, 24, 25}) {
      for (int L : {16, 32}) {
        const std::string tail = std::string(" L") + std::to_string(L) + (last ? " C last" : "");
        if (f32) {
          c.push_back({"F" + std::to_string(F) + tail + " RZ",
                       {F, L, -133, num::Rounding::kRzF32, false},
                       last});
          if (F == 13)
            c.push_back(
                {"F13" + tail + " E8M13", {F, L, -133, num::Rounding::kRzE8M13, false}, last});
        } else {
          c.push_back({"F" + std::to_string(F) + tail + " RNE16",
                       {F, L, -133, num::Rounding::kRneF16, false},
                       last});
        }
      }
    }
  }
  return c;
}

void Keep(const harness::DeviceInfo& info, const oracle::tile::DescriptorTile& t,
          const std::vector<uint32_t>& d, bool narrow, int serial) {
  const char* dir = std::getenv("TCFUZZ_CAPTURE_DIR");
  if (!dir) return;
  oracle::TextWriter w(oracle::tile::kDescriptorTileKind);
  w.Add("origin.device", info.name + ", CC " + std::to_string(info.cc_major) + "." +
                             std::to_string(info.cc_minor) + ", driver " +
                             std::to_string(info.driver_version));
  w.Add("origin.mode", narrow ? "narrow" : "random");
  oracle::tile::AppendDescriptorTile(w, t, 0, &d);
  char name[200];
  std::snprintf(name, sizeof name, "%s/wgmma_fp8_c_%s.%s_%s_%s_%03d.txt", dir,
                std::string(num::Name(t.ab)).c_str(), std::string(num::Name(t.b_type)).c_str(),
                std::string(num::Name(t.d)).c_str(), narrow ? "narrow" : "random", serial);
  ASSERT_TRUE(suites::WriteFileAtomic(name, w.str()).ok()) << name;
}

TEST(WgmmaFp8Hw, TilesWithNonzeroC) {
  const harness::DeviceInfo info = harness::ProbeDevice();
  if (!info.available) GTEST_SKIP() << "no GPU: " << info.reason;
  if (suites::GpuOf(info) != num::Gpu::kSm90)
    GTEST_SKIP() << "wgmma needs sm_90a, this is " << info.name;
  gen::RandomSource s(test::Seed());
  const int tiles_per_mode =
      std::getenv("TCFUZZ_FP8_HW_TILES") ? std::atoi(std::getenv("TCFUZZ_FP8_HW_TILES")) : 8;
  int serial = 0;
  for (auto [a, b] :
       {std::pair{Format::kE4M3, Format::kE4M3}, std::pair{Format::kE5M2, Format::kE5M2},
        std::pair{Format::kE4M3, Format::kE5M2}}) {
    for (Format d : {Format::kF32, Format::kF16}) {
      const std::vector<Candidate> cands = Candidates(d);
      std::map<std::string, int> score;
      int scored = 0, row_ok = 0;
      std::string row_id;
      for (bool narrow : {false, true}) {
        std::vector<oracle::tile::DescriptorTile> tiles;
        for (int i = 0; i < tiles_per_mode; ++i) tiles.push_back(Draw(s, a, b, d, narrow));
        const harness::WgmmaSpec spec = harness::SpecOf(tiles[0]);
        ASSERT_TRUE(spec.with_c);
        const auto got = harness::RunWgmma(spec, tiles);
        ASSERT_TRUE(got.ok()) << harness::WgmmaInstruction(spec) << ": " << got.error();
        for (std::size_t i = 0; i < tiles.size(); ++i) {
          const auto& t = tiles[i];
          const std::vector<uint32_t>& dev = got.value()[i];
          Keep(info, t, dev, narrow, serial++);
          const auto av = oracle::tile::ReadOperand(t, smem::Operand::kA);
          const auto bv = oracle::tile::ReadOperand(t, smem::Operand::kB);
          ASSERT_TRUE(av && bv);
          const auto want = oracle::tile::TileReference(t);
          ASSERT_TRUE(want.ok()) << want.error();
          row_id = std::string(oracle::tile::TileParams(t)->row);
          for (int r = 0; r < 64; ++r) {
            for (int j = 0; j < 8; ++j) {
              const uint32_t g = dev[static_cast<std::size_t>(r * 8 + j)];
              row_ok += want.value()[static_cast<std::size_t>(r * 8 + j)] == g;
              ++scored;
              for (const Candidate& c : cands)
                score[c.name] += CandidateD(t, *av, *bv, r, j, c) == g;
            }
          }
        }
      }
      std::printf("wgmma m64n8k32 %s x %s -> %s, nonzero C, on %s: %d elements\n",
                  std::string(num::Name(a)).c_str(), std::string(num::Name(b)).c_str(),
                  std::string(num::Name(d)).c_str(), info.name.c_str(), scored);
      for (const Candidate& c : cands)
        std::printf("  %-26s %6d / %d\n", c.name.c_str(), score[c.name], scored);
      std::printf("  oracle row %-15s %6d / %d\n", row_id.c_str(), row_ok, scored);
      if (oracle::BackingOf(row_id, "sm_90") == oracle::Backing::kHardware) {
        EXPECT_EQ(row_ok, scored) << "the hardware-backed row " << row_id
                                  << " disagrees with the device on a nonzero C";
      }
    }
  }
}

}  // namespace
}  // namespace tcfuzz
