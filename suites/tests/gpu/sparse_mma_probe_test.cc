// Probes that locate each sparse MMA map on the GPU one piece at a time, so a disagreement names
// the map that is wrong: first the A/B/C fragments (metadata identical in every lane and nibble,
// so its placement cannot matter), then the metadata placement (one nibble changed at a time,
// and the rows and chunks of D that move say which (row, chunk) it belongs to).
#include <gtest/gtest.h>

#include <set>

#include "generators/core/random_source.h"
#include "harness/device.h"
#include "harness/sparse_mma_exec.h"
#include "suites/checks/sparse_mma_checks.h"
#include "suites/engine/subprocess.h"
#include "suites/tests/support/printers.h"
#include "suites/tests/support/test_seed.h"

namespace tcfuzz {
namespace {

using namespace oracle::sparse;
using oracle::num::Format;

Format Cd(const SparseForm& f) {
  return oracle::num::IsFloat(f.type) ? Format::kF32 : Format::kS32;
}

uint64_t Int(const SparseForm& f, int v) {
  if (oracle::num::IsFloat(f.type)) return oracle::num::FromDouble(f.type, v);
  return static_cast<uint64_t>(v) & ((uint64_t{1} << oracle::num::StorageBits(f.type)) - 1);
}

// A tile of small non-negative integers with every nibble `nib` (all lanes hold the same word).
harness::MmaSpCase Uniform(const SparseForm& f, uint8_t nib, gen::RandomSource& s) {
  harness::MmaSpCase c;
  c.op.form = &f;
  c.op.variant = Variant::kOrdered;
  uint32_t word = 0;
  for (int i = 0; i < 8; ++i) word |= static_cast<uint32_t>(nib) << (4 * i);
  c.op.meta.fill(word);
  SparseTile& t = c.tile;
  t.form = &f;
  t.a_type = t.b_type = f.type;
  t.cd = Cd(f);
  t.nibbles.assign(static_cast<std::size_t>(16 * f.chunks_per_row()), nib);
  t.a.resize(static_cast<std::size_t>(16 * f.k / 2));
  t.b.resize(static_cast<std::size_t>(f.k * 8));
  t.c.assign(128, 0);
  for (auto& v : t.a) v = Int(f, static_cast<int>(s.Below(4)));
  for (auto& v : t.b) v = Int(f, static_cast<int>(s.Below(4)));
  return c;
}

// B weight that tells the chunk's low half from its high half (1 or 2), small enough for s4:
// (0,1) -> (2,3) must change the sum (an earlier weight, 1 + position, wrapped in s4 and hid it).
int HalfWeight(const SparseForm& f, int k) { return k % f.chunk < f.chunk / 2 ? 1 : 2; }

class SparseProbe : public ::testing::TestWithParam<SparseForm> {
 protected:
  void SetUp() override {
    const harness::DeviceInfo info = harness::ProbeDevice();
    if (!info.available) GTEST_SKIP() << "no GPU: " << info.reason;
    const SparseForm& f = GetParam();
    if (f.ordered_only) GTEST_SKIP() << f.Name() << " needs sm_120a";
    if ((f.type == Format::kE4M3 || f.type == Format::kE5M2) &&
        info.cc_major * 10 + info.cc_minor < 89) {
      GTEST_SKIP() << "fp8 mma.sp needs sm_89";
    }
  }
  harness::MmaSpSpec Spec(int selector = 0) const {
    const SparseForm& f = GetParam();
    return harness::MmaSpSpec{&f, Variant::kOrdered, selector, f.type, f.type, Cd(f), false};
  }
};

TEST_P(SparseProbe, FragmentsWithUniformMetadata) {
  const SparseForm& f = GetParam();
  gen::RandomSource s(test::Seed());
  std::vector<harness::MmaSpCase> cases;
  for (int i = 0; i < 16; ++i) cases.push_back(Uniform(f, f.type == Format::kTF32 ? 0x4 : 0x4, s));
  auto d = harness::RunMmaSp(Spec(), cases);
  ASSERT_TRUE(d.ok()) << d.error();
  const auto p = suites::SparseParams(cases[0].tile, oracle::num::Gpu::kSm90);
  int ok = 0;
  for (std::size_t i = 0; i < cases.size(); ++i)
    ok += Reference(cases[i].tile, p.value_or(oracle::num::DotParams{})) == d.value()[i];
  EXPECT_EQ(ok, 16) << f.Name()
                    << ": the A, B or C fragment map is wrong (metadata cannot matter here)";
}

// Changes one nibble of one selected lane from (0,1) to (2,3) and records which (row, chunk) of
// A moved: B column n is non-zero only in chunk n (chunk n + 8 in a second pass).
TEST_P(SparseProbe, MetadataPlacement) {
  const SparseForm& f = GetParam();
  if (f.type == Format::kTF32) GTEST_SKIP() << "tf32 nibbles (0x4/0xE) are probed by the campaign";
  for (int sel = 0; sel <= f.max_selector(); ++sel) {
    std::vector<harness::MmaSpCase> cases;
    std::vector<std::pair<int, int>> where;  // (lane, bit) per case
    gen::RandomSource s(1);
    for (int pass = 0; pass < (f.chunks_per_row() + 7) / 8; ++pass) {
      for (int lane = 0; lane < 32; ++lane) {
        if (!MetaAt(f, sel, lane, 0)) continue;
        for (int bit = 0; bit < 32; bit += 4) {
          harness::MmaSpCase c = Uniform(f, 0x4, s);
          for (auto& v : c.tile.a) v = Int(f, 1);
          for (int k = 0; k < f.k; ++k) {
            for (int n = 0; n < 8; ++n) {
              c.tile.b[static_cast<std::size_t>(k * 8 + n)] =
                  Int(f, (k / f.chunk == n + 8 * pass) ? HalfWeight(f, k) : 0);
            }
          }
          c.op.meta[static_cast<std::size_t>(lane)] =
              (c.op.meta[static_cast<std::size_t>(lane)] & ~(0xFu << bit)) | (0xEu << bit);
          cases.push_back(c);
          where.push_back({lane, bit + 32 * pass});
        }
      }
    }
    harness::MmaSpSpec spec = Spec(sel);
    auto d = harness::RunMmaSp(spec, cases);
    ASSERT_TRUE(d.ok()) << d.error();
    // Baseline D: every nibble (0,1).
    harness::MmaSpCase base = cases[0];
    base.op.meta.fill(0x44444444u);
    int wrong = 0;
    std::string first;
    for (std::size_t i = 0; i < cases.size(); ++i) {
      const int lane = where[i].first, bit = where[i].second % 32, pass = where[i].second / 32;
      auto b0 = cases[i];
      b0.op.meta.fill(0x44444444u);
      auto db = harness::RunMmaSp(spec, std::vector<harness::MmaSpCase>{b0});
      ASSERT_TRUE(db.ok());
      std::set<std::pair<int, int>> moved;  // (row, chunk)
      for (int e = 0; e < 128; ++e) {
        if (db.value()[0][static_cast<std::size_t>(e)] !=
            d.value()[i][static_cast<std::size_t>(e)]) {
          moved.insert({e / 8, e % 8 + 8 * pass});
        }
      }
      const auto want = MetaAt(f, sel, lane, bit);
      const bool in_pass = want && want->chunk / 8 == pass;
      const std::set<std::pair<int, int>> expect =
          in_pass ? std::set<std::pair<int, int>>{{want->row, want->chunk}}
                  : std::set<std::pair<int, int>>{};
      if (moved != expect) {
        ++wrong;
        if (first.empty()) {
          first = "sel " + std::to_string(sel) + " lane " + std::to_string(lane) + " bits " +
                  std::to_string(bit) + ".." + std::to_string(bit + 3) + ": moved";
          for (auto [r, c] : moved)
            first += " (row " + std::to_string(r) + ", chunk " + std::to_string(c) + ")";
          if (want)
            first += "; model says (row " + std::to_string(want->row) + ", chunk " +
                     std::to_string(want->chunk) + ")";
        }
        std::printf("  %s sel %d lane %2d bits %2d..%2d pass %d: hardware", f.Name().c_str(), sel,
                    lane, bit, bit + 3, pass);
        for (auto [r, c] : moved) std::printf(" (r%d,c%d)", r, c);
        std::printf("  model (r%d,c%d)\n", want ? want->row : -1, want ? want->chunk : -1);
      }
    }
    EXPECT_EQ(wrong, 0) << f.Name() << ": " << first;
  }
}

// Every nibble (2,3) in every lane must agree with the model (which reads it the same way).
TEST_P(SparseProbe, UniformHighPairs) {
  const SparseForm& f = GetParam();
  if (f.type == Format::kTF32) GTEST_SKIP() << "tf32 uses 0x4/0xE, probed by the campaign";
  gen::RandomSource s(3);
  std::vector<harness::MmaSpCase> cases;
  for (int i = 0; i < 8; ++i) cases.push_back(Uniform(f, 0xE, s));
  auto d = harness::RunMmaSp(Spec(), cases);
  ASSERT_TRUE(d.ok()) << d.error();
  const auto p = suites::SparseParams(cases[0].tile, oracle::num::Gpu::kSm90);
  int ok = 0;
  for (std::size_t i = 0; i < cases.size(); ++i)
    ok += Reference(cases[i].tile, p.value_or(oracle::num::DotParams{})) == d.value()[i];
  EXPECT_EQ(ok, 8) << f.Name();
}

// One whole lane's register changed from all (0,1) to all (2,3): the (row, chunk) set that moves.
TEST_P(SparseProbe, WholeLane) {
  const SparseForm& f = GetParam();
  if (f.type == Format::kTF32) GTEST_SKIP();
  gen::RandomSource s(1);
  for (int lane = 0; lane < 4; ++lane) {
    for (int pass = 0; pass < (f.chunks_per_row() + 7) / 8; ++pass) {
      harness::MmaSpCase c = Uniform(f, 0x4, s);
      for (auto& v : c.tile.a) v = Int(f, 1);
      for (int k = 0; k < f.k; ++k) {
        for (int n = 0; n < 8; ++n) {
          c.tile.b[static_cast<std::size_t>(k * 8 + n)] =
              Int(f, (k / f.chunk == n + 8 * pass) ? HalfWeight(f, k) : 0);
        }
      }
      harness::MmaSpCase x = c;
      x.op.meta[static_cast<std::size_t>(lane)] = 0xEEEEEEEEu;
      auto d = harness::RunMmaSp(Spec(), std::vector<harness::MmaSpCase>{c, x});
      ASSERT_TRUE(d.ok()) << d.error();
      std::printf("  %s lane %d pass %d moved:", f.Name().c_str(), lane, pass);
      for (int e = 0; e < 128; ++e) {
        if (d.value()[0][static_cast<std::size_t>(e)] !=
            d.value()[1][static_cast<std::size_t>(e)]) {
          std::printf(" (r%d,c%d)", e / 8, e % 8 + 8 * pass);
        }
      }
      std::printf("   [D00 base %08x]\n", d.value()[0][0]);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Hardware, SparseProbe,
                         ::testing::ValuesIn(AllForms().begin(), AllForms().end()),
                         [](const auto& p) {
                           std::string n = p.param.Name();
                           for (char& ch : n) ch = ch == '.' ? '_' : ch;
                           return n;
                         });

}  // namespace
}  // namespace tcfuzz

namespace tcfuzz {
namespace {

// SP4: f16 m16n8k32 with f32 accumulators and selector 2, which ptxas 13.0 accepts and the spec
// leaves undefined. Lanes 0,1 and 2,3 of each quad hold two different valid metadata sets; the
// test checks selectors 0 and 1 read them, then records what selector 2 does (on an H100 it
// traps: CUDA_ERROR_ILLEGAL_INSTRUCTION, a sticky error, so it runs last and selector 3 is not
// tried in the same process). Undefined by the spec: recorded, not asserted.
TEST(SparseProbeUndefined, F16K32SelectorsTwoAndThree) {
  const harness::DeviceInfo info = harness::ProbeDevice();
  if (!info.available) GTEST_SKIP() << "no GPU: " << info.reason;
  const SparseForm& f = *FindForm("m16n8k32", Format::kF16);
  gen::RandomSource s(11);
  harness::MmaSpCase c = Uniform(f, 0x4, s);
  SparseOp low = c.op, high = c.op;
  low.selector = 0;
  high.selector = 1;
  std::vector<uint8_t> nib_low, nib_high;
  static constexpr uint8_t kAsc[6] = {0x4, 0x8, 0x9, 0xC, 0xD, 0xE};
  for (int row = 0; row < 16; ++row) {
    for (int chunk = 0; chunk < 8; ++chunk) {
      nib_low.push_back(kAsc[s.Below(6)]);
      nib_high.push_back(kAsc[s.Below(6)]);
      SetNibble(low, row, chunk, nib_low.back());
      SetNibble(high, row, chunk, nib_high.back());
    }
  }
  for (int lane = 0; lane < 32; ++lane) {
    c.op.meta[static_cast<std::size_t>(lane)] = (lane & 3) < 2
                                                    ? low.meta[static_cast<std::size_t>(lane)]
                                                    : high.meta[static_cast<std::size_t>(lane)];
  }
  SparseTile t_low = c.tile, t_high = c.tile;
  t_low.nibbles = nib_low;
  t_high.nibbles = nib_high;
  const auto p = suites::SparseParams(c.tile, oracle::num::Gpu::kSm90);
  const auto d_low = Reference(t_low, *p), d_high = Reference(t_high, *p);
  // Selectors 2 and 3 are undefined and trap on an H100 (SP4), which poisons the CUDA context:
  // each runs in a child process (this binary re-run with TCFUZZ_SP4_CHILD=<selector>), and what
  // the hardware did is printed, not asserted.
  const char* child = std::getenv("TCFUZZ_SP4_CHILD");
  const std::vector<int> selectors =
      child ? std::vector<int>{std::atoi(child)} : std::vector<int>{0, 1};
  for (int sel : selectors) {
    harness::MmaSpSpec spec{&f,           Variant::kOrdered, sel,  Format::kF16,
                            Format::kF16, Format::kF32,      false};
    auto d = harness::RunMmaSp(spec, std::vector<harness::MmaSpCase>{c});
    if (sel >= 2 && !d.ok()) {
      std::printf("SP4: f16 m16n8k32 f32-acc selector %d on %s: %s\n", sel, info.name.c_str(),
                  d.error().c_str());
      break;
    }
    ASSERT_TRUE(d.ok()) << d.error();
    int eq_low = 0, eq_high = 0;
    for (int e = 0; e < 128; ++e) {
      eq_low += d.value()[0][static_cast<std::size_t>(e)] == d_low[static_cast<std::size_t>(e)];
      eq_high += d.value()[0][static_cast<std::size_t>(e)] == d_high[static_cast<std::size_t>(e)];
    }
    std::printf(
        "f16 m16n8k32 f32-acc selector %d: D matches lanes-0/1 metadata in %d/128, lanes-2/3 in "
        "%d/128\n",
        sel, eq_low, eq_high);
    if (sel == 0) {
      EXPECT_EQ(eq_low, 128);
    }
    if (sel == 1) {
      EXPECT_EQ(eq_high, 128);
    }
  }
  if (child) return;
  for (const int sel : {2, 3}) {
    suites::CommandOptions o;
    o.env = {{"TCFUZZ_SP4_CHILD", std::to_string(sel)}};
    o.timeout = std::chrono::milliseconds(60000);
    const auto r = suites::RunArgv(
        {"/proc/self/exe", "--gtest_filter=SparseProbeUndefined.F16K32SelectorsTwoAndThree"}, "",
        o);
    const std::size_t at = r.out.find("SP4: ");
    const std::size_t d_at = r.out.find("selector " + std::to_string(sel) + ": D matches");
    ASSERT_TRUE(at != std::string::npos || d_at != std::string::npos)
        << r.Describe(o.timeout) << "\n"
        << r.out;
    const std::size_t from = at != std::string::npos ? at : d_at;
    std::printf("%s\n", r.out.substr(from, r.out.find('\n', from) - from).c_str());
  }
}

}  // namespace
}  // namespace tcfuzz
