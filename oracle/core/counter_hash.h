// The counter-based hashes every drawn case starts from. constexpr and free of library calls so
// that device code (nvcc --expt-relaxed-constexpr) computes exactly what the host computes: a
// case drawn on the GPU from (seed, index) is the case the host rebuilds for its reproducer.
#pragma once

#include <cstdint>

namespace tcfuzz::oracle {

inline constexpr uint64_t kGoldenGamma = 0x9e3779b97f4a7c15ull;  // SplitMix64's increment

// SplitMix64's output function (Steele, Lea, Flood 2014).
constexpr uint64_t Mix64(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

// FNV-1a of a suite name: part of every case seed, so suites never share cases.
constexpr uint64_t NameHash(const char* name, uint64_t length) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (uint64_t i = 0; i < length; ++i)
    h = (h ^ static_cast<unsigned char>(name[i])) * 0x100000001b3ull;
  return h;
}

// A case seed in two halves: the key of (base seed, suite), computed once, then case `index`
// under it (what a kernel computes per case).
constexpr uint64_t SuiteKey(uint64_t base_seed, uint64_t name_hash) {
  return (base_seed ^ name_hash) + kGoldenGamma;
}
constexpr uint64_t CaseSeedFromKey(uint64_t key, uint64_t index) {
  return Mix64((key ^ (index * 0xd1b54a32d192ed03ull)) + kGoldenGamma);
}

// 32 independent-looking bits for draw number `stream` of a case.
constexpr uint32_t CounterDraw(uint64_t case_seed, uint32_t stream) {
  return static_cast<uint32_t>(Mix64(case_seed ^ (static_cast<uint64_t>(stream) * kGoldenGamma)) >>
                               32);
}

}  // namespace tcfuzz::oracle
