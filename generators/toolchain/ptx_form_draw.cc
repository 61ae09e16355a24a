// DrawForm: one instruction form from a Source, for the assembler fuzzer. Every field ranges a
// little past what the tables allow (unknown N, selector 4, trans 2, scale 16, cta_group 3,
// collectors of the wrong variant), so legal and single-rule-breaking forms both come out; 0 is
// always the simplest choice (a dense f16 mma at PTX 9.0).
#include <array>
#include <string_view>

#include "generators/toolchain/ptx_form_gen.h"
#include "oracle/core/span.h"

namespace tcfuzz::gen {
namespace {

using oracle::num::Format;
using oracle::ptx::Family;
using oracle::ptx::Kind;

constexpr std::array<Format, 14> kFormats{
    Format::kF16,  Format::kBF16, Format::kTF32, Format::kF32,  Format::kE4M3,
    Format::kE5M2, Format::kE3M2, Format::kE2M3, Format::kE2M1, Format::kS8,
    Format::kU8,   Format::kS4,   Format::kU4,   Format::kS32};
constexpr std::array<Family, 9> kFamilies{
    Family::kMma,       Family::kMmaSp,     Family::kMmaSpOrdered,
    Family::kWgmma,     Family::kWgmmaSp,   Family::kTcgen05,
    Family::kTcgen05Sp, Family::kTcgen05Ws, Family::kTcgen05WsSp};
constexpr std::array<int, 12> kVersions{90, 88, 87, 86, 85, 84, 83, 82, 81, 80, 78, 71};
constexpr std::array<int, 8> kK{16, 32, 8, 64, 128, 4, 256, 24};
constexpr std::array<std::string_view, 10> kCollectors{
    "",         "a::fill", "a::use",      "a::lastuse", "a::discard",
    "b0::fill", "b1::use", "b3::lastuse", "b4::fill",   "a::keep"};

}  // namespace

oracle::ptx::PtxForm DrawForm(Source& s) {
  oracle::ptx::PtxForm f;
  f.family = s.Pick(oracle::Span<const Family>(kFamilies));
  f.ptx = s.Pick(oracle::Span<const int>(kVersions));
  const bool wg = oracle::ptx::IsWgmma(f.family);
  const int m = wg ? (s.Below(8) == 7 ? 128 : 64) : (s.Below(8) == 0 ? 8 : 16);
  const int n = wg ? static_cast<int>(8 * s.InRange(1, 34)) - (s.Below(8) == 7 ? 4 : 0)
                   : (s.Below(8) == 7 ? 16 : 8);
  f.shape = "m" + std::to_string(m) + "n" + std::to_string(n) + "k" +
            std::to_string(s.Pick(oracle::Span<const int>(kK)));
  const auto fmt = [&s] { return s.Pick(oracle::Span<const Format>(kFormats)); };
  f.a = fmt();
  f.b = s.Below(4) == 3 ? fmt() : f.a;
  f.d = s.Coin() ? fmt() : Format::kF32;
  f.c = s.Below(4) == 3 ? fmt() : f.d;
  f.satfinite = s.Below(4) == 3;
  f.kind_f8f6f4 = s.Below(4) == 3;
  f.selector = static_cast<int>(s.Below(5));
  f.a_in_regs = s.Coin();
  f.trans_a = static_cast<int>(s.Below(4)) - 1;
  f.trans_b = static_cast<int>(s.Below(4)) - 1;
  f.kind = static_cast<Kind>(s.Below(4));
  f.cta_group = static_cast<int>(s.InRange(1, 3));
  f.a_tmem = s.Coin();
  f.collector = std::string(s.Pick(oracle::Span<const std::string_view>(kCollectors)));
  const int lanes = static_cast<int>(s.Below(5));
  f.disable_lanes = lanes == 0   ? 0
                    : lanes == 1 ? 4
                    : lanes == 2 ? 8
                                 : static_cast<int>(s.InRange(1, 9));
  f.scale_input_d = static_cast<int>(s.Below(18)) - 1;
  f.zero_column_mask = s.Coin();
  return f;
}

}  // namespace tcfuzz::gen
