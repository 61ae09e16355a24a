// The T-FDPA dot product of dot_product.h for the common case, in 64-bit integers: f16, bf16 and
// tf32 inputs into an f32 (round toward zero) or f16 (nearest even) accumulator. Same recipe,
// same bits (FastDot.AgreesWithTheGeneralModel holds it to DotProduct on random, edge and special
// vectors of every row): a product's significand fits 22 bits, a term truncated to F <= 40
// fraction bits below the largest exponent fits 2^(F + 2), so a block's exact sum fits an int64
// where the general model needs 128 bits. Inf and NaN operands follow the general model's rules
// (the device-judged kernels draw them); the host oracle sends outputs that meet them to the
// general model anyway (tile_mma.cc). Other formats stay with the general model.
//
// constexpr and free of library calls, like counter_hash.h, so that device code can run it
// (nvcc --expt-relaxed-constexpr): the host and a GPU judge a case with the same code.
#pragma once

#include <cstdint>

#include "oracle/numerics/dot_product.h"
#include "oracle/numerics/formats.h"

// The host compiler inlines a block into its dot product (GCC otherwise keeps it a call).
#if defined(__GNUC__) && !defined(__CUDACC__)
#define TCFUZZ_FAST_DOT_INLINE [[gnu::always_inline]] inline
#else
#define TCFUZZ_FAST_DOT_INLINE
#endif

namespace tcfuzz::oracle::num::fast {

// An operand: value = (-1)^neg * m * 2^(e - p), p fixed by its format (FracBits), when finite.
enum Special : uint8_t { kFinite = 0, kInf = 1, kNaN = 2 };
struct Operand {
  uint32_t m = 0;
  int32_t e = 0;
  bool neg = false;
  uint8_t special = kFinite;  // Inf and NaN: m = 0, e = 0
};

// What FastDot needs of DotParams (a plain struct a kernel can take by value).
struct Params {
  int F = 25, L = 16, e_zero = -133;
  bool f16_out = false;  // D in f16, rounded to nearest even; else f32 rounded toward zero
  bool negative_zero = true;
};

// The fast path's parameters for a row, or false where it does not apply (fp8's E8M13 rounding,
// an accumulator the rounding does not match, F past what 64 bits hold).
constexpr bool ParamsOf(const DotParams& d, Format cd, Params& out) {
  const bool f16_out = cd == Format::kF16;
  if (cd != Format::kF32 && !f16_out) return false;
  // L <= 64 keeps a block's sum of L + 1 terms, each below 2^(F + 2), far inside an int64.
  if (d.rho != (f16_out ? Rounding::kRneF16 : Rounding::kRzF32) || d.F < 0 || d.F > 40 ||
      d.L > 64 || d.fp8_via_f16)
    return false;
  out = Params{d.F, d.L, d.e_zero, f16_out, d.negative_zero};
  return true;
}

constexpr bool Supported(Format f) {
  return f == Format::kF16 || f == Format::kBF16 || f == Format::kTF32;
}
constexpr int FracBits(Format f) { return f == Format::kBF16 ? 7 : 10; }  // tf32 keeps 10

// Decodes an f16/bf16/tf32 pattern (tf32: the top 19 bits of its fp32 container, as Decode).
constexpr void Decode(Format f, uint64_t bits, Operand& out) {
  const int p = FracBits(f), eb = f == Format::kF16 ? 5 : 8;
  uint32_t x = f == Format::kTF32 ? static_cast<uint32_t>((bits & 0xFFFFFFFFu) >> 13)
                                  : static_cast<uint32_t>(bits & 0xFFFFu);
  const uint32_t exp = (x >> p) & ((1u << eb) - 1), frac = x & ((1u << p) - 1);
  const int bias = (1 << (eb - 1)) - 1;
  out.neg = ((x >> (p + eb)) & 1) != 0;
  if (exp == (1u << eb) - 1) {
    out.m = 0, out.e = 0, out.special = frac != 0 ? kNaN : kInf;
    return;
  }
  out.special = kFinite;
  out.m = exp == 0 ? frac : frac | (1u << p);
  out.e = exp == 0 ? 1 - bias : static_cast<int32_t>(exp) - bias;
}

// The same for a finite pattern; false for Inf and NaN.
constexpr bool DecodeFinite(Format f, uint64_t bits, Operand& out) {
  Decode(f, bits, out);
  return out.special == kFinite;
}

namespace detail {

constexpr int BitLength64(uint64_t x) {
#if defined(__CUDA_ARCH__)
  return 64 - __clzll(static_cast<long long>(x));
#else
  return x == 0 ? 0 : 64 - __builtin_clzll(x);
#endif
}

// |sum| * 2^scale in the accumulator format (dot_product.cc's RoundOut for f32 RZ and f16 RNE).
constexpr uint32_t RoundOut(int64_t sum, int scale, bool f16_out) {
  const bool neg = sum < 0;
  const uint64_t mag = neg ? 0 - static_cast<uint64_t>(sum) : static_cast<uint64_t>(sum);
  const int lead = scale + BitLength64(mag) - 1;
  if (!f16_out) {
    const uint32_t sign = neg ? 0x80000000u : 0u;
    if (lead >= 128) return sign | 0x7F800000u;  // RZ past fp32's range is Inf (reference §5)
    const int e = lead > -126 ? lead : -126;
    const int shift = (e - 23) - scale;
    const uint64_t q = shift <= 0 ? mag << -shift : (shift >= 64 ? 0 : mag >> shift);
    // q < 2^24: a normal q carries the hidden bit into the exponent field.
    return sign |
           static_cast<uint32_t>(q >= (1u << 23) ? (static_cast<uint64_t>(e + 126) << 23) + q : q);
  }
  const uint32_t sign = neg ? 0x8000u : 0u;
  const int e = lead > -14 ? lead : -14;
  const int shift = (e - 10) - scale;
  uint64_t q = 0;
  if (shift <= 0) {
    q = mag << -shift;
  } else if (shift >= 64) {
    q = 0;  // below half the smallest subnormal: rounds to zero
  } else {
    q = mag >> shift;
    const uint64_t rem = mag & ((uint64_t{1} << shift) - 1), half = uint64_t{1} << (shift - 1);
    if (rem > half || (rem == half && (q & 1) != 0)) ++q;  // may carry into the exponent
  }
  const uint64_t body = q >= (1u << 10) ? (static_cast<uint64_t>(e + 14) << 10) + q : q;
  return sign | (body >= 0x7C00u ? 0x7C00u : static_cast<uint32_t>(body));
}

// c as a term: false for Inf/NaN (the caller propagates them).
constexpr bool DecodeAccumulator(uint32_t c, bool f16_out, Operand& out) {
  if (f16_out) {
    if (((c >> 10) & 0x1F) == 0x1F) return false;
    const uint32_t exp = (c >> 10) & 0x1F, frac = c & 0x3FF;
    out.neg = ((c >> 15) & 1) != 0;
    out.m = exp == 0 ? frac : frac | 0x400u;
    out.e = exp == 0 ? -14 : static_cast<int32_t>(exp) - 15;
    return true;
  }
  if (((c >> 23) & 0xFF) == 0xFF) return false;
  const uint32_t exp = (c >> 23) & 0xFF, frac = c & 0x7FFFFF;
  out.neg = (c >> 31) != 0;
  out.m = exp == 0 ? frac : frac | 0x800000u;
  out.e = exp == 0 ? -126 : static_cast<int32_t>(exp) - 127;
  return true;
}

}  // namespace detail

// The two factors of one product: where a caller's operands live (contiguous runs, A's stored row
// meeting the B elements a sparse row's metadata picks) is its own business. Operands decoded on
// the fly (packed words in shared memory) come by value.
struct Factors {
  const Operand* a;
  const Operand* b;
};
struct FactorValues {
  Operand a, b;
};

namespace detail {
constexpr const Operand& Ref(const Operand& o) { return o; }
constexpr const Operand& Ref(const Operand* o) { return *o; }
}  // namespace detail

// One fused block: c plus the n <= L products at(first) .. at(first + n - 1) (Factors or
// FactorValues) of finite operands with `frac` fraction bits (FracBits(fa) + FracBits(fb)).
// kSpecials false: every product's operands are finite (the host oracle's tiles, which send
// outputs that meet an Inf or NaN to the general model): the check costs 11% of a dot product.
template <bool kSpecials, class At>
TCFUZZ_FAST_DOT_INLINE constexpr uint32_t BlockOf(const At& at, int first, int n, int frac,
                                                  uint32_t c, const Params& p) {
  // Special values first (dot_product.cc's rules): a NaN, Inf x 0, or Infs of both signs among
  // the products and C give NaN; else an Inf gives Inf of its sign.
  bool nan = false, pos_inf = false, neg_inf = false;
  Operand dc;
  if (!detail::DecodeAccumulator(c, p.f16_out, dc)) {
    if (p.f16_out ? (c & 0x3FF) != 0 : (c & 0x7FFFFF) != 0) {
      nan = true;
    } else {
      ((p.f16_out ? c >> 15 : c >> 31) != 0 ? neg_inf : pos_inf) = true;
    }
  }
  const int c_frac = p.f16_out ? 10 : 23;
  int emax = dc.m == 0 ? p.e_zero : dc.e;
  for (int x = 0; x < n; ++x) {
    const auto f = at(first + x);
    const Operand &a = detail::Ref(f.a), &b = detail::Ref(f.b);
    if (kSpecials && (a.special | b.special) != kFinite) {
      const bool zero = (a.special == kFinite && a.m == 0) || (b.special == kFinite && b.m == 0);
      if (a.special == kNaN || b.special == kNaN || zero) {
        nan = true;
      } else {
        (a.neg != b.neg ? neg_inf : pos_inf) = true;
      }
      continue;
    }
    const int e = a.m == 0 || b.m == 0 ? p.e_zero : a.e + b.e;
    emax = e > emax ? e : emax;
  }
  if (nan || (pos_inf && neg_inf)) return p.f16_out ? kF16NaN : kF32NaN;
  if (pos_inf || neg_inf) {
    const uint32_t inf = p.f16_out ? 0x7C00u : 0x7F800000u;
    return neg_inf ? inf | (p.f16_out ? 0x8000u : 0x80000000u) : inf;
  }
  // A term truncated to F fraction bits below emax: m * 2^(e - fr) in units of 2^(emax - F),
  // rounded down. Every shift is a right shift of m pre-shifted by 32 (F - fr <= 30 for every
  // format here), clamped at 63: no branch on the shift's sign.
  const auto term = [&](uint64_t m, int e, int fr) -> int64_t {
    const int sh = (emax - e) + fr - p.F + 32;
    return static_cast<int64_t>((m << 32) >> (sh < 63 ? sh : 63));
  };
  int64_t sum = 0;
  bool all_neg = dc.neg;
  {
    const int64_t t = term(dc.m, dc.m == 0 ? p.e_zero : dc.e, c_frac);
    sum += dc.neg ? -t : t;
  }
  for (int x = 0; x < n; ++x) {
    const auto f = at(first + x);
    const Operand &a = detail::Ref(f.a), &b = detail::Ref(f.b);
    const uint64_t m = static_cast<uint64_t>(a.m) * b.m;
    const bool neg = a.neg != b.neg;
    const int64_t t = term(m, m == 0 ? p.e_zero : a.e + b.e, frac);
    const int64_t mask = -static_cast<int64_t>(neg);
    sum += (t ^ mask) - mask;
    all_neg = all_neg && neg;
  }
  const uint32_t minus_zero = p.f16_out ? 0x8000u : 0x80000000u;
  if (sum == 0) return all_neg && p.negative_zero ? minus_zero : 0u;
  const uint32_t out = detail::RoundOut(sum, emax - p.F, p.f16_out);
  return out == minus_zero && !p.negative_zero ? 0u : out;
}

// D = C + the n products at(0) .. at(n - 1), in blocks of L in ascending order, each block's D
// the next one's C. Any operands, Inf and NaN included (kSpecials false: finite ones only).
template <bool kSpecials = true, class At>
constexpr uint32_t DotOf(const At& at, int n, int frac, uint32_t c, const Params& p) {
  const int l = p.L > 0 ? p.L : 1;
  uint32_t d = c;
  for (int k = 0; k < n; k += l) d = BlockOf<kSpecials>(at, k, n - k < l ? n - k : l, frac, d, p);
  if (n == 0) d = BlockOf<kSpecials>(at, 0, 0, frac, c, p);
  return d;
}

// The same over two contiguous runs of finite operands (C may be anything): product x is
// a[x] * b[x]. The host oracle's path.
constexpr uint32_t Dot(const Operand* a, const Operand* b, int n, int frac, uint32_t c,
                       const Params& p) {
  return DotOf<false>([a, b](int x) { return Factors{a + x, b + x}; }, n, frac, c, p);
}

}  // namespace tcfuzz::oracle::num::fast
