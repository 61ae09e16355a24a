// Shared-memory descriptors against the worked examples of PTX 9.1 §9.7.16.3.3 (Figures
// 188-192), an independent evaluation of their CuTe layouts, and every rule.
#include "oracle/tcgen05/smem_descriptor.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "oracle/smem/canonical_layout.h"
#include "oracle/smem/smem_case.h"
#include "oracle/wgmma/smem_descriptor.h"

namespace tcfuzz::oracle::smem {
namespace {

// --- an independent evaluator of CuTe shape:stride, written from the CuTe definition --------
// A flat mode (s0, s1, ...) : (d0, d1, ...) maps index i to sum_j digit_j(i) * d_j, with the
// digits taken colexicographically (s0 fastest).
int64_t EvalMode(const std::vector<int64_t>& shape, const std::vector<int64_t>& stride, int64_t i) {
  int64_t off = 0;
  for (std::size_t j = 0; j < shape.size(); ++j) {
    off += (i % shape[j]) * stride[j];
    i /= shape[j];
  }
  return off;
}

// Swizzle<B,M,S>(x) = x ^ ((x >> (M+S)) & (2^B - 1)) << M, restated here on purpose.
int64_t Swz(int b, int m, int s, int64_t x) {
  return x ^ (((x >> (m + s)) & ((int64_t{1} << b) - 1)) << m);
}

struct Figure {
  const char* name;
  DType dtype;
  const char* cute;  // the figure's exact layout, as printed
  std::vector<int64_t> row_shape, row_stride, k_shape, k_stride;  // the same, as numbers
  int swz_b;
  uint64_t lbo_enc;  // the figure's "Encoding of LBO in descriptor"
  uint64_t sbo_enc;
  int kbytes_one_atom;  // K one descriptor reads (Figure 189: one 32B atom, spec choice S2)
};

const std::vector<Figure>& Figures() {
  static const std::vector<Figure> f = {
      {"Figure 188 K-major no-swizzle tf32",
       DType::kTF32,
       "Swizzle<0,4,3> o ((8,2),(4,4)):((4,32),(1,64))",
       {8, 2},
       {4, 32},
       {4, 4},
       {1, 64},
       0,
       16,
       8,
       64},
      {"Figure 189 K-major 32B tf32",
       DType::kTF32,
       "Swizzle<1,4,3> o ((8,2),(4,4)):((8,64),(1,4))",
       {8, 2},
       {8, 64},
       {4, 4},
       {1, 4},
       1,
       1,
       16,
       32},
      {"Figure 190 MN-major no-swizzle bf16",
       DType::kBF16,
       "Swizzle<0,4,3> o ((8,1,2),(8,2)):((1,8,64),(8,128))",
       {8, 1, 2},
       {1, 8, 64},
       {8, 2},
       {8, 128},
       0,
       16,
       8,
       32},
      {"Figure 191 MN-major 32B bf16",
       DType::kBF16,
       "Swizzle<1,4,3> o ((8,2,2),(8,2)):((1,8,128),(16,256))",
       {8, 2, 2},
       {1, 8, 128},
       {8, 2},
       {16, 256},
       1,
       16,
       32,
       32},
      {"Figure 192 MN-major 64B bf16",
       DType::kBF16,
       "Swizzle<2,4,3> o ((8,4,2),(8,2)):((1,8,256),(32,512))",
       {8, 4, 2},
       {1, 8, 256},
       {8, 2},
       {32, 512},
       2,
       32,
       64,
       32},
  };
  return f;
}

class FigureTest : public ::testing::TestWithParam<Figure> {};

TEST_P(FigureTest, LayoutStringRoundTripsExactly) {
  const Figure& f = GetParam();
  auto layout = ParseCanonical(f.cute, f.dtype);
  ASSERT_TRUE(layout.ok()) << layout.error();
  EXPECT_EQ(CuteString(layout.value()), f.cute);
}

TEST_P(FigureTest, EncodedStridesComputedFromTheLayoutMatchTheFigure) {
  const Figure& f = GetParam();
  const CanonicalLayout l = ParseCanonical(f.cute, f.dtype).value();
  EXPECT_EQ(EncodeStrides(l).lbo, f.lbo_enc);
  EXPECT_EQ(EncodeStrides(l).sbo, f.sbo_enc);
  // And through both descriptor encodings, field by field.
  const SmemMatrix m = MatrixFor(l, 0);
  const uint64_t tc = EncodeMatrix(Arch::kSm100a, m).desc;
  const uint64_t wg = EncodeMatrix(Arch::kSm90a, m).desc;
  EXPECT_EQ(tcgen05::smem_field::kLbo.Get(tc), f.lbo_enc);
  EXPECT_EQ(tcgen05::smem_field::kSbo.Get(tc), f.sbo_enc);
  EXPECT_EQ(wgmma::smem_field::kLbo.Get(wg), f.lbo_enc);
  EXPECT_EQ(wgmma::smem_field::kSbo.Get(wg), f.sbo_enc);
}

TEST_P(FigureTest, AddressMapEqualsTheFigureLayoutEvaluatedDirectly) {
  const Figure& f = GetParam();
  const CanonicalLayout l = ParseCanonical(f.cute, f.dtype).value();
  const int eb = StorageBits(f.dtype);
  for (uint64_t start : {uint64_t{0}, uint64_t{0x2000}, uint64_t{0x13c00}}) {
    const OperandView view{l.major, f.dtype, LayoutRows(l), f.kbytes_one_atom};
    for (Arch arch : {Arch::kSm90a, Arch::kSm100a}) {
      const SmemCase c{arch, Operand::kA, view, EncodeMatrix(arch, MatrixFor(l, start)).desc,
                       start};
      EXPECT_TRUE(Validate(c).legal()) << f.name;
      const AddressMap map = Map(c).value();
      for (int r = 0; r < map.rows; ++r) {
        for (int k = 0; k < map.cols; ++k) {
          const int64_t elem =
              EvalMode(f.row_shape, f.row_stride, r) + EvalMode(f.k_shape, f.k_stride, k);
          const int64_t byte = Swz(f.swz_b, 4, 3, static_cast<int64_t>(start) + elem * eb / 8);
          ASSERT_EQ(map.Byte(r, k), static_cast<uint64_t>(byte))
              << f.name << " element (" << r << "," << k << ") start " << start;
        }
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Ptx91, FigureTest, ::testing::ValuesIn(Figures()),
                         [](const auto& p) { return "Figure" + std::to_string(188 + p.index); });

TEST(CanonicalLayout, ParseErrorsNameWhatIsWrong) {
  EXPECT_EQ(ParseCanonical("((8,2),(4,4)):((5,32),(1,64))", DType::kTF32).error(),
            "layout: the row stride is 5, expected 4");
  EXPECT_EQ(ParseCanonical("Swizzle<1,4,2> o ((8,2),(4,4)):((8,64),(1,4))", DType::kTF32).error(),
            "layout: Swizzle<1,4,2> is not a canonical swizzle");
  EXPECT_EQ(ParseCanonical("((8,2),(4,4))", DType::kTF32).error(), "layout: expected shape:stride");
  EXPECT_FALSE(ParseCanonical("((8,2),(4,4)):((4,32),(1,64)", DType::kTF32).ok());
  EXPECT_FALSE(ParseCanonical("((8,2),(4,x)):((4,32),(1,64))", DType::kTF32).ok());
  // Issue 18: thousands of nested parentheses are a one-line error, not a stack overflow.
  EXPECT_EQ(ParseCanonical(std::string(30000, '(') + "1:1", DType::kTF32).error(),
            "shape layout: nested deeper than 8 at character 9");
}

// --- base offset, K-advance, absolute mode, 32B atomicity -----------------------------------

TEST(SmemMap, BaseOffsetFollowsThePatternStart) {
  // PTX: base_offset = (pattern start >> 7) & 7 off the repeat boundary, else 0.
  EXPECT_EQ(BaseOffsetFor(Swizzle::k128B, 0x400), 0);
  EXPECT_EQ(BaseOffsetFor(Swizzle::k128B, 0x480), 1);
  EXPECT_EQ(BaseOffsetFor(Swizzle::k128B, 0x780), 7);
  EXPECT_EQ(BaseOffsetFor(Swizzle::k64B, 0x680), 5);  // off the 512-byte boundary: 13 & 7
  EXPECT_EQ(BaseOffsetFor(Swizzle::k64B, 0x400), 0);  // on the 512-byte boundary
  EXPECT_EQ(BaseOffsetFor(Swizzle::k32B, 0x180), 3);
  EXPECT_EQ(BaseOffsetFor(Swizzle::kNone, 0x180), 0);
}

TEST(SmemMap, KAdvanceInsideASwizzleRow) {
  // 128B K-major bf16: starting 32 bytes into the row reads K elements 16.. of the same rows.
  CanonicalLayout l{Major::kK, Swizzle::k128B, DType::kBF16, 8, 4, 0, 1024};
  const OperandView view{Major::kK, DType::kBF16, 64, 32};
  const SmemMatrix m0 = MatrixFor(l, 0x8000);
  SmemMatrix m1 = m0;
  m1.start += 32;
  const OperandView wide{Major::kK, DType::kBF16, 64, 64};
  const AddressMap a = MapAddresses(m0, wide).value(), b = MapAddresses(m1, view).value();
  for (int r = 0; r < 64; ++r) {
    for (int k = 0; k < 16; ++k) EXPECT_EQ(b.Bit(r, k), a.Bit(r, k + 16)) << r << "," << k;
  }
}

TEST(SmemMap, AbsoluteLboModeSplitsRowsAtThe128ByteBoundary) {
  // sm_103a, K-major 128B, e2m1 K = 96 (48 bytes), start 96 bytes into the row: the first 32
  // bytes of each row come from the start address, the last 16 from the LBO address.
  SmemMatrix m{0x4000 + 96, 0x8000, 1024, 0, true, Swizzle::k128B};
  const OperandView view{Major::kK, DType::kE2M1, 8, 48};
  const AddressMap a = MapAddresses(m, view).value();
  ASSERT_EQ(a.cols, 96);
  for (int r = 0; r < 8; ++r) {
    for (int k = 0; k < 96; ++k) {
      const uint64_t byte = k < 64 ? 0x4000 + 96 + k / 2 : 0x8000 + (k - 64) / 2;
      const uint64_t row = byte + 128 * r;
      const uint64_t want = row ^ (((row >> 7) & 7) << 4);
      EXPECT_EQ(a.Byte(r, k), want) << r << "," << k;
      EXPECT_EQ(a.Bit(r, k) % 8, static_cast<uint64_t>(4 * (k % 2)));  // packed 4-bit
    }
  }
  SmemCase c{Arch::kSm103a, Operand::kA, view, EncodeMatrix(Arch::kSm103a, m).desc, 0x4000};
  EXPECT_TRUE(Validate(c).legal());
  c.arch = Arch::kSm100a;
  EXPECT_TRUE(Validate(c).Violates("tcgen05.smem.lbo_mode_target"));
}

TEST(SmemMap, Swizzle128BWith32ByteAtomsMovesWhole32ByteUnits) {
  // MN-major tf32, Swizzle<2,5,2>: row 1 of the pattern swaps 32-byte units 0 and 1.
  CanonicalLayout l{Major::kMN, Swizzle::k128B32BAtom, DType::kTF32, 1, 1, 1024, 1024};
  const AddressMap a =
      MapAddresses(MatrixFor(l, 0), OperandView{Major::kMN, DType::kTF32, 32, 32}).value();
  EXPECT_EQ(a.Byte(0, 1), 128u + 32);  // K row 1, MN 0: unit 0 of row 1 -> unit 1
  EXPECT_EQ(a.Byte(8, 1), 128u);       // MN 8 (unit 1) of row 1 -> unit 0
  EXPECT_EQ(a.Byte(0, 2), 256u + 64);  // row 2: unit 0 -> unit 2
  std::set<uint64_t> bytes;            // one atom row set is a bijection onto its 128 bytes
  for (int mn = 0; mn < 32; ++mn) bytes.insert(a.Byte(mn, 3));
  EXPECT_EQ(bytes.size(), 32u);
  EXPECT_EQ(*bytes.begin(), 384u);
}

// Spec choice S7, derived by hand from PTX 9.1 Table 55 (the MN-major atom of 128B swizzle with
// 32-byte atomicity is 8 x 4 in 16-byte units: 128 bytes along MN by 4 K rows) and the functor
// Swizzle<2,5,2> (address bits 5-6 ^= bits 7-8). MN-major tf32 (4 elements per 16 bytes), start
// 0, LBO 2048 (the next 32 MN elements), SBO 768 (the next 4 K rows): element (mn, k) sits at
// (mn % 32) * 4 + (mn / 32) * 2048 + (k % 4) * 128 + (k / 4) * 768, then swizzled.
TEST(SmemMap, Base32BAtomHoldsFourKRowsAndSboStepsBetweenThem) {
  const SmemMatrix m{0, 2048, 768, 0, false, Swizzle::k128B32BAtom};
  const OperandView view{Major::kMN, DType::kTF32, 64, 32};
  const AddressMap a = MapAddresses(m, view).value();
  EXPECT_EQ(a.Byte(0, 0), 0u);
  EXPECT_EQ(a.Byte(0, 3), 480u);    // 384 = 0x180, row phase 3: ^ 0x60
  EXPECT_EQ(a.Byte(0, 4), 832u);    // K row 4 starts the second atom at SBO: 768 = 0x300, ^ 0x40
  EXPECT_EQ(a.Byte(0, 5), 992u);    // 896 = 0x380, phase 3: ^ 0x60
  EXPECT_EQ(a.Byte(9, 6), 1060u);   // 36 + 256 + 768 = 0x424, phase 0
  EXPECT_EQ(a.Byte(33, 7), 3236u);  // 4 + 2048 + 384 + 768 = 0xc84, phase 1: ^ 0x20
  // The alternative reading (8 K rows per atom, as the other modes) puts K row 4 at 512 instead:
  // the two differ exactly when SBO is not 512, which is what the deciding tiles exercise.
  const AddressMap eight =
      MapAddresses(m, view, spec_choice::Base32BAtomKRows::kEightAsOtherModes).value();
  EXPECT_EQ(eight.Byte(0, 4), 512u);
  EXPECT_EQ(eight.Byte(0, 3), a.Byte(0, 3));
  SmemMatrix at512 = m;
  at512.sbo = 512;
  EXPECT_EQ(
      MapAddresses(at512, view).value().bits,
      MapAddresses(at512, view, spec_choice::Base32BAtomKRows::kEightAsOtherModes).value().bits);
}

TEST(CanonicalLayout, Base32BAtomLayoutHasFourKRowsAndEncodesItsStrides) {
  // The same layout as above as CuTe prints it (strides in tf32 elements): LBO 2048 B = 512,
  // SBO 768 B = 192, the K-row stride 8T = 32 elements (128 bytes).
  const char* cute = "Swizzle<2,5,2> o ((4,8,2),(4,2)):((1,4,512),(32,192))";
  const auto l = ParseCanonical(cute, DType::kTF32);
  ASSERT_TRUE(l.ok()) << l.error();
  EXPECT_EQ(CuteString(l.value()), cute);
  EXPECT_EQ(LayoutRows(l.value()), 64);
  EXPECT_EQ(LayoutKBytes(l.value()), 32);
  EXPECT_EQ(EncodeStrides(l.value()).lbo, 128u);
  EXPECT_EQ(EncodeStrides(l.value()).sbo, 48u);
  // start 0 | LBO 128 << 16 | SBO 48 << 32 | bit 46 | swizzle code 1 << 61.
  EXPECT_EQ(EncodeMatrix(Arch::kSm100a, MatrixFor(l.value(), 0)).desc, 0x2000403000800000u);
  EXPECT_EQ(
      ParseCanonical("Swizzle<2,5,2> o ((4,8,2),(8,1)):((1,4,512),(32,256))", DType::kTF32).error(),
      "layout: the K group size is 8, expected 4");
  const SmemCase c{Arch::kSm100a, Operand::kB, OperandView{Major::kMN, DType::kTF32, 64, 32},
                   0x2000403000800000u, 0};
  EXPECT_TRUE(Validate(c).legal());
  EXPECT_EQ(Map(c).value().Byte(0, 4), 832u);
}

TEST(SmemMap, SameLayoutSameMapInBothEncodings) {
  for (Swizzle s : {Swizzle::kNone, Swizzle::k32B, Swizzle::k64B, Swizzle::k128B}) {
    CanonicalLayout l{Major::kMN, s, DType::kF16, 2, 2, 4096, 8192};
    const OperandView view{Major::kMN, DType::kF16, 64, 32};
    const uint64_t start = 0x1080;
    const SmemMatrix m = MatrixFor(l, start);
    const auto wg =
        Map(SmemCase{Arch::kSm90a, Operand::kB, view, EncodeMatrix(Arch::kSm90a, m).desc, start});
    const auto tc =
        Map(SmemCase{Arch::kSm100a, Operand::kB, view, EncodeMatrix(Arch::kSm100a, m).desc, start});
    ASSERT_TRUE(wg.ok() && tc.ok());
    EXPECT_EQ(wg.value().bits, tc.value().bits) << Name(s);
  }
}

// --- rules --------------------------------------------------------------------------------

std::set<std::string> Ids(const Verdict& v) {
  std::set<std::string> ids;
  for (const auto& x : v.violations()) ids.insert(std::string(x.rule->id));
  return ids;
}

SmemCase Legal(Arch arch, Major major, DType t, Swizzle s) {
  CanonicalLayout l{major, s, t, 8, 1, 1024, 1024};
  const OperandView view{major, t, 64, 32};
  return SmemCase{arch, Operand::kA, view, EncodeMatrix(arch, MatrixFor(l, 0x800)).desc, 0x800};
}

TEST(SmemRules, FixedAndReservedBits) {
  const SmemCase ok = Legal(Arch::kSm100a, Major::kK, DType::kF16, Swizzle::k128B);
  EXPECT_TRUE(Validate(ok).legal());
  EXPECT_EQ(tcgen05::smem_field::kFixed46.Get(ok.desc), 1u);  // Triton PR 8032's missing bit
  SmemCase c = ok;
  c.desc = tcgen05::smem_field::kFixed46.Put(c.desc, 0);
  EXPECT_EQ(Ids(Validate(c)), std::set<std::string>{"tcgen05.smem.fixed_46_48"});
  c = ok;
  c.desc |= uint64_t{1} << 53;
  EXPECT_EQ(Ids(Validate(c)), std::set<std::string>{"tcgen05.smem.fixed_53_60"});
  c = ok;
  c.desc = tcgen05::smem_field::kSwizzle.Put(c.desc, 5);
  EXPECT_EQ(Ids(Validate(c)), std::set<std::string>{"tcgen05.smem.swizzle_code"});
  EXPECT_FALSE(Map(c).ok());
  // The same bits read as wgmma: bit 46 is reserved there.
  c = ok;
  c.arch = Arch::kSm90a;
  EXPECT_EQ(Ids(Validate(c)), std::set<std::string>{"wgmma.smem.reserved_46_48"});
}

TEST(SmemRules, SwizzleCodesOfBothEncodings) {
  // tcgen05 codes are wgmma's shifted left one bit: 128B = 2 vs 1, 64B = 4 vs 2, 32B = 6 vs 3.
  for (auto [s, tc, wg] : {std::tuple{Swizzle::k128B, 2, 1}, std::tuple{Swizzle::k64B, 4, 2},
                           std::tuple{Swizzle::k32B, 6, 3}, std::tuple{Swizzle::kNone, 0, 0}}) {
    EXPECT_EQ(tcgen05::CodeOf(s), static_cast<uint64_t>(tc));
    EXPECT_EQ(wgmma::CodeOf(s), static_cast<uint64_t>(wg));
    const SmemMatrix m{0, 16, 1024, 0, false, s};
    EXPECT_EQ(EncodeMatrix(Arch::kSm100a, m).desc >> 61,
              EncodeMatrix(Arch::kSm90a, m).desc >> 62 << 1);
  }
  EXPECT_EQ(tcgen05::CodeOf(Swizzle::k128B32BAtom), 1u);
  EXPECT_FALSE(wgmma::CodeOf(Swizzle::k128B32BAtom));
}

TEST(SmemRules, BaseOffset) {
  SmemCase c = Legal(Arch::kSm90a, Major::kK, DType::kF16, Swizzle::k128B);
  c.pattern_start = 0x880;  // pattern moved one row: base offset must be 1
  EXPECT_EQ(Ids(Validate(c)), std::set<std::string>{"smem.base_offset_value"});
  c.desc = wgmma::smem_field::kBaseOffset.Put(c.desc, 1);
  EXPECT_TRUE(Validate(c).legal());
  SmemCase n = Legal(Arch::kSm90a, Major::kK, DType::kF16, Swizzle::kNone);
  n.desc = wgmma::smem_field::kBaseOffset.Put(n.desc, 3);
  EXPECT_EQ(Ids(Validate(n)), std::set<std::string>{"smem.base_offset_no_swizzle"});
}

TEST(SmemRules, AbsoluteModeRestrictions) {
  SmemCase c = Legal(Arch::kSm103a, Major::kK, DType::kE4M3, Swizzle::k64B);
  c.desc = tcgen05::smem_field::kLboMode.Put(c.desc, 1);
  EXPECT_EQ(Ids(Validate(c)), std::set<std::string>{"tcgen05.smem.lbo_mode_swizzle"});
  c = Legal(Arch::kSm103a, Major::kMN, DType::kE4M3, Swizzle::k128B);
  c.desc = tcgen05::smem_field::kLboMode.Put(c.desc, 1);
  EXPECT_EQ(Ids(Validate(c)), std::set<std::string>{"tcgen05.smem.lbo_mode_major"});
}

TEST(SmemRules, MajorAndTypeTables) {
  EXPECT_EQ(Ids(Validate(Legal(Arch::kSm100a, Major::kMN, DType::kE2M1, Swizzle::k128B))),
            std::set<std::string>{"tcgen05.smem.mn_major_dtype"});
  EXPECT_EQ(Ids(Validate(Legal(Arch::kSm100a, Major::kMN, DType::kTF32, Swizzle::k128B))),
            std::set<std::string>{"tcgen05.smem.tf32_mn_swizzle"});
  EXPECT_TRUE(
      Validate(Legal(Arch::kSm100a, Major::kMN, DType::kTF32, Swizzle::k128B32BAtom)).legal());
  EXPECT_EQ(Ids(Validate(Legal(Arch::kSm100a, Major::kK, DType::kTF32, Swizzle::k128B32BAtom))),
            std::set<std::string>{"tcgen05.smem.base32b_major"});
  EXPECT_EQ(Ids(Validate(Legal(Arch::kSm100a, Major::kMN, DType::kF16, Swizzle::k128B32BAtom))),
            std::set<std::string>{"tcgen05.smem.base32b_dtype"});
  EXPECT_EQ(Ids(Validate(Legal(Arch::kSm90a, Major::kMN, DType::kTF32, Swizzle::k128B))),
            std::set<std::string>{"wgmma.smem.mn_major_dtype"});
  EXPECT_EQ(Ids(Validate(Legal(Arch::kSm90a, Major::kK, DType::kE2M1, Swizzle::k128B))),
            std::set<std::string>{"wgmma.smem.dtype"});
  EXPECT_TRUE(Validate(Legal(Arch::kSm90a, Major::kMN, DType::kBF16, Swizzle::k64B)).legal());
}

TEST(SmemRules, EncodingRulesAndExtent) {
  const Encoded e =
      EncodeMatrix(Arch::kSm100a, SmemMatrix{0x108, 24, 1u << 18, 0, false, Swizzle::kNone});
  EXPECT_EQ(Ids(e.verdict), (std::set<std::string>{"smem.align16", "smem.field_range"}));
  SmemCase c = Legal(Arch::kSm90a, Major::kK, DType::kF16, Swizzle::kNone);
  const auto m = *DecodeMatrix(Arch::kSm90a, c.desc);
  SmemMatrix high = m;
  high.start = (1u << 18) - 256;
  c.desc = EncodeMatrix(Arch::kSm90a, high).desc;
  c.pattern_start.reset();
  EXPECT_EQ(Ids(Validate(c)), std::set<std::string>{"smem.extent"});
}

}  // namespace
}  // namespace tcfuzz::oracle::smem
