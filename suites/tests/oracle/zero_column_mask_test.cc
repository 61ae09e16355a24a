// The zero-column mask against the four worked examples of PTX 9.1 §9.7.16.4.3, and every rule.
//
// Golden values are the bit strings the spec prints (LSB on the right, "…" = the pattern
// continues), so they come from the spec text, not from the oracle.
#include "oracle/tcgen05/zero_column_mask.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "oracle/core/rule.h"
#include "oracle/tcgen05/instr_descriptor.h"
#include "oracle/tcgen05/zero_column_mask_text.h"

namespace tcfuzz::oracle::tcgen05 {
namespace {

// The spec's printed sub-mask, e.g. "0b … 111 0000 111 00", as bits from column 0 up.
std::vector<int> SpecBits(std::string printed) {
  std::vector<int> bits;
  for (auto it = printed.rbegin(); it != printed.rend(); ++it) {
    if (*it == 'b') break;  // the "0b" prefix ends the digits
    if (*it == '0' || *it == '1') bits.push_back(*it - '0');
  }
  return bits;
}

uint64_t Desc(std::array<uint8_t, 4> sc, std::array<uint8_t, 4> fs, int nzm, int skip, int use,
              int shift) {
  ZeroColumnMask z;
  z.start_count = sc;
  z.first_span = fs;
  z.non_zero_mask = static_cast<uint8_t>(nzm);
  z.skip_span = static_cast<uint8_t>(skip);
  z.use_span = static_cast<uint8_t>(use);
  z.column_shift = static_cast<uint8_t>(shift);
  return EncodeZeroColumnMask(z);
}

// Sub-mask `i` of `e`, column 0 of the sub-mask first.
std::vector<int> SubMask(const ZcmExpansion& e, int i) {
  std::vector<int> bits;
  for (int j = e.boundary[i]; j < e.boundary[i + 1]; ++j) bits.push_back(e.mask[j] ? 1 : 0);
  return bits;
}

void ExpectPrefix(const std::vector<int>& got, const std::vector<int>& printed, int sub_mask) {
  ASSERT_GE(got.size(), printed.size());
  for (std::size_t j = 0; j < printed.size(); ++j) {
    EXPECT_EQ(got[j], printed[j]) << "sub-mask " << sub_mask << " bit " << j;
  }
}

TEST(ZeroColumnMaskSpec, Example1NonZeroMaskClearGivesAllZeros) {
  // sc {0,0,0,0}, fs {0,0,0,0}, nzm 0, skip 4, use 3, shift 0 -> 0x0.
  const auto e = Expand(Desc({0, 0, 0, 0}, {0, 0, 0, 0}, 0, 4, 3, 0), 128, 128);
  ASSERT_TRUE(e);
  EXPECT_TRUE(e->mask.none());
  EXPECT_EQ(e->MaskHex(), "0x" + std::string(32, '0'));
  for (int j = 0; j < 128; ++j) EXPECT_EQ(e->b_column[j], j);
}

TEST(ZeroColumnMaskSpec, Example2M128) {
  const auto e = Expand(Desc({0, 0, 0, 0}, {0, 0, 0, 0}, 1, 2, 3, 0), 128, 128);
  ASSERT_TRUE(e);
  ExpectPrefix(SubMask(*e, 0), SpecBits("0b … 111 0000 111 0000"), 0);
  // The printed period (4 used, 3 zeroed) continues over all N = 128 columns.
  for (int j = 0; j < 128; ++j) EXPECT_EQ(e->mask[j], j % 7 >= 4) << "column " << j;
}

TEST(ZeroColumnMaskSpec, Example3M64) {
  const auto e = Expand(Desc({0, 0, 0, 0}, {1, 0, 0, 0}, 1, 2, 3, 0), 64, 128);
  ASSERT_TRUE(e);
  ASSERT_EQ(e->sub_masks, 2);
  EXPECT_EQ(e->boundary[1], 64);
  ExpectPrefix(SubMask(*e, 0), SpecBits("0b … 111 0000 111 0000 111"), 0);
  ExpectPrefix(SubMask(*e, 1), SpecBits("0b … 0000 111 0000 111 0000"), 1);
}

TEST(ZeroColumnMaskSpec, Example4M32WithShift) {
  // sc {sc3, sc2, sc1, sc0} = {1, 2, 1, 0}; fs {fs3, fs2, fs1, fs0} = {0, 0, 1, 1}.
  const auto e = Expand(Desc({0, 1, 2, 1}, {1, 1, 0, 0}, 1, 2, 3, 2), 32, 128);
  ASSERT_TRUE(e);
  ASSERT_EQ(e->sub_masks, 4);
  EXPECT_EQ(e->boundary[1], 32);
  EXPECT_EQ(e->boundary[2], 64);
  EXPECT_EQ(e->boundary[3], 96);
  ExpectPrefix(SubMask(*e, 0), SpecBits("0b … 0000 111 0000 111"), 0);
  ExpectPrefix(SubMask(*e, 1), SpecBits("0b … 0000 111 0000 11"), 1);
  ExpectPrefix(SubMask(*e, 2), SpecBits("0b … 111 0000 111 00"), 2);
  ExpectPrefix(SubMask(*e, 3), SpecBits("0b … 111 0000 111 000"), 3);
  // "If N = 128 then B columns 2 to 129 will be used": D column j reads B column j + 2.
  for (int j = 0; j < 128; ++j) {
    EXPECT_EQ(e->b_column[j], e->mask[j] ? -1 : j + 2) << "column " << j;
  }
}

TEST(ZeroColumnMaskSpec, TableTextReadingContradictsTheExamples) {
  // Spec choice Z1: under Table 45's wording Example 2 would start with 3 used columns, not 4.
  const uint64_t d = Desc({0, 0, 0, 0}, {0, 0, 0, 0}, 1, 2, 3, 0);
  const auto text = Expand(d, 128, 128, spec_choice::ZcmSpanMeaning::kTableText);
  ASSERT_TRUE(text);
  EXPECT_NE(SubMask(*text, 0)[3], SpecBits("0b … 111 0000 111 0000")[3]);
}

TEST(ZeroColumnMask, FieldTableMatchesTable45) {
  const ZeroColumnMask z = DecodeZeroColumnMask(0xfedcba9876543210ull);
  EXPECT_EQ(z.start_count, (std::array<uint8_t, 4>{0x10, 0x32, 0x54, 0x76}));
  EXPECT_EQ(z.first_span, (std::array<uint8_t, 4>{0, 0, 0, 1}));  // 0x98: bits 32-35 = 8
  EXPECT_EQ(z.reserved_36_38, 1);                                 // bits 36-38 of 0x98
  EXPECT_EQ(z.non_zero_mask, 1);                                  // bit 39
  EXPECT_EQ(z.skip_span, 0xba);
  EXPECT_EQ(z.use_span, 0xdc);
  EXPECT_EQ(z.column_shift, 0x3e);  // bits 56-61 of 0xfe
  EXPECT_EQ(z.reserved_62_63, 3);
  EXPECT_EQ(EncodeZeroColumnMask(z), 0xfedcba9876543210ull);
}

TEST(ZeroColumnMask, ExpandRejectsShapesWithoutAMask) {
  EXPECT_FALSE(Expand(0, 48, 128));
  EXPECT_FALSE(Expand(0, 128, 0));
  EXPECT_FALSE(Expand(0, 128, 257));
  EXPECT_TRUE(Expand(0, 32, 1));
}

TEST(ZeroColumnMask, StartCountBeyondAPeriodActsModuloThePeriod) {
  // Spec choice Z2: period 7 here, so sc = 7 + 2 reads like sc = 2.
  const auto a = Expand(Desc({2, 0, 0, 0}, {0, 0, 0, 0}, 1, 2, 3, 0), 128, 128);
  const auto b = Expand(Desc({9, 0, 0, 0}, {0, 0, 0, 0}, 1, 2, 3, 0), 128, 128);
  ASSERT_TRUE(a && b);
  EXPECT_EQ(a->mask, b->mask);
}

TEST(ZeroColumnMask, SpanLongerThanTheSubMaskIsCut) {
  // Spec choice Z3: 256 zeroed columns first, N = 64 -> every column zeroed.
  const auto e = Expand(Desc({0, 0, 0, 0}, {1, 0, 0, 0}, 1, 255, 0, 0), 128, 64);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->MaskHex(), "0xffffffffffffffff");
}

TEST(ZeroColumnMask, NNotDivisibleBySubMasksUsesFloorBoundaries) {
  // Spec choice Z4: N = 10, M = 32 -> sub-masks [0,2) [2,5) [5,7) [7,10).
  const auto e = Expand(0, 32, 10);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->boundary, (std::array<int, 5>{0, 2, 5, 7, 10}));
}

// --- rules -------------------------------------------------------------------------------

std::vector<std::string> Ids(const Verdict& v) {
  std::vector<std::string> ids;
  for (const auto& x : v.violations()) ids.emplace_back(x.rule->id);
  std::sort(ids.begin(), ids.end());
  return ids;
}

ZcmCase Case(uint64_t desc, int m, int n, bool sparse = false,
             std::optional<uint32_t> idesc = std::nullopt) {
  return ZcmCase{desc, MmaWsShape{m, n, sparse, idesc}};
}

using Ids_ = std::vector<std::string>;

TEST(ZeroColumnMaskRules, SpecExamplesAreLegal) {
  EXPECT_TRUE(Validate(Case(Desc({0, 1, 2, 1}, {1, 1, 0, 0}, 1, 2, 3, 2), 32, 128)).legal());
  EXPECT_TRUE(Validate(Case(Desc({0, 0, 0, 0}, {1, 0, 0, 0}, 1, 2, 3, 0), 64, 128)).legal());
}

TEST(ZeroColumnMaskRules, ReservedBits) {
  EXPECT_EQ(Ids(Validate(Case(uint64_t{1} << 36, 128, 128))), Ids_{"zcm.reserved_36_38"});
  EXPECT_EQ(Ids(Validate(Case(uint64_t{1} << 38, 128, 128))), Ids_{"zcm.reserved_36_38"});
  EXPECT_EQ(Ids(Validate(Case(uint64_t{1} << 63, 128, 128))), Ids_{"zcm.reserved_62_63"});
}

TEST(ZeroColumnMaskRules, ShiftLimitsPerM) {
  EXPECT_TRUE(Validate(Case(Desc({}, {}, 0, 0, 0, 16), 32, 128)).legal());
  EXPECT_EQ(Ids(Validate(Case(Desc({}, {}, 0, 0, 0, 17), 32, 128))), Ids_{"zcm.shift_max"});
  EXPECT_TRUE(Validate(Case(Desc({}, {}, 0, 0, 0, 32), 64, 128)).legal());
  EXPECT_TRUE(Validate(Case(Desc({}, {}, 0, 0, 0, 32), 128, 128)).legal());
  EXPECT_EQ(Ids(Validate(Case(Desc({}, {}, 0, 0, 0, 33), 128, 128))), Ids_{"zcm.shift_max"});
  EXPECT_EQ(Ids(Validate(Case(Desc({}, {}, 0, 0, 0, 63), 64, 128))), Ids_{"zcm.shift_max"});
}

TEST(ZeroColumnMaskRules, ShiftAgainstTheIdescMaxShift) {
  const MmaWsShape shape{128, 128, false, std::nullopt};
  // Table 42 bits 30-31: 1 -> 8 columns.
  EXPECT_EQ(InstrDescriptor{MakeWsIdesc(shape, 8)}.max_shift_columns(), 8);
  EXPECT_EQ(MakeWsIdesc(shape, 8) >> 30, 1u);
  EXPECT_TRUE(
      Validate(Case(Desc({}, {}, 0, 0, 0, 8), 128, 128, false, MakeWsIdesc(shape, 8))).legal());
  EXPECT_EQ(Ids(Validate(Case(Desc({}, {}, 0, 0, 0, 9), 128, 128, false, MakeWsIdesc(shape, 8)))),
            Ids_{"zcm.shift_over_idesc_max"});
  // max shift code 0: no shift at all.
  EXPECT_EQ(Ids(Validate(Case(Desc({}, {}, 0, 0, 0, 1), 128, 128, false, MakeWsIdesc(shape, 0)))),
            Ids_{"zcm.shift_over_idesc_max"});
}

TEST(ZeroColumnMaskRules, LegalWsShapes) {
  for (int m : {32, 64, 128}) {
    for (int n : {64, 128, 256}) EXPECT_TRUE(Validate(Case(0, m, n)).legal()) << m << "x" << n;
    for (int n : {64, 128}) EXPECT_TRUE(Validate(Case(0, m, n, true)).legal()) << m << "x" << n;
  }
  EXPECT_EQ(Ids(Validate(Case(0, 256, 128))), Ids_{"mma_ws.m"});
  EXPECT_EQ(Ids(Validate(Case(0, 16, 128))), Ids_{"mma_ws.m"});
  EXPECT_EQ(Ids(Validate(Case(0, 128, 32))), Ids_{"mma_ws.n_dense"});
  EXPECT_EQ(Ids(Validate(Case(0, 128, 256, true))), Ids_{"mma_ws.n_sparse"});
}

TEST(ZeroColumnMaskRules, IdescMustDescribeTheSameInstruction) {
  const MmaWsShape shape{64, 128, false, std::nullopt};
  const uint32_t idesc = MakeWsIdesc(shape, 32);
  // Table 42: N >> 3 at bits 17-22, M >> 4 at bits 24-28, sparsity at bit 2.
  EXPECT_EQ((idesc >> 17) & 0x3f, 16u);
  EXPECT_EQ((idesc >> 24) & 0x1f, 4u);
  EXPECT_TRUE(Validate(Case(0, 64, 128, false, idesc)).legal());
  EXPECT_EQ(Ids(Validate(Case(0, 128, 128, false, idesc))), Ids_{"mma_ws.idesc_m"});
  EXPECT_EQ(Ids(Validate(Case(0, 64, 256, false, idesc))), Ids_{"mma_ws.idesc_n"});
  EXPECT_EQ(Ids(Validate(Case(0, 64, 128, true, idesc))), Ids_{"mma_ws.idesc_sparsity"});
}

TEST(ZeroColumnMaskRules, EveryViolationNamesARegisteredRuleWithASection) {
  const Verdict v = Validate(Case(~uint64_t{0}, 48, 300, true, 0xffffffffu));
  EXPECT_FALSE(v.legal());
  for (const auto& x : v.violations()) {
    EXPECT_EQ(FindRule(x.rule->id), x.rule);
    EXPECT_FALSE(x.rule->section.empty());
    EXPECT_FALSE(x.message.empty());
  }
}

// expect.mask is hex text: anything else is a file error, not a failing case (issue 33:
// "0x-1" was a FAIL); upper-case digits read as the lower-case ones the oracle prints.
TEST(ZcmCaseFile, ExpectMaskIsHexOrAFileError) {
  const std::string head =
      "tcfuzz-text 1\ntool = t\nkind = zero_column_mask\nm = 128\nn = 64\nsparse = 0\n"
      "desc = 0x0\nexpect.mask = ";
  for (const char* bad : {"0x-1", "0x", "12", "0xg1", "0x 1"}) {
    const auto doc = TextDoc::Parse(head + bad + "\n");
    ASSERT_TRUE(doc.ok()) << doc.error();
    const auto f = ZcmCaseFromDoc(doc.value());
    ASSERT_FALSE(f.ok()) << bad;
    EXPECT_EQ(f.error(), "line 8: expect.mask must be 0x and 1 to 64 hex digits") << bad;
  }
  // n = 64: 16 digits, as the oracle prints them; other widths of the same number read as it.
  for (const auto& [given, read] :
       {std::pair{"0xAB01", "0x000000000000ab01"}, std::pair{"0x0", "0x0000000000000000"},
        std::pair{"0x8000000000000000", "0x8000000000000000"},
        std::pair{"0x0000000000000000000000000000000001", "0x0000000000000001"}}) {
    const auto doc = TextDoc::Parse(head + given + "\n");
    ASSERT_TRUE(doc.ok()) << doc.error();
    const auto f = ZcmCaseFromDoc(doc.value());
    ASSERT_TRUE(f.ok()) << f.error();
    EXPECT_EQ(f.value().expect.mask_hex, read) << given;
  }
  // A bit past column 63 expects what no n = 64 mask holds: a file error (it was a FAIL).
  for (const auto& [given, why] :
       {std::pair{"0x10000000000000000",
                  "line 8: expect.mask sets column 64, past the case's n = 64"},
        std::pair{"0x100000000000000000000000000000000",
                  "line 8: expect.mask sets column 128, past the case's n = 64"}}) {
    const auto doc = TextDoc::Parse(head + given + "\n");
    ASSERT_TRUE(doc.ok()) << doc.error();
    EXPECT_EQ(ZcmCaseFromDoc(doc.value()).error(), why) << given;
  }
}

}  // namespace
}  // namespace tcfuzz::oracle::tcgen05

namespace tcfuzz::oracle::tcgen05 {
namespace {

// Which readings a mask rests on: only those its expansion depends on. Descriptors by hand from
// Table 45 (sc0 0-7, fs0 32, non-zero flag 39, skip 40-47, use 48-55, shift 56-61, 62-63 not in
// the table), M = 128 (one 64-column sub-mask for N = 64).
TEST(ZeroColumnMaskReadings, OnlyThoseTheExpansionDependsOn) {
  const auto readings = [](uint64_t desc, int n) {
    ZcmCase c;
    c.desc = desc;
    c.shape.m = 128;
    c.shape.n = n;
    std::string s;
    for (std::string_view id : ReadingsOf(c)) s += std::string(id) + " ";
    return s;
  };
  EXPECT_EQ(readings(0, 64), "");                     // no flag: nothing zeroed, under any reading
  EXPECT_EQ(readings(uint64_t{0x02} << 56, 64), "");  // a shift alone: the doc's own example
  // Flag, skip 1, use 1 (period 4): Z1 only; start count 7 (past the period) adds Z2.
  const uint64_t alternating = uint64_t{1} << 39 | uint64_t{1} << 40 | uint64_t{1} << 48;
  EXPECT_EQ(readings(alternating, 64), "Z1 ");
  EXPECT_EQ(readings(alternating | 7, 64), "Z1 Z2 ");
  // A run of 201 (skip 200) in a 64-column sub-mask: Z3.
  EXPECT_EQ(readings(uint64_t{1} << 39 | uint64_t{200} << 40, 64), "Z1 Z3 ");
  // Zeroed columns beside a shift of 2: which columns the mask indexes matters (Z5).
  EXPECT_EQ(readings(alternating | uint64_t{2} << 56, 64), "Z1 Z5 ");
  // Bit 62 set: Z6.
  EXPECT_EQ(readings(uint64_t{1} << 62, 64), "Z6 ");
}

}  // namespace
}  // namespace tcfuzz::oracle::tcgen05
