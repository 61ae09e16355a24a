#include "suites/discover/numerics_probes.h"

#include <algorithm>
#include <map>
#include <mutex>
#include <tuple>
#include <unordered_map>

#include "generators/core/random_source.h"

namespace tcfuzz::suites::discover {
namespace {

using oracle::num::DotParams;
using oracle::num::Format;
using oracle::num::Instr;
using oracle::num::Rounding;
namespace num = oracle::num;

// Exponents of normal values of f, and its fraction bits (tf32 keeps 10 of its 23).
struct Range {
  int emin, emax, frac;
};
Range RangeOf(Format f) {
  switch (f) {
    case Format::kF16:
      return {-14, 15, 10};
    case Format::kBF16:
      return {-126, 127, 7};
    case Format::kTF32:
      return {-126, 127, 10};
    case Format::kE4M3:
      return {-6, 8, 3};
    case Format::kE5M2:
      return {-14, 15, 2};
    default:
      return {-126, 127, 23};  // f32
  }
}

// A finite value of f near 2^e (its exponent clamped to the format; subnormal below emin) with a
// random significand and sign.
uint64_t Value(gen::RandomSource& s, Format f, int e, bool neg) {
  const Range r = RangeOf(f);
  e = std::clamp(e, r.emin - r.frac, r.emax);
  const uint64_t m = (uint64_t{1} << r.frac) | s.Below(uint64_t{1} << r.frac);
  return num::EncodeExact(f, neg, m, e - r.frac, num::Round::kTowardZero);
}

uint64_t NegZero(Format f) { return uint64_t{1} << (num::StorageBits(f) - 1); }

// One structured probe; the families aim at one parameter each, the rest is random. No call
// takes two drawing arguments: their order is unspecified, and g++ and clang differ.
Probe Draw(gen::RandomSource& s, const NumericsQuestion& q) {
  const Range r = RangeOf(q.ab);
  const Range rc = RangeOf(q.cd);
  Probe p;
  p.a.assign(static_cast<std::size_t>(q.k), 0);
  p.b.assign(static_cast<std::size_t>(q.k), 0);
  const auto pos = [&] { return static_cast<std::size_t>(s.Below(static_cast<uint64_t>(q.k))); };
  const auto coin = [&] { return s.Below(2) == 1; };
  // Exponents of A and B whose product sits near 2^(2 * base - shift).
  const int lo = r.emin + 1, hi = std::min(r.emax - 1, rc.emax / 2 - 1);
  const int base = lo + static_cast<int>(s.Below(static_cast<uint64_t>(std::max(1, hi - lo))));
  const auto term = [&](std::size_t k, int shift) {
    const int ea = base - shift / 2, eb = base - (shift - shift / 2);
    p.a[k] = Value(s, q.ab, ea, coin());
    p.b[k] = Value(s, q.ab, eb, false);
  };
  switch (s.Below(7)) {
    case 0:  // terms many binades apart: the alignment width F and the block size L
      for (int t = 0, n = 1 + static_cast<int>(s.Below(5)); t < n; ++t) {
        const std::size_t k = pos();
        term(k, t == 0 ? 0 : static_cast<int>(s.Below(32)));
      }
      if (coin()) {
        const int e = 2 * base - static_cast<int>(s.Below(30));
        p.c = static_cast<uint32_t>(Value(s, q.cd, e, coin()));
      }
      break;
    case 1: {  // a cancelling pair and small terms: what survives the truncation
      const std::size_t i = pos(), j = pos();
      term(i, 0);
      p.a[j] = p.a[i] ^ NegZero(q.ab);
      p.b[j] = p.b[i];
      for (int t = 0, n = 1 + static_cast<int>(s.Below(3)); t < n; ++t) {
        const std::size_t k = pos();
        term(k, 4 + static_cast<int>(s.Below(28)));
      }
      if (i == j) p.a[j] = p.a[i];
      break;
    }
    case 2: {  // a zero product beside a huge factor, real terms near e_zero: e_zero
      const std::size_t i = pos();
      p.a[i] = coin() ? NegZero(q.ab) : 0;
      p.b[i] = Value(s, q.ab, r.emax, coin());
      const int t = -132 - static_cast<int>(s.Below(30));  // product exponent near e_zero - F
      for (int n = 0, m = 1 + static_cast<int>(s.Below(3)); n < m; ++n) {
        const std::size_t j = pos();
        p.a[j] = Value(s, q.ab, t / 2, coin());
        p.b[j] = Value(s, q.ab, t - t / 2, false);
      }
      if (coin()) {
        const int e = t + static_cast<int>(s.Below(8));
        p.c = static_cast<uint32_t>(Value(s, q.cd, e, coin()));
      }
      break;
    }
    case 3:  // an exact zero of negative terms, or a negative sum below the smallest subnormal
      if (coin()) {
        for (std::size_t k = 0; k < p.a.size(); ++k) p.a[k] = NegZero(q.ab);
        p.c = coin() ? static_cast<uint32_t>(NegZero(q.cd)) : 0u;
      } else {
        const std::size_t i = pos();
        p.a[i] = Value(s, q.ab, r.emin - r.frac, true);
        p.b[i] = Value(s, q.ab, r.emin - r.frac + static_cast<int>(s.Below(4)), false);
        p.c = coin() ? static_cast<uint32_t>(NegZero(q.cd)) : 0u;
      }
      break;
    case 6: {  // one large term and many equal small ones near the alignment: L and F
      const int near = coin() ? 10 : 20;
      const int shift = near + static_cast<int>(s.Below(8));
      term(pos(), 0);
      const std::size_t small = pos();
      term(small, shift);
      for (int n = 0, m = 2 + static_cast<int>(s.Below(static_cast<uint64_t>(q.k))); n < m; ++n) {
        const std::size_t j = pos();
        if (p.a[j] != 0) continue;
        p.a[j] = p.a[small];
        p.b[j] = p.b[small];
      }
      if (coin()) p.c = static_cast<uint32_t>(Value(s, q.cd, 2 * base - shift, coin()));
      break;
    }
    case 4: {  // C below the alignment of a large product: C fused (truncated) or added last
      term(pos(), 0);
      const int e = 2 * base - 10 - static_cast<int>(s.Below(20));
      p.c = static_cast<uint32_t>(Value(s, q.cd, e, coin()));
      if (coin()) {
        const std::size_t k = pos();
        term(k, 1 + static_cast<int>(s.Below(12)));
      }
      break;
    }
    default:  // dense random values around one exponent
      for (std::size_t k = 0; k < p.a.size(); ++k) {
        if (s.Below(4) == 0) continue;
        term(k, static_cast<int>(s.Below(12)));
      }
      p.c = static_cast<uint32_t>(Value(s, q.cd, 2 * base + 2, coin()));
      break;
  }
  return p;
}

// Probes of exact powers of two in one block: a power of two, half an ulp of D below it (a tie),
// and one tail term `shift` binades down, positive and (f32 D, truncated) negative. Whether the
// tail shows tells F <= shift from F > shift: a ladder over every shift the table's F can take,
// with the tail in the first group of four (any L >= 4 fuses it) or at k = 4 (the second block
// of L = 4, and the same f16 MMA as k = 0 and 1 on the fp8-via-f16 path).
std::vector<Probe> TieLadder(const NumericsQuestion& q) {
  const Range r = RangeOf(q.ab), rc = RangeOf(q.cd);
  const int top = std::min(r.emax - 1, rc.emax / 2 - 1);
  const auto pow2 = [&](int e) {
    return num::EncodeExact(q.ab, false, 1, std::clamp(e, r.emin - r.frac, r.emax),
                            num::Round::kTowardZero);
  };
  std::vector<Probe> ladder;
  for (int shift = 10; shift <= 30; ++shift) {
    for (std::size_t tail : {std::size_t{2}, std::size_t{4}}) {
      for (bool neg : {false, true}) {
        if (neg && q.cd != Format::kF32) continue;  // below a tie that rounds down: never shows
        Probe p;
        p.a.assign(static_cast<std::size_t>(q.k), 0);
        p.b.assign(static_cast<std::size_t>(q.k), 0);
        const auto put = [&](std::size_t k, int sh, bool minus) {
          p.a[k] = pow2(top - sh / 2) | (minus ? NegZero(q.ab) : 0);
          p.b[k] = pow2(top - (sh - sh / 2));
        };
        put(0, 0, false);
        put(1, rc.frac + 1, false);
        put(tail, shift, neg);
        ladder.push_back(std::move(p));
      }
    }
  }
  return ladder;
}

std::string RoundingName(Rounding r) {
  return r == Rounding::kRzF32 ? "rz_f32" : r == Rounding::kRzE8M13 ? "rz_e8m13" : "rne_f16";
}

}  // namespace

std::string NumericsQuestion::Name() const {
  return std::string(num::Name(instr)) + " " + std::string(num::Name(ab)) + " -> " +
         std::string(num::Name(cd));
}

std::vector<NumericsQuestion> NumericsQuestions() {
  std::vector<NumericsQuestion> q;
  for (Instr i : {Instr::kMma, Instr::kWgmma}) {
    for (Format ab : {Format::kF16, Format::kBF16, Format::kTF32, Format::kE4M3, Format::kE5M2}) {
      // 32 bytes of K for wgmma; mma.sync m16n8k16 (f16/bf16), k8 (tf32), k32 (fp8).
      const int k = ab == Format::kTF32 ? 8 : IsFp8(ab) ? 32 : 16;
      q.push_back({i, ab, Format::kF32, k});
      if (ab == Format::kF16 || IsFp8(ab)) q.push_back({i, ab, Format::kF16, k});
    }
  }
  return q;
}

std::vector<CandidateRow> CandidateRows(const NumericsQuestion& q) {
  std::vector<CandidateRow> rows;
  const std::vector<Rounding> roundings =
      q.cd == Format::kF16 ? std::vector<Rounding>{Rounding::kRneF16}
                           : std::vector<Rounding>{Rounding::kRzF32, Rounding::kRzE8M13};
  for (int F : {12, 13, 14, 22, 23, 24, 25, 26}) {
    for (int L : {4, 8, 16, 32}) {
      if (L > q.k) continue;
      for (int e_zero : {-131, -132, -133}) {
        for (Rounding rho : roundings) {
          for (bool neg_zero : {true, false}) {
            for (bool via_f16 : {false, true}) {
              if (via_f16 && !IsFp8(q.ab)) continue;
              DotParams p{F, L, e_zero, rho, neg_zero};
              p.fp8_via_f16 = via_f16;
              std::string name = "F" + std::to_string(F) + " L" + std::to_string(L) + " e_zero " +
                                 std::to_string(e_zero) + " " + RoundingName(rho) +
                                 (neg_zero ? " -0:yes" : " -0:no") + (via_f16 ? " via-f16" : "");
              rows.push_back({std::move(name), p});
            }
          }
        }
      }
    }
  }
  return rows;
}

uint32_t ProbeD(const NumericsQuestion& q, const Probe& p, const DotParams& params) {
  return num::DotProduct(p.a, p.b, p.c, q.ab, q.ab, q.cd, params);
}

namespace {

std::vector<Probe> SelectProbes(const NumericsQuestion& q) {
  // The pool's seed names the question, so each question's probes are fixed for a tcfuzz version.
  uint64_t seed = 0x7CF0'D15C'0000'0000ull ^ (static_cast<uint64_t>(q.instr) << 16) ^
                  (static_cast<uint64_t>(q.ab) << 8) ^ static_cast<uint64_t>(q.cd);
  gen::RandomSource s(seed);
  const std::vector<CandidateRow> cands = CandidateRows(q);
  constexpr int kPool = 480, kMaxProbes = 64;
  std::vector<Probe> pool = TieLadder(q);
  while (static_cast<int>(pool.size()) < kPool) pool.push_back(Draw(s, q));
  std::vector<std::vector<uint32_t>> pred(pool.size());
  for (std::size_t i = 0; i < pool.size(); ++i) {
    for (const CandidateRow& c : cands) pred[i].push_back(ProbeD(q, pool[i], c.params));
  }
  // Classes of candidates no chosen probe tells apart; each step keeps the probe that splits the
  // most pairs, until none splits any.
  std::vector<uint32_t> cls(cands.size(), 0);
  std::vector<bool> taken(pool.size(), false);
  std::vector<Probe> chosen;
  while (static_cast<int>(chosen.size()) < kMaxProbes) {
    long best_gain = 0;
    int best = -1;
    for (std::size_t i = 0; i < pool.size(); ++i) {
      if (taken[i]) continue;
      std::unordered_map<uint64_t, long> groups, sizes;
      for (std::size_t c = 0; c < cands.size(); ++c) {
        ++groups[uint64_t{cls[c]} << 32 | pred[i][c]];
        ++sizes[cls[c]];
      }
      long gain = 0;  // pairs in one class before minus pairs in one class after
      for (const auto& [k, n] : sizes) gain += n * (n - 1) / 2;
      for (const auto& [k, n] : groups) gain -= n * (n - 1) / 2;
      if (gain > best_gain) best_gain = gain, best = static_cast<int>(i);
    }
    if (best < 0) break;
    taken[static_cast<std::size_t>(best)] = true;
    chosen.push_back(pool[static_cast<std::size_t>(best)]);
    std::unordered_map<uint64_t, uint32_t> renumber;
    for (std::size_t c = 0; c < cands.size(); ++c) {
      const uint64_t key = uint64_t{cls[c]} << 32 | pred[static_cast<std::size_t>(best)][c];
      cls[c] = renumber.emplace(key, static_cast<uint32_t>(renumber.size())).first->second;
    }
  }
  return chosen;
}

}  // namespace

std::vector<Probe> DecidingProbes(const NumericsQuestion& q) {
  // Selecting costs about a second a question: once per process.
  static std::mutex mu;
  static std::map<std::tuple<int, int, int, int>, std::vector<Probe>> done;
  const auto key = std::make_tuple(static_cast<int>(q.instr), static_cast<int>(q.ab),
                                   static_cast<int>(q.cd), q.k);
  std::lock_guard<std::mutex> lock(mu);
  auto it = done.find(key);
  if (it == done.end()) it = done.emplace(key, SelectProbes(q)).first;
  return it->second;
}

}  // namespace tcfuzz::suites::discover
