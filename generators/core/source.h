// The choice interface every generator draws from.
//
// One generator definition serves three engines: a seeded PRNG (campaigns), RapidCheck (property
// tests, so failures shrink) and libFuzzer bytes (so coverage-guided fuzzing explores the same
// space). A generator only ever asks "a number below n"; the convention that 0 is the simplest
// answer makes RapidCheck's shrink-toward-0 and an exhausted fuzzer input both land on the
// simplest case. Generators must not read time, addresses or device state.
#pragma once

#include <cstdint>
#include <iterator>

namespace tcfuzz::gen {

class Source {
 public:
  virtual ~Source() = default;

  // A value in [0, n); n >= 1 (n == 0 is treated as 1). 0 is the simplest choice.
  virtual uint64_t Below(uint64_t n) = 0;

  // `width` (0..64) uniformly random bits.
  uint64_t Bits(int width) {
    if (width <= 0) return 0;
    if (width <= 32) return Below(uint64_t{1} << width);
    const uint64_t lo = Below(uint64_t{1} << 32);
    return lo | (Bits(width - 32) << 32);
  }
  // A value in [lo, hi] (inclusive); lo when hi < lo.
  uint64_t InRange(uint64_t lo, uint64_t hi) { return hi < lo ? lo : lo + Below(hi - lo + 1); }
  bool Coin() { return Below(2) == 1; }
  // One element of a non-empty table (a Span, std::span, std::array, std::vector); earlier
  // elements are the simpler ones.
  template <class Table>
  const auto& Pick(const Table& table) {
    return table[Below(std::size(table))];
  }
};

}  // namespace tcfuzz::gen
