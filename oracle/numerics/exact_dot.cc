#include "oracle/numerics/exact_dot.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "oracle/core/span.h"

namespace tcfuzz::oracle::num {
namespace {

// The exponent of the largest term of a block, as FusedBlock aligns to it.
int BlockEmax(Span<const uint64_t> a, Span<const uint64_t> b, uint32_t c, Format fa, Format fb,
              Format cd, int e_zero) {
  int emax = std::numeric_limits<int>::min();
  for (std::size_t k = 0; k < std::min(a.size(), b.size()); ++k) {
    const Decoded x = Decode(fa, a[k]), y = Decode(fb, b[k]);
    emax = std::max(emax, x.m * y.m == 0 ? e_zero : x.e + y.e);
  }
  const Decoded dc = Decode(cd, c);
  return std::max(emax, dc.m == 0 ? e_zero : dc.e);
}

// One unit in the last place of a finite accumulator value (the rounding quantum).
int UlpExp(Format cd, uint32_t d, Rounding rho) {
  const Decoded x = Decode(cd, d);
  const int keep = rho == Rounding::kRzE8M13 ? 13 : x.p;
  int lead = x.e;  // exponent of the leading bit for normals; emin for subnormals
  return lead - keep;
}

}  // namespace

void Exact::Add(bool neg, uint64_t m, int exp2) {
  if (m == 0) return;
  const int shift = exp2 + kFracBits;  // bit position of m's lowest bit
  std::array<uint64_t, kLimbs> t{};
  const int limb = shift / 64, off = shift % 64;
  if (limb < kLimbs) t[static_cast<std::size_t>(limb)] = m << off;
  if (off != 0 && limb + 1 < kLimbs) t[static_cast<std::size_t>(limb + 1)] = m >> (64 - off);
  if (neg) {  // two's complement negate
    uint64_t carry = 1;
    for (auto& w : t) {
      w = ~w;
      const uint64_t s = w + carry;
      carry = s < w ? 1 : 0;
      w = s;
    }
  }
  uint64_t carry = 0;
  for (int i = 0; i < kLimbs; ++i) {
    const uint64_t s1 = limbs_[static_cast<std::size_t>(i)] + t[static_cast<std::size_t>(i)];
    const uint64_t c1 = s1 < t[static_cast<std::size_t>(i)] ? 1 : 0;
    const uint64_t s2 = s1 + carry;
    const uint64_t c2 = s2 < carry ? 1 : 0;
    limbs_[static_cast<std::size_t>(i)] = s2;
    carry = c1 | c2;
  }
}

void Exact::AddValue(Format f, uint64_t bits) {
  const Decoded x = Decode(f, bits);
  Add(x.neg, x.m, x.e - x.p);
}

Exact Exact::Minus(const Exact& o) const {
  Exact r;
  uint64_t borrow = 0;
  for (int i = 0; i < kLimbs; ++i) {
    const uint64_t a = limbs_[static_cast<std::size_t>(i)],
                   b = o.limbs_[static_cast<std::size_t>(i)];
    const uint64_t d1 = a - b;
    const uint64_t b1 = a < b ? 1 : 0;
    const uint64_t d2 = d1 - borrow;
    const uint64_t b2 = d1 < borrow ? 1 : 0;
    r.limbs_[static_cast<std::size_t>(i)] = d2;
    borrow = b1 | b2;
  }
  return r;
}

Exact Exact::Abs() const { return Negative() ? Exact().Minus(*this) : *this; }

bool Exact::LessOrEqual(const Exact& o) const {
  const Exact d = o.Minus(*this);  // o - this >= 0
  return !d.Negative();
}

bool Exact::IsZero() const {
  for (uint64_t w : limbs_) {
    if (w) return false;
  }
  return true;
}

double Exact::ToDouble() const {
  const Exact a = Abs();
  double v = 0;
  for (int i = kLimbs - 1; i >= 0; --i)
    v = v * 18446744073709551616.0 + static_cast<double>(a.limbs_[static_cast<std::size_t>(i)]);
  v = std::ldexp(v, -kFracBits);
  return Negative() ? -v : v;
}

std::optional<Exact> ExactDotProduct(Span<const uint64_t> a, Span<const uint64_t> b, uint32_t c,
                                     Format fa, Format fb, Format cd) {
  Exact sum;
  for (std::size_t k = 0; k < std::min(a.size(), b.size()); ++k) {
    const Decoded x = Decode(fa, a[k]), y = Decode(fb, b[k]);
    if (x.kind != Decoded::Kind::kFinite || y.kind != Decoded::Kind::kFinite) return std::nullopt;
    sum.Add(x.neg != y.neg, x.m * y.m, x.e + y.e - x.p - y.p);
  }
  const Decoded dc = Decode(cd, c);
  if (dc.kind != Decoded::Kind::kFinite) return std::nullopt;
  sum.Add(dc.neg, dc.m, dc.e - dc.p);
  return sum;
}

BoundedResult DotProductWithBound(Span<const uint64_t> a, Span<const uint64_t> b, uint32_t c,
                                  Format fa, Format fb, Format cd, const DotParams& p) {
  const std::size_t n = std::min(a.size(), b.size());
  // Blocks of L chained from `start`, each adding its truncation and rounding to the bound.
  const auto chain = [&](Span<const uint64_t> x, Span<const uint64_t> y, uint32_t start,
                         BoundedResult& r) {
    const std::size_t l = static_cast<std::size_t>(std::max(1, p.L));
    r.d = start;
    for (std::size_t k = 0; k == 0 || k < x.size(); k += l) {
      const std::size_t len = std::min(l, x.size() - k);
      const auto ab = x.subspan(k, len), bb = y.subspan(k, len);
      const int emax = BlockEmax(ab, bb, r.d, fa, fb, cd, p.e_zero);
      r.d = FusedBlock(ab, bb, r.d, fa, fb, cd, p);
      if (Decode(cd, r.d).kind != Decoded::Kind::kFinite) {
        r.finite = false;
        return;
      }
      r.bound.Add(false, len + 1, emax - p.F);        // truncation of each term
      r.bound.Add(false, 1, UlpExp(cd, r.d, p.rho));  // the block's one rounding
      if (x.empty()) break;
    }
  };
  BoundedResult r{c, true, Exact()};
  if (!p.fp8_via_f16) {
    chain(a.first(n), b.first(n), c, r);
    return r;
  }
  // Two groups from +0 (DotParams::fp8_via_f16; fp8 values are exact in f16, so the bound holds
  // over the fp8 operands), then C added once, rounded to nearest: at most one more ulp.
  std::vector<uint64_t> x, y;
  for (std::size_t group = 0; group < 2; ++group) {
    for (std::size_t k = 0; k < n; ++k) {
      if ((k / 2) % 2 == group) x.push_back(a[k]), y.push_back(b[k]);
    }
  }
  const std::size_t first = (n / 4) * 2 + std::min<std::size_t>(n % 4, 2);
  const Span<const uint64_t> sx(x), sy(y);
  chain(sx.first(first), sy.first(first), 0u, r);
  if (r.finite && n > first) {
    BoundedResult second{r.d, true, r.bound};
    chain(sx.subspan(first), sy.subspan(first), r.d, second);
    r = second;
  }
  if (!r.finite) return r;
  r.d = AddRoundedToNearest(cd, r.d, c);
  if (Decode(cd, r.d).kind != Decoded::Kind::kFinite) {
    r.finite = false;
    return r;
  }
  r.bound.Add(false, 1, UlpExp(cd, r.d, Rounding::kRzF32));  // a whole ulp of cd
  return r;
}

}  // namespace tcfuzz::oracle::num
