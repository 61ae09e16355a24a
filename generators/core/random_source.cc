#include "generators/core/random_source.h"

#include "oracle/core/counter_hash.h"

namespace tcfuzz::gen {
namespace {

constexpr uint64_t Rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

}  // namespace

uint64_t SplitMix64(uint64_t& state) { return oracle::Mix64(state += oracle::kGoldenGamma); }

RandomSource::RandomSource(uint64_t seed) {
  for (uint64_t& word : s_) word = SplitMix64(seed);
}

uint64_t RandomSource::Next() {
  const uint64_t result = Rotl(s_[1] * 5, 7) * 9;
  const uint64_t t = s_[1] << 17;
  s_[2] ^= s_[0];
  s_[3] ^= s_[1];
  s_[1] ^= s_[2];
  s_[0] ^= s_[3];
  s_[2] ^= t;
  s_[3] = Rotl(s_[3], 45);
  return result;
}

uint64_t RandomSource::Below(uint64_t n) {
  if (n <= 1) return 0;
  if ((n & (n - 1)) == 0) {  // a power of two (Bits, Coin): the same draws without dividing
    uint64_t x;
    do {
      x = Next();
    } while (x >= 0 - n);  // the general limit below, for n a power of two
    return x & (n - 1);
  }
  // Rejection sampling: unbiased for every n.
  const uint64_t limit = ~uint64_t{0} - (~uint64_t{0} % n);
  uint64_t x;
  do {
    x = Next();
  } while (x >= limit);
  return x % n;
}

uint64_t SuiteKey(uint64_t base_seed, std::string_view suite) {
  return oracle::SuiteKey(base_seed, oracle::NameHash(suite.data(), suite.size()));
}

uint64_t CaseSeed(uint64_t base_seed, std::string_view suite, uint64_t index) {
  return oracle::CaseSeedFromKey(SuiteKey(base_seed, suite), index);
}

}  // namespace tcfuzz::gen
