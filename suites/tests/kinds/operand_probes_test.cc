// The host suites' discrimination probes (suites/kinds/operand_probes.h): the emulator's steps
// without a mutant give exactly the oracle's result (so a probe that tells is the mutant's doing),
// and hand-derived cases where each probe must tell, or must not.
#include "suites/kinds/operand_probes.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "generators/core/random_source.h"
#include "generators/smem/smem_descriptor_gen.h"
#include "generators/sparse/sparse_mma_gen.h"
#include "generators/tcgen05/zero_column_mask_gen.h"
#include "oracle/smem/smem_case.h"
#include "suites/checks/sparse_mma_checks.h"
#include "suites/tests/support/test_seed.h"

namespace tcfuzz::suites {
namespace {

using oracle::num::Format;

std::map<std::string, bool> Tells(const std::vector<ProbeResult>& probes) {
  std::map<std::string, bool> out;
  for (const ProbeResult& p : probes) out[std::string(p.probe)] = p.tells;
  return out;
}

TEST(OperandProbes, TheEmulatorWithoutAMutantIsTheOracle) {
  gen::RandomSource s(test::Seed());
  int sparse = 0, smem = 0;
  for (int i = 0; i < 400; ++i) {
    const gen::GeneratedSparse g = gen::DrawSparse(s, gen::Intent::kLegal);
    const auto params = SparseParams(g.tile);
    if (oracle::num::IsFloat(g.tile.a_type) && !params) continue;
    const auto p = params.value_or(oracle::num::ExactParams(g.tile.cd));
    EXPECT_EQ(EmulatedSparseD(g.tile, p), oracle::sparse::Reference(g.tile, p))
        << g.op.form->Name();
    ++sparse;
  }
  for (int i = 0; i < 400; ++i) {
    const gen::GeneratedSmem g = gen::DrawSmem(s, gen::Intent::kLegal);
    const auto map = oracle::smem::Map(g.c);
    ASSERT_TRUE(map.ok()) << map.error();
    const auto emulated = EmulatedSmemMap(g.c);
    ASSERT_TRUE(emulated.has_value());
    EXPECT_EQ(*emulated, map.value().bits) << i;
    ++smem;
  }
  EXPECT_GT(sparse, 300);
  EXPECT_EQ(smem, 400);
}

// m16n8k32 s8, every chunk keeping positions 0 and 2 (nibble 0b1000: the first index in the low
// two bits) with A values 1 and 2, B[k][j] = k + 1. By hand, over the 8 chunks c:
//   D = C + sum (4c + 1) + 2 (4c + 3) = C + 392;
//   nibble order swapped: C + sum (4c + 3) + 2 (4c + 1) = C + 376;
//   a chunk position further: C + sum (4c + 2) + 2 (4c + 4) = C + 416.
oracle::sparse::SparseTile HandTile(uint32_t c) {
  oracle::sparse::SparseTile t;
  t.form = oracle::sparse::FindForm("m16n8k32", Format::kS8);
  t.a_type = t.b_type = Format::kS8;
  t.cd = Format::kS32;
  for (int i = 0; i < 16 * 8; ++i) {
    t.a.push_back(1);
    t.a.push_back(2);
    t.nibbles.push_back(0b1000);
  }
  for (int k = 0; k < 32; ++k) {
    for (int j = 0; j < 8; ++j) t.b.push_back(static_cast<uint64_t>(k + 1));
  }
  t.c.assign(16 * 8, c);
  return t;
}

TEST(OperandProbes, ASparseTileTellsWhatItsValuesCanShow) {
  const auto p = oracle::num::ExactParams(Format::kS32);
  for (const uint32_t c : {0u, 5u}) {
    const oracle::sparse::SparseTile t = HandTile(c);
    ASSERT_NE(t.form, nullptr);
    const std::vector<uint32_t> want = oracle::sparse::Reference(t, p);
    ASSERT_EQ(want, std::vector<uint32_t>(128, 392 + c));
    std::vector<ProbeResult> probes;
    SparseProbes(t, p, want, true, probes);
    const std::map<std::string, bool> expect = {{"all_zero", true},
                                                {"d_equals_c", true},
                                                {"metadata.nibble_order=1", true},
                                                {"select.chunk_shift=1", true},
                                                {"fragment.c_dropped=1", c != 0}};
    EXPECT_EQ(Tells(probes), expect) << c;  // integers: no alignment probe
  }
  // Equal B rows: no metadata defect can show; without mutants, only the two basic probes.
  oracle::sparse::SparseTile flat = HandTile(5);
  std::fill(flat.b.begin(), flat.b.end(), 3);
  const std::vector<uint32_t> want = oracle::sparse::Reference(flat, p);
  ASSERT_EQ(want, std::vector<uint32_t>(128, 5 + 8 * 3 * 3));
  std::vector<ProbeResult> probes;
  SparseProbes(flat, p, want, true, probes);
  EXPECT_FALSE(Tells(probes).at("metadata.nibble_order=1"));
  EXPECT_FALSE(Tells(probes).at("select.chunk_shift=1"));
  probes.clear();
  SparseProbes(flat, p, want, false, probes);
  EXPECT_EQ(probes.size(), 2u);
}

TEST(OperandProbes, ChunkClassesNameChunksWithFewerNonzerosThanSlots) {
  oracle::sparse::SparseTile t = HandTile(0);
  using Tags = std::vector<std::string_view>;
  EXPECT_EQ(ChunkClasses(t), Tags{"chunk.nonzeros=2"});
  t.a[5] = 0;  // row 0, chunk 2, slot 1
  EXPECT_EQ(ChunkClasses(t), (Tags{"chunk.nonzeros=1", "chunk.nonzeros=2"}));
  t.a[4] = 0x80;  // -0 is not an s8 value: 0x80 is -128
  EXPECT_EQ(ChunkClasses(t), (Tags{"chunk.nonzeros=1", "chunk.nonzeros=2"}));
  t.a[4] = 0;
  EXPECT_EQ(ChunkClasses(t), (Tags{"chunk.nonzeros=0", "chunk.nonzeros=2"}));
}

oracle::tcgen05::ZcmCase Mask(uint8_t non_zero, uint8_t skip, uint8_t use) {
  oracle::tcgen05::ZeroColumnMask z;
  z.non_zero_mask = non_zero;
  z.skip_span = skip;
  z.use_span = use;
  return {oracle::tcgen05::EncodeZeroColumnMask(z), {128, 128, false, std::nullopt}};
}

TEST(OperandProbes, AMaskTellsTheZcmDefectsItCanShow) {
  // Non-zero flag clear (PTX 9.1 §9.7.16.4.3 Table 45): no column is zeroed, none shifted, so
  // only an inverted mask differs.
  std::vector<ProbeResult> probes;
  ZcmProbes(Mask(0, 2, 3), probes);
  const std::map<std::string, bool> none = {{"d_equals_c", true},
                                            {"zcm.ignored=1", false},
                                            {"zcm.inverted=1", true},
                                            {"zcm.shift_ignored=1", false},
                                            {"zcm.first_span_inverted=1", false},
                                            {"zcm.spans_swapped=1", false}};
  EXPECT_EQ(Tells(probes), none);
  // Worked example 2 (M = N = 128, spans 2 and 3): runs of unequal length, no shift, so the
  // mask, its inversion, its first run and the runs' sizes all show; a shift cannot.
  probes.clear();
  ZcmProbes(Mask(1, 2, 3), probes);
  const std::map<std::string, bool> example = {{"d_equals_c", true},
                                               {"zcm.ignored=1", true},
                                               {"zcm.inverted=1", true},
                                               {"zcm.shift_ignored=1", false},
                                               {"zcm.first_span_inverted=1", true},
                                               {"zcm.spans_swapped=1", true}};
  EXPECT_EQ(Tells(probes), example);
}

TEST(OperandProbes, NoSwizzleNoSwizzleDefectAndOnlyTcgen05sOwnPoints) {
  gen::RandomSource s(test::Seed());
  int unswizzled = 0;
  for (int i = 0; i < 300; ++i) {
    const gen::GeneratedSmem g = gen::DrawSmem(s, gen::Intent::kLegal);
    const auto map = oracle::smem::Map(g.c);
    ASSERT_TRUE(map.ok());
    std::vector<ProbeResult> probes;
    SmemProbes(g.c, map.value(), probes);
    const auto tells = Tells(probes);
    const bool tcgen05 = g.c.arch != oracle::smem::Arch::kSm90a;
    EXPECT_EQ(tells.count("descriptor.lbo_mode_inverted=1"), tcgen05 ? 1u : 0u);
    EXPECT_EQ(tells.count("layout.atom_k_rows=1"),
              tcgen05 && g.c.view.major == oracle::smem::Major::kMN ? 1u : 0u);
    if (g.layout->swizzle == oracle::smem::Swizzle::kNone) {
      ++unswizzled;
      EXPECT_FALSE(tells.at("swizzle.xor_bits=-1"));
      EXPECT_FALSE(tells.at("swizzle.xor_bits=1"));
    }
  }
  EXPECT_GT(unswizzled, 10);
}

// Families LowDiscrimination judges (100 probed cases or more).
std::size_t Judged(const Discrimination& d) {
  std::size_t n = 0;
  for (const auto& [family, probes] : d) {
    const bool judged = std::any_of(probes.begin(), probes.end(),
                                    [](const auto& p) { return p.second.cases >= kFewCases; });
    n += judged ? 1 : 0;
  }
  return n;
}

// Issue 31: no family of the default campaign's host suites lets an all-zero D or D = C through
// in more than 1% of its cases, judged by the reports' own rule on the generators' legal cases:
// 3,000 mma.sp tiles (about 170 a form; none of 50,000 in a default campaign was all-zero or C)
// and 20,000 masks (about 0.4% zero every column: far enough below 1% at this count that no
// seed fails it; the suite itself probes one mask in 64).
TEST(OperandProbes, EveryHostFamilyTellsAnAllZeroDAndDEqualsCApart) {
  gen::RandomSource s(test::Seed());
  Discrimination sparse;
  for (int i = 0; i < 3000; ++i) {
    const gen::GeneratedSparse g = gen::DrawSparse(s, gen::Intent::kLegal);
    const auto params = SparseParams(g.tile);
    if (oracle::num::IsFloat(g.tile.a_type) && !params) continue;
    const auto p = params.value_or(oracle::num::ExactParams(g.tile.cd));
    std::vector<ProbeResult> probes;
    SparseProbes(g.tile, p, oracle::sparse::Reference(g.tile, p), false, probes);
    Count(sparse[g.op.form->Name()], probes);
  }
  EXPECT_GE(Judged(sparse), 12u);
  EXPECT_EQ(LowDiscrimination(sparse), std::vector<std::string>{});
  Discrimination masks;
  for (int i = 0; i < 20000; ++i) {
    const gen::GeneratedZcm g = gen::DrawZcm(s, gen::Intent::kLegal);
    std::vector<ProbeResult> probes;
    ZcmProbes(g.c, probes);
    Count(masks["m=" + std::to_string(g.c.shape.m)], probes);
  }
  for (const auto& [family, probes] : masks) EXPECT_GE(probes.at("d_equals_c").cases, kManyCases);
  EXPECT_EQ(masks.size(), 3u);
  EXPECT_EQ(LowDiscrimination(masks), std::vector<std::string>{});
}

}  // namespace
}  // namespace tcfuzz::suites
