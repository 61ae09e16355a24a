// Dense mma.sync with fp8 operands (m16n8k32 e4m3/e5m2, f32 and f16 D, nonzero C) on the GPU:
// the data that decides the sm_90 fp8 rows (docs/doc-vs-hardware.md N2). Every tile's D is
// scored against candidate parameter rows and block partitions (printed), small-integer tiles
// must be exact, and where the oracle has a row for the device every tile must agree with it.
// TCFUZZ_CAPTURE_DIR keeps every tile with the D the device returned (dense_mma text files).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <map>
#include <string>

#include "generators/core/random_source.h"
#include "harness/device.h"
#include "harness/mma_dense.h"
#include "oracle/mma/dense_case_text.h"
#include "suites/engine/atomic_file.h"
#include "suites/engine/device_workers.h"
#include "suites/tests/support/test_seed.h"

namespace tcfuzz {
namespace {

using oracle::mma::DenseTile;
using oracle::num::Format;
namespace num = oracle::num;

// A finite fp8 pattern: random bits (every binade), or with the exponent field in `lo..hi`.
uint64_t Fp8(gen::RandomSource& s, Format f, int lo = 0, int hi = 255) {
  const int mant = f == Format::kE4M3 ? 3 : 2, max_e = f == Format::kE4M3 ? 15 : 30;
  for (;;) {
    const uint64_t bits = s.Below(256);
    const int e = static_cast<int>(bits >> mant) & ((1 << (7 - mant)) - 1);
    if (e > max_e || (f == Format::kE4M3 && (bits & 0x7f) == 0x7f)) continue;  // NaN / Inf
    if (e < lo || e > hi) continue;
    return bits;
  }
}

// C near the products' magnitudes: sign, a random significand, exponent in [-8, 12].
uint32_t RandomC(gen::RandomSource& s, Format cd) {
  const double v = (1.0 + static_cast<double>(s.Below(1u << 23)) / (1u << 23)) *
                   std::ldexp(1.0, static_cast<int>(s.Below(21)) - 8) * (s.Below(2) ? -1 : 1);
  return static_cast<uint32_t>(num::FromDouble(cd, v));
}

enum class Mode { kRandom, kNarrow, kSmallInt };
const char* Name(Mode m) {
  return m == Mode::kRandom ? "random" : m == Mode::kNarrow ? "narrow" : "small_int";
}

DenseTile Draw(gen::RandomSource& s, const oracle::mma::DenseForm* f, Format a, Format b, Format cd,
               Mode m) {
  DenseTile t{f, a, b, cd, false, {}, {}, {}};
  const auto value = [&](Format x) -> uint64_t {
    if (m == Mode::kSmallInt) return num::FromDouble(x, static_cast<int>(s.Below(5)) - 2);
    // Narrow: exponents within four binades, so sums cancel and low bits matter.
    if (m == Mode::kNarrow) return x == Format::kE4M3 ? Fp8(s, x, 6, 9) : Fp8(s, x, 14, 17);
    return Fp8(s, x);
  };
  for (int i = 0; i < 16 * f->k; ++i) t.a.push_back(value(a));
  for (int i = 0; i < f->k * 8; ++i) t.b.push_back(value(b));
  for (int i = 0; i < 128; ++i)
    t.c.push_back(m == Mode::kSmallInt ? static_cast<uint32_t>(num::FromDouble(cd, 1.0))
                                       : RandomC(s, cd));
  return t;
}

// The tile with its K positions taken in `order` (a block partition: DotProduct fuses L
// consecutive positions, so the first L of `order` form the first block).
DenseTile Permuted(const DenseTile& t, const std::vector<int>& order) {
  DenseTile p = t;
  const int k = t.form->k;
  for (int r = 0; r < 16; ++r)
    for (int j = 0; j < k; ++j) p.a[r * k + j] = t.a[r * k + order[j]];
  for (int j = 0; j < k; ++j)
    for (int n = 0; n < 8; ++n) p.b[j * 8 + n] = t.b[order[j] * 8 + n];
  return p;
}

struct Candidate {
  std::string name;
  num::DotParams p;
  std::vector<int> order;
};

std::vector<Candidate> Candidates(Format cd) {
  std::vector<int> ascending(32), pairs;  // pairs: k % 4 in {0,1} first, then {2,3}
  for (int k = 0; k < 32; ++k) ascending[k] = k;
  for (int half : {0, 2})
    for (int k = 0; k < 32; ++k)
      if (k % 4 == half || k % 4 == half + 1) pairs.push_back(k);
  const bool f32 = cd == Format::kF32;
  const num::Rounding out = f32 ? num::Rounding::kRzF32 : num::Rounding::kRneF16;
  std::vector<Candidate> c;
  for (int F : {13, 24, 25})
    for (int L : {16, 32})
      for (const auto& [oname, order] :
           {std::pair<const char*, const std::vector<int>*>{"ascending", &ascending},
            {"pairs", &pairs}}) {
        if (L == 32 && std::string(oname) == "pairs") continue;  // one block: order is moot
        c.push_back({"F" + std::to_string(F) + " L" + std::to_string(L) + " " + oname,
                     num::DotParams{F, L, -133, out, false}, *order});
        if (f32 && F == 13)
          c.push_back({"F13 L" + std::to_string(L) + " " + oname + " E8M13",
                       num::DotParams{F, L, -133, num::Rounding::kRzE8M13, false}, *order});
      }
  return c;
}

void Keep(const harness::DeviceInfo& info, const DenseTile& t, const std::vector<uint32_t>& d,
          Mode m, int serial) {
  const char* dir = std::getenv("TCFUZZ_CAPTURE_DIR");
  if (!dir) return;
  oracle::TextWriter w(oracle::mma::kDenseKind);
  w.Add("origin.device", info.name + ", CC " + std::to_string(info.cc_major) + "." +
                             std::to_string(info.cc_minor) + ", driver " +
                             std::to_string(info.driver_version));
  w.Add("origin.mode", Name(m));
  oracle::mma::AppendDenseCase(w, t, &d);
  char name[200];
  std::snprintf(name, sizeof name, "%s/m16n8k32.%s.%s_%s_%s_%03d.txt", dir,
                std::string(num::Name(t.a_type)).c_str(), std::string(num::Name(t.b_type)).c_str(),
                std::string(num::Name(t.cd)).c_str(), Name(m), serial);
  ASSERT_TRUE(suites::WriteFileAtomic(name, w.str()).ok()) << name;
}

TEST(Fp8MmaHw, DenseTilesWithNonzeroC) {
  const harness::DeviceInfo info = harness::ProbeDevice();
  if (!info.available) GTEST_SKIP() << "no GPU: " << info.reason;
  if (info.cc_major * 10 + info.cc_minor < 89)
    GTEST_SKIP() << "mma.sync with fp8 needs sm_89, this is " << info.name;
  const num::Gpu gpu = suites::GpuOf(info);
  gen::RandomSource s(test::Seed());
  const int tiles_per_mode =
      std::getenv("TCFUZZ_FP8_HW_TILES") ? std::atoi(std::getenv("TCFUZZ_FP8_HW_TILES")) : 16;
  int serial = 0;
  for (Format a : {Format::kE4M3, Format::kE5M2}) {
    const oracle::mma::DenseForm* f = oracle::mma::FindDenseForm("m16n8k32", a);
    ASSERT_NE(f, nullptr);
    for (Format b : {Format::kE4M3, Format::kE5M2}) {
      for (Format cd : {Format::kF32, Format::kF16}) {
        const harness::MmaDenseSpec spec{f, a, b, cd, false};
        const auto row = num::ParamsFor(gpu, num::Instr::kMma, a, cd);
        const std::vector<Candidate> cands = Candidates(cd);
        std::map<std::string, int> score;
        int scored = 0, row_ok = 0, row_n = 0;
        for (Mode m : {Mode::kSmallInt, Mode::kRandom, Mode::kNarrow}) {
          std::vector<DenseTile> tiles;
          for (int i = 0; i < tiles_per_mode; ++i) tiles.push_back(Draw(s, f, a, b, cd, m));
          const auto d = harness::RunMmaDense(spec, tiles);
          ASSERT_TRUE(d.ok()) << harness::MmaDenseInstruction(spec) << ": " << d.error();
          for (std::size_t i = 0; i < tiles.size(); ++i) {
            const std::vector<uint32_t>& got = d.value()[i];
            Keep(info, tiles[i], got, m, serial++);
            if (m == Mode::kSmallInt) {  // every sum exact: any row gives it
              EXPECT_EQ(got, oracle::mma::DenseReference(tiles[i], num::ExactParams(cd)))
                  << harness::MmaDenseInstruction(spec) << " small-integer tile " << i;
              continue;
            }
            if (row) {
              const auto want = oracle::mma::DenseReference(tiles[i], *row);
              for (int e = 0; e < 128; ++e) row_ok += want[e] == got[e];
              row_n += 128;
            }
            scored += 128;
            for (const Candidate& c : cands) {
              const auto want = oracle::mma::DenseReference(Permuted(tiles[i], c.order), c.p);
              for (int e = 0; e < 128; ++e) score[c.name] += want[e] == got[e];
            }
          }
        }
        std::printf("%s on %s: %d random/narrow elements\n",
                    harness::MmaDenseInstruction(spec).c_str(), info.name.c_str(), scored);
        for (const Candidate& c : cands)
          std::printf("  %-28s %6d / %d\n", c.name.c_str(), score[c.name], scored);
        if (row) {
          std::printf("  oracle row %-17s %6d / %d\n", std::string(row->row).c_str(), row_ok,
                      row_n);
          EXPECT_EQ(row_ok, row_n)
              << harness::MmaDenseInstruction(spec) << " against row " << row->row;
        }
      }
    }
  }
}

}  // namespace
}  // namespace tcfuzz
