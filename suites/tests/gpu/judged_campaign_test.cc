// Every device-judged suite of the registry (a DeviceSuite row with a support predicate) through
// the engine on shard 1/4, a stride that shares factors with the sample rate: every case passes
// and the shard holds a quarter of them. The list is the registry's, so a new judged suite runs
// here without an edit.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "harness/backend.h"
#include "suites/engine/device_suite.h"
#include "suites/tests/support/gpu_campaign.h"
#include "suites/tests/support/judged_hw.h"
#include "suites/tests/support/test_seed.h"

namespace tcfuzz::suites {
namespace {

std::vector<std::string> JudgedSuites() {
  std::vector<std::string> names;
  for (const DeviceSuite& s : DeviceSuites()) {
    if (s.unsupported != nullptr) names.emplace_back(s.name);
  }
  return names;
}

class JudgedCampaign : public testing::TestWithParam<std::string> {};

TEST_P(JudgedCampaign, RunsCleanThroughTheEngine) {
  const std::string& suite = GetParam();
  TCFUZZ_SKIP_UNLESS_SUITE_RUNS(suite);
  // About a second of device time each: a warp-per-case suite takes nanoseconds a case, a tile
  // suite (a warpgroup or a CTA a case) about a hundred times more. On a host backend (ctest's
  // emulated run) a warp takes about 30 us and a tile 2 ms of one core: a few seconds each.
  const bool tiles = FindDeviceSuite(suite)->watchdog_per_case > std::chrono::microseconds(2);
  const bool host = !harness::BackendIsCuda();
  const uint64_t cases =
      tiles ? (host ? 2048 : uint64_t{1} << 20) : (host ? uint64_t{1} << 16 : uint64_t{1} << 22);
  const test::GpuCampaign c = test::RunGpuCampaign(suite, test::Seed(), cases, 1, 4);
  test::ExpectClean(c, cases / 4);
  std::printf("%s", c.log.c_str());
}

INSTANTIATE_TEST_SUITE_P(Registry, JudgedCampaign, testing::ValuesIn(JudgedSuites()),
                         [](const testing::TestParamInfo<std::string>& p) {
                           std::string name = p.param;
                           for (char& c : name) c = c == '-' ? '_' : c;
                           return name;
                         });

}  // namespace
}  // namespace tcfuzz::suites
