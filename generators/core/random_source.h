// A Source backed by a seeded PRNG (xoshiro256** seeded through splitmix64). The mapping from
// seed to choices is ours, not the standard library's, so a seed means the same case with any
// compiler and standard library.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

#include "generators/core/source.h"

namespace tcfuzz::gen {

class RandomSource final : public Source {
 public:
  explicit RandomSource(uint64_t seed);
  uint64_t Below(uint64_t n) override;
  uint64_t Next();  // 64 raw bits

 private:
  std::array<uint64_t, 4> s_{};
};

uint64_t SplitMix64(uint64_t& state);

// The seed of case `index` of `suite` under a campaign's base seed: independent of shard,
// order and filter, so any case can be regenerated from (base seed, suite, index).
// (oracle/core/counter_hash.h: CaseSeedFromKey(SuiteKey(base seed, suite), index), the split a
// kernel that draws its own cases uses.)
uint64_t CaseSeed(uint64_t base_seed, std::string_view suite, uint64_t index);
uint64_t SuiteKey(uint64_t base_seed, std::string_view suite);

}  // namespace tcfuzz::gen
