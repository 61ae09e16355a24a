// The main of every test binary: picks the seed (TCFUZZ_SEED, or a seed in RC_PARAMS, or a
// fresh random one), prints it, pins RapidCheck to it, and records it in the gtest XML.
// Rerun any failure with the printed TCFUZZ_SEED.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>

#include "suites/tests/support/test_seed.h"

namespace tcfuzz::test {
namespace {

uint64_t g_seed = 0;

uint64_t PickSeed() {
  if (const char* s = std::getenv("TCFUZZ_SEED")) return std::strtoull(s, nullptr, 0);
  if (const char* rc = std::getenv("RC_PARAMS")) {
    const std::string params(rc);
    const std::size_t at = params.find("seed=");
    if (at != std::string::npos) return std::strtoull(params.c_str() + at + 5, nullptr, 10);
  }
  std::random_device rd;
  return ((uint64_t{rd()} << 32) | rd()) >> 1;  // RapidCheck parses the seed as signed
}

class SeedEnvironment : public ::testing::Environment {
 public:
  void SetUp() override { ::testing::Test::RecordProperty("tcfuzz_seed", std::to_string(g_seed)); }
};

}  // namespace

uint64_t Seed() { return g_seed; }

}  // namespace tcfuzz::test

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  using tcfuzz::test::g_seed;
  g_seed = tcfuzz::test::PickSeed();
  std::string params = std::getenv("RC_PARAMS") ? std::getenv("RC_PARAMS") : "";
  if (params.find("seed=") == std::string::npos) {
    params += (params.empty() ? "" : " ") + std::string("seed=") + std::to_string(g_seed);
    ::setenv("RC_PARAMS", params.c_str(), 1);
  }
  std::printf("tcfuzz test seed: %llu (rerun with TCFUZZ_SEED=%llu)\n",
              static_cast<unsigned long long>(g_seed), static_cast<unsigned long long>(g_seed));
  ::testing::AddGlobalTestEnvironment(new tcfuzz::test::SeedEnvironment);
  return RUN_ALL_TESTS();
}
