// The three choice sources: determinism, range, and the "0 is simplest" convention.
#include <gtest/gtest.h>

#include <set>

#include "generators/core/bytes_source.h"
#include "generators/core/random_source.h"
#include "oracle/core/counter_hash.h"
#include "suites/tests/support/test_seed.h"

namespace tcfuzz::gen {
namespace {

TEST(RandomSource, SameSeedSameChoices) {
  RandomSource a(test::Seed()), b(test::Seed());
  for (int i = 0; i < 1000; ++i) ASSERT_EQ(a.Below(1000003), b.Below(1000003));
}

TEST(RandomSource, KnownSequenceForSeedZero) {
  // splitmix64 from state 0 yields 0xe220a8397b1dcdaf as its first output (a published
  // reference value of the algorithm); xoshiro256** is seeded with it.
  uint64_t state = 0;
  EXPECT_EQ(SplitMix64(state), 0xe220a8397b1dcdafull);
}

TEST(RandomSource, BelowStaysInRangeAndReachesEveryValue) {
  RandomSource s(test::Seed());
  std::set<uint64_t> seen;
  for (int i = 0; i < 2000; ++i) {
    const uint64_t v = s.Below(7);
    ASSERT_LT(v, 7u);
    seen.insert(v);
  }
  EXPECT_EQ(seen.size(), 7u);
  EXPECT_EQ(s.Below(1), 0u);
  EXPECT_EQ(s.Below(0), 0u);
  EXPECT_LE(s.InRange(5, 9), 9u);
  EXPECT_GE(s.InRange(5, 9), 5u);
  EXPECT_EQ(s.InRange(9, 5), 9u);
}

TEST(RandomSource, BitsCoverTheHighBits) {
  RandomSource s(test::Seed());
  uint64_t any = 0;
  for (int i = 0; i < 64; ++i) any |= s.Bits(64);
  EXPECT_NE(any >> 48, 0u);
  EXPECT_EQ(s.Bits(5) >> 5, 0u);
}

TEST(CaseSeed, DependsOnSuiteIndexAndBaseSeedOnly) {
  EXPECT_EQ(CaseSeed(1, "a", 7), CaseSeed(1, "a", 7));
  std::set<uint64_t> seeds;
  for (uint64_t i = 0; i < 1000; ++i) seeds.insert(CaseSeed(42, "zero-column-mask", i));
  EXPECT_EQ(seeds.size(), 1000u);
  EXPECT_NE(CaseSeed(42, "a", 0), CaseSeed(42, "b", 0));
  EXPECT_NE(CaseSeed(42, "a", 0), CaseSeed(43, "a", 0));
}

// SplitMix64 against its published first output for state 0, and CaseSeed (which kernels now
// compute in two halves, SuiteKey then CaseSeedFromKey) against its definition step by step:
// FNV-1a of the suite name, one SplitMix64 step of (base ^ hash), the index folded in, one more.
TEST(CaseSeed, IsTheDocumentedSplitMixChain) {
  uint64_t state = 0;
  EXPECT_EQ(SplitMix64(state), 0xe220a8397b1dcdafull);
  for (const uint64_t base : {uint64_t{0}, uint64_t{20261125}, ~uint64_t{0}}) {
    for (const uint64_t index : {uint64_t{0}, uint64_t{1}, uint64_t{65537}, uint64_t{1} << 40}) {
      uint64_t h = 0xcbf29ce484222325ull;
      for (const char c : std::string_view("sparse-mma-exact"))
        h = (h ^ static_cast<unsigned char>(c)) * 0x100000001b3ull;
      uint64_t st = base ^ h;
      SplitMix64(st);
      st ^= index * 0xd1b54a32d192ed03ull;
      const uint64_t want = SplitMix64(st);
      EXPECT_EQ(CaseSeed(base, "sparse-mma-exact", index), want) << base << " " << index;
      EXPECT_EQ(oracle::CaseSeedFromKey(SuiteKey(base, "sparse-mma-exact"), index), want);
    }
  }
}

TEST(BytesSource, ExhaustedInputAnswersZero) {
  BytesSource s({});
  EXPECT_EQ(s.Below(100), 0u);
  EXPECT_EQ(s.Bits(64), 0u);
}

TEST(BytesSource, TakesJustEnoughBytesPerChoice) {
  const uint8_t bytes[] = {5, 0x34, 0x12, 0xff};
  BytesSource s(bytes);
  EXPECT_EQ(s.Below(256), 5u);         // one byte
  EXPECT_EQ(s.Below(65536), 0x1234u);  // two bytes, little-endian
  EXPECT_EQ(s.Below(10), 0xffu % 10);  // one byte, reduced
  EXPECT_EQ(s.remaining(), 0u);
  EXPECT_EQ(s.Below(2), 0u);
}

}  // namespace
}  // namespace tcfuzz::gen
