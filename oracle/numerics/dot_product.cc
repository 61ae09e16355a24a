#include "oracle/numerics/dot_product.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "oracle/core/span.h"
#include "oracle/numerics/fast_dot.h"

namespace tcfuzz::oracle::num {
namespace {

using u128 = uint128;
using i128 = int128;

struct Term {
  bool neg;
  u128 m;    // integer significand (product of significands for products)
  int frac;  // fraction bits of m
  int e;     // exponent: value = m * 2^(e - frac)
};

uint32_t Inf(Format cd, bool neg) {
  if (cd == Format::kF16) return neg ? 0xFC00u : 0x7C00u;
  return neg ? 0xFF800000u : 0x7F800000u;
}
uint32_t NaN(Format cd) { return cd == Format::kF16 ? kF16NaN : kF32NaN; }

// S * 2^scale rounded to the accumulator format by rho.
uint32_t RoundOut(i128 s, int scale, Rounding rho) {
  const bool neg = s < 0;
  const u128 mag = neg ? static_cast<u128>(-s) : static_cast<u128>(s);
  if (rho == Rounding::kRneF16) {
    return static_cast<uint32_t>(EncodeExact(Format::kF16, neg, mag, scale, Round::kNearestEven));
  }
  // RZ: an exponent past fp32's range is Inf, not FLT_MAX (the models agree; reference §5).
  if (scale + BitLength(mag) - 1 >= 128) return Inf(Format::kF32, neg);
  uint32_t bits =
      static_cast<uint32_t>(EncodeExact(Format::kF32, neg, mag, scale, Round::kTowardZero));
  if (rho == Rounding::kRzE8M13) bits &= ~0x3FFu;  // keep 13 fraction bits
  return bits;
}

constexpr std::array<std::pair<Gpu, std::string_view>, 5> kGpus = {{{Gpu::kSm70, "sm_70"},
                                                                    {Gpu::kSm80, "sm_80"},
                                                                    {Gpu::kSm89, "sm_89"},
                                                                    {Gpu::kSm90, "sm_90"},
                                                                    {Gpu::kSm100, "sm_100"}}};
constexpr std::array<std::pair<Instr, std::string_view>, 3> kInstrs = {
    {{Instr::kMma, "mma"}, {Instr::kWgmma, "wgmma"}, {Instr::kTcgen05, "tcgen05"}}};

// An fp8 pattern as the f16 pattern of the same value (exact: f16 holds every e4m3 and e5m2
// value; e5m2 is f16's high byte); other formats unchanged.
uint64_t AsF16(Format f, uint64_t bits) {
  if (f == Format::kE5M2) return (bits & 0xFF) << 8;
  if (f == Format::kE4M3) return FromDouble(Format::kF16, ToDouble(f, bits));
  return bits;
}

}  // namespace

std::string_view Name(Gpu g) {
  for (const auto& [x, n] : kGpus) {
    if (x == g) return n;
  }
  return "?";
}
std::optional<Gpu> ParseGpu(std::string_view s) {
  for (const auto& [x, n] : kGpus) {
    if (n == s) return x;
  }
  return std::nullopt;
}
std::string_view Name(Instr i) {
  for (const auto& [x, n] : kInstrs) {
    if (x == i) return n;
  }
  return "?";
}
std::optional<Instr> ParseInstr(std::string_view s) {
  for (const auto& [x, n] : kInstrs) {
    if (n == s) return x;
  }
  return std::nullopt;
}

// numerics reference §3; each row names its reading in oracle/core/backing.cc (R70-mma, ...),
// which says what backs it.
std::optional<DotParams> ParamsFor(Gpu gpu, Instr instr, Format ab, Format cd) {
  if (cd != Format::kF32 && cd != Format::kF16) return std::nullopt;
  const bool f32 = cd == Format::kF32;
  const Rounding out = f32 ? Rounding::kRzF32 : Rounding::kRneF16;
  const bool half = ab == Format::kF16 || ab == Format::kBF16;
  if (ab == Format::kBF16 && !f32) return std::nullopt;  // bf16 accumulates in f32 only
  if (ab == Format::kTF32 && !f32) return std::nullopt;
  switch (gpu) {
    case Gpu::kSm70:
      if (instr != Instr::kMma || ab != Format::kF16) return std::nullopt;
      return DotParams{23, 4, -131, out, true, "R70-mma"};
    case Gpu::kSm80:
    case Gpu::kSm89: {
      if (instr != Instr::kMma) return std::nullopt;
      const std::string_view row = gpu == Gpu::kSm80 ? "R80-mma" : "R89-mma";
      if (half) return DotParams{24, 8, -132, out, true, row};
      if (ab == Format::kTF32) return DotParams{24, 4, -132, out, true, row};
      if (IsFp8(ab) && gpu == Gpu::kSm89) {
        return DotParams{13, 16, -132, f32 ? Rounding::kRzE8M13 : Rounding::kRneF16, true, row};
      }
      return std::nullopt;
    }
    case Gpu::kSm90: {
      if (instr == Instr::kTcgen05) return std::nullopt;
      // A zero D is +0 from mma(.sp) on sm_90, even when C and every product are -0 or a negative
      // sum rounds to zero (N4); wgmma's f16/bf16 products too (N6, measured on negative sums that
      // round to zero; tf32 shares the row); fp8 wgmma too (the discovery kit, 2026-11-25).
      const bool negative_zero = false;
      const std::string_view row = instr == Instr::kMma ? "R90-mma" : "R90-wgmma";
      if (half) return DotParams{25, 16, -133, out, negative_zero, row};
      if (ab == Format::kTF32) return DotParams{25, 8, -133, out, negative_zero, row};
      if (IsFp8(ab)) {
        // mma.sync / mma.sp fp8 on sm_90 is two f16 HMMAs and an add (R90-mma-fp8).
        if (instr == Instr::kMma) {
          DotParams p{25, 16, -133, out, negative_zero, "R90-mma-fp8"};
          p.fp8_via_f16 = true;
          return p;
        }
        // wgmma fp8: C fused and truncated like a product; a zero D is +0 here too (N6).
        return DotParams{13,
                         32,
                         -133,
                         f32 ? Rounding::kRzE8M13 : Rounding::kRneF16,
                         negative_zero,
                         f32 ? "R90-wgmma" : "R90-wgmma-fp8-f16"};
      }
      return std::nullopt;
    }
    case Gpu::kSm100: {
      if (instr == Instr::kWgmma) return std::nullopt;
      const std::string_view row = instr == Instr::kMma ? "R100-mma" : "R100-tcgen05";
      if (half) return DotParams{25, 16, -133, out, true, row};
      if (ab == Format::kTF32) return DotParams{25, 8, -133, out, true, row};
      if (instr == Instr::kTcgen05 && (IsFp8(ab) || IsFp6Fp4(ab)))
        return DotParams{25, 32, -133, out, true, row};
      if (instr == Instr::kMma && IsFp8(ab)) {  // two f16 HMMAs and an add, as on sm_90
        DotParams p{25, 16, -133, out, true, "R100-mma-fp8"};
        p.fp8_via_f16 = true;
        return p;
      }
      return std::nullopt;
    }
  }
  return std::nullopt;
}

Span<const NumericsRow> NumericsRows() {
  static const std::vector<NumericsRow> rows = [] {
    std::vector<NumericsRow> out;
    for (const auto& [gpu, gpu_name] : kGpus) {
      for (const auto& [instr, instr_name] : kInstrs) {
        for (Format ab : {Format::kF16, Format::kBF16, Format::kTF32, Format::kE4M3, Format::kE5M2,
                          Format::kE3M2, Format::kE2M3, Format::kE2M1}) {
          for (Format cd : {Format::kF32, Format::kF16}) {
            if (const auto p = ParamsFor(gpu, instr, ab, cd))
              out.push_back({gpu, instr, ab, cd, *p});
          }
        }
      }
    }
    return out;
  }();
  return rows;
}

namespace {

// One fused block over decoded operands; every public entry point ends here.
uint32_t FusedBlockOf(Span<const Decoded> a, Span<const Decoded> b, uint32_t c, Format cd,
                      const DotParams& p) {
  const std::size_t n = std::min(a.size(), b.size());
  // Special values first.
  bool nan = false, pos_inf = false, neg_inf = false;
  // Terms on the stack for every block an instruction has (L <= 32); the heap only past that.
  std::array<Term, 65> fixed;
  std::vector<Term> heap;
  Term* const terms = n + 1 <= fixed.size() ? fixed.data() : (heap.resize(n + 1), heap.data());
  std::size_t count = 0;
  for (std::size_t k = 0; k < n; ++k) {
    const Decoded& x = a[k];
    const Decoded& y = b[k];
    const bool neg = x.neg != y.neg;
    if (x.kind == Decoded::Kind::kNaN || y.kind == Decoded::Kind::kNaN) {
      nan = true;
    } else if (x.kind == Decoded::Kind::kInf || y.kind == Decoded::Kind::kInf) {
      if (x.is_zero() || y.is_zero()) {
        nan = true;
      } else {
        (neg ? neg_inf : pos_inf) = true;
      }
    } else {
      const u128 m = static_cast<u128>(x.m) * y.m;
      terms[count++] = Term{neg, m, x.p + y.p, m == 0 ? p.e_zero : x.e + y.e};
    }
  }
  const Decoded dc = Decode(cd, c);
  if (dc.kind == Decoded::Kind::kNaN) nan = true;
  if (dc.kind == Decoded::Kind::kInf) (dc.neg ? neg_inf : pos_inf) = true;
  if (nan || (pos_inf && neg_inf)) return NaN(cd);
  if (pos_inf || neg_inf) return Inf(cd, neg_inf);
  terms[count++] = Term{dc.neg, dc.m, dc.p, dc.m == 0 ? p.e_zero : dc.e};
  // Align to the largest exponent; truncate each term to F fraction bits; sum exactly.
  int emax = std::numeric_limits<int>::min();
  for (std::size_t k = 0; k < count; ++k) emax = std::max(emax, terms[k].e);
  i128 sum = 0;
  bool all_neg = true;
  // A term's value is below 2^(emax + 2), so truncated to F fraction bits below emax it is below
  // 2^(F + 2): 64-bit shifts hold it for every F the hardware has (the wide ones stay for any F).
  const bool narrow = p.F <= 61;
  for (std::size_t k = 0; k < count; ++k) {
    const Term& t = terms[k];
    const int sh = (emax - t.e) + t.frac - p.F;
    u128 mag;
    if (narrow && t.m >> 64 == 0) {
      const auto m = static_cast<uint64_t>(t.m);
      mag = sh <= 0 ? m << -sh : (sh >= 64 ? 0 : m >> sh);
    } else {
      mag = sh <= 0 ? t.m << -sh : (sh >= 127 ? 0 : t.m >> sh);
    }
    sum += t.neg ? -static_cast<i128>(mag) : static_cast<i128>(mag);
    all_neg = all_neg && t.neg;
  }
  const uint32_t minus_zero = cd == Format::kF16 ? 0x8000u : 0x80000000u;
  if (sum == 0) {
    // -0 only when every term is negative and truncated to zero (reference §5, [MODEL]).
    return all_neg && p.negative_zero ? minus_zero : 0u;
  }
  const uint32_t out = RoundOut(sum, emax - p.F, p.rho);
  // Rows without negative zeros drop the sign of a negative sum that rounds to zero too.
  return out == minus_zero && !p.negative_zero ? 0u : out;
}

// The operands decoded, on the stack when they fit.
class DecodedSpan {
 public:
  DecodedSpan(Format f, Span<const uint64_t> bits) {
    Decoded* out =
        bits.size() <= fixed_.size() ? fixed_.data() : (heap_.resize(bits.size()), heap_.data());
    for (std::size_t k = 0; k < bits.size(); ++k) out[k] = Decode(f, bits[k]);
    view_ = {out, bits.size()};
  }
  DecodedSpan(const DecodedSpan&) = delete;  // view_ may point into fixed_
  DecodedSpan& operator=(const DecodedSpan&) = delete;
  Span<const Decoded> view() const { return view_; }

 private:
  std::array<Decoded, 64> fixed_;  // every block and most dot products; larger ones on the heap
  std::vector<Decoded> heap_;
  Span<const Decoded> view_;
};

}  // namespace

uint32_t FusedBlock(Span<const uint64_t> a, Span<const uint64_t> b, uint32_t c, Format fa,
                    Format fb, Format cd, const DotParams& p) {
  const std::size_t n = std::min(a.size(), b.size());
  return FusedBlockOf(DecodedSpan(fa, a.first(n)).view(), DecodedSpan(fb, b.first(n)).view(), c, cd,
                      p);
}

Decoded DecodeOperand(Format f, uint64_t bits, const DotParams& p) {
  return p.fp8_via_f16 && IsFp8(f) ? Decode(Format::kF16, AsF16(f, bits)) : Decode(f, bits);
}

uint32_t AddRoundedToNearest(Format cd, uint32_t x, uint32_t y) {
  const Decoded dx = Decode(cd, x), dy = Decode(cd, y);
  using K = Decoded::Kind;
  if (dx.kind == K::kNaN || dy.kind == K::kNaN) return NaN(cd);
  if (dx.kind == K::kInf || dy.kind == K::kInf) {
    if (dx.kind == K::kInf && dy.kind == K::kInf && dx.neg != dy.neg) return NaN(cd);
    return Inf(cd, dx.kind == K::kInf ? dx.neg : dy.neg);
  }
  if (dx.is_zero() && dy.is_zero()) {
    return dx.neg && dy.neg ? (cd == Format::kF16 ? 0x8000u : 0x80000000u) : 0u;
  }
  // Exact in 128 bits when the exponents are within 100 of each other; further apart, the
  // smaller is below a quarter of the larger's last place and the larger is the result.
  const int sx = dx.e - dx.p, sy = dy.e - dy.p;
  if (dx.is_zero() || dy.is_zero() || std::abs(dx.e - dy.e) > 100) {
    const bool x_big = dy.is_zero() || (!dx.is_zero() && dx.e > dy.e);
    return x_big ? x : y;
  }
  const int base = std::min(sx, sy);
  const i128 vx = static_cast<i128>(static_cast<u128>(dx.m) << (sx - base));
  const i128 vy = static_cast<i128>(static_cast<u128>(dy.m) << (sy - base));
  const i128 s = (dx.neg ? -vx : vx) + (dy.neg ? -vy : vy);
  if (s == 0) return 0u;  // x + (-x) is +0 when rounding to nearest
  const bool neg = s < 0;
  return static_cast<uint32_t>(
      EncodeExact(cd, neg, static_cast<u128>(neg ? -s : s), base, Round::kNearestEven));
}

uint32_t DotProduct(Span<const Decoded> a, Span<const Decoded> b, uint32_t c, Format cd,
                    const DotParams& p) {
  const std::size_t n = std::min(a.size(), b.size());
  if (p.fp8_via_f16) {  // two f16 MMA groups from +0, then C (operands already in f16)
    std::vector<Decoded> ga, gb;
    for (std::size_t group = 0; group < 2; ++group) {
      for (std::size_t k = 0; k < n; ++k) {
        if ((k / 2) % 2 == group) ga.push_back(a[k]), gb.push_back(b[k]);
      }
    }
    DotParams q = p;
    q.fp8_via_f16 = false;
    const std::size_t first = (n / 4) * 2 + std::min<std::size_t>(n % 4, 2);
    const Span<const Decoded> sa(ga), sb(gb);
    uint32_t acc = DotProduct(sa.first(first), sb.first(first), 0u, cd, q);
    if (n > first) acc = DotProduct(sa.subspan(first), sb.subspan(first), acc, cd, q);
    return AddRoundedToNearest(cd, acc, c);
  }
  const std::size_t l = static_cast<std::size_t>(std::max(1, p.L));
  uint32_t d = c;
  for (std::size_t k = 0; k < n; k += l) {  // blocks in ascending k, each output feeds the next
    const std::size_t len = std::min(l, n - k);
    d = FusedBlockOf(a.subspan(k, len), b.subspan(k, len), d, cd, p);
  }
  if (n == 0) d = FusedBlockOf({}, {}, c, cd, p);
  return d;
}

uint32_t DotProduct(Span<const uint64_t> a, Span<const uint64_t> b, uint32_t c, Format fa,
                    Format fb, Format cd, const DotParams& p) {
  const std::size_t n = std::min(a.size(), b.size());
  if (p.fp8_via_f16 && (IsFp8(fa) || IsFp8(fb))) {  // the unpack to f16 first (exact)
    std::vector<uint64_t> x(n), y(n);
    for (std::size_t k = 0; k < n; ++k) x[k] = AsF16(fa, a[k]), y[k] = AsF16(fb, b[k]);
    // (The 64-bit path declines such rows: fast::ParamsOf.)
    return DotProduct(x, y, c, IsFp8(fa) ? Format::kF16 : fa, IsFp8(fb) ? Format::kF16 : fb, cd, p);
  }
  // Finite f16/bf16/tf32 operands take the 64-bit path (oracle/numerics/fast_dot.h), same bits.
  fast::Params fp;
  if (n <= 64 && fast::Supported(fa) && fast::Supported(fb) && fast::ParamsOf(p, cd, fp)) {
    std::array<fast::Operand, 64> x, y;
    bool finite = true;
    for (std::size_t k = 0; k < n && finite; ++k)
      finite = fast::DecodeFinite(fa, a[k], x[k]) && fast::DecodeFinite(fb, b[k], y[k]);
    if (finite) {
      return fast::Dot(x.data(), y.data(), static_cast<int>(n),
                       fast::FracBits(fa) + fast::FracBits(fb), c, fp);
    }
  }
  return DotProduct(DecodedSpan(fa, a.first(n)).view(), DecodedSpan(fb, b.first(n)).view(), c, cd,
                    p);
}

DotParams ExactParams(Format cd) {
  DotParams p;
  if (cd == Format::kF16) p.rho = Rounding::kRneF16;
  return p;
}

int32_t IntResult(int64_t sum, bool satfinite) {
  if (satfinite) {
    return static_cast<int32_t>(std::clamp<int64_t>(sum, std::numeric_limits<int32_t>::min(),
                                                    std::numeric_limits<int32_t>::max()));
  }
  return static_cast<int32_t>(static_cast<uint32_t>(static_cast<uint64_t>(sum)));
}

int32_t IntDotProduct(Span<const uint64_t> a, Span<const uint64_t> b, int32_t c, Format fa,
                      Format fb, bool satfinite) {
  int64_t sum = c;
  const std::size_t n = std::min(a.size(), b.size());
  for (std::size_t k = 0; k < n; ++k) sum += DecodeInt(fa, a[k]) * DecodeInt(fb, b[k]);
  return IntResult(sum, satfinite);
}

std::optional<std::string> BitsAboveStorage(Span<const uint64_t> a, Span<const uint64_t> b,
                                            uint64_t c, Format ab, Format cd) {
  const auto above = [](uint64_t bits, Format f) {
    return StorageBits(f) < 64 && (bits >> StorageBits(f)) != 0;
  };
  const auto says = [](const std::string& what, uint64_t bits, Format f) {
    char hex[24];
    std::snprintf(hex, sizeof hex, "0x%llx", static_cast<unsigned long long>(bits));
    return what + ": " + hex + " has bits above the " + std::to_string(StorageBits(f)) + " of " +
           std::string(Name(f));
  };
  for (const auto& [v, name] : {std::pair{a, "a"}, std::pair{b, "b"}}) {
    for (std::size_t k = 0; k < v.size(); ++k) {
      if (above(v[k], ab)) return says(std::string(name) + "[" + std::to_string(k) + "]", v[k], ab);
    }
  }
  if (above(c, cd)) return says("c", c, cd);
  return std::nullopt;
}

}  // namespace tcfuzz::oracle::num
