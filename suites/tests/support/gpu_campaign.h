// One GPU suite through the engine and the real `tcfuzz worker` (TCFUZZ_BIN), as
// `tcfuzz run --gpu require` runs it, for gpu_tests: its summary.json entry, exit status and log.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "suites/engine/atomic_file.h"
#include "suites/engine/device_campaign.h"
#include "suites/tests/support/temp_dir.h"

namespace tcfuzz::test {

struct GpuCampaign {
  suites::CampaignOptions options;
  int rc = 0;
  nlohmann::json suite;  // summary.json's entry of the suite
  std::string log;
};

inline GpuCampaign RunGpuCampaign(const std::string& suite, uint64_t seed, uint64_t cases,
                                  int shard_index = 0, int shard_count = 1) {
  GpuCampaign c;
  suites::CampaignOptions& o = c.options;
  o.suites = {suite};
  o.seed = seed;
  o.cases = cases;
  o.shard_index = shard_index, o.shard_count = shard_count;
  o.report_dir = TempDir("gpu_" + suite);
  o.gpu = "require";
  o.worker = {TCFUZZ_BIN};
  std::ostringstream log;
  c.rc = suites::RunCampaign(o, log);
  c.log = log.str();
  const auto summary = suites::ReadFile(o.report_dir + "/summary.json");
  if (summary.ok()) c.suite = nlohmann::json::parse(summary.value())["suites"][0];
  return c;
}

// Exit 0, `cases` run, none failing.
inline void ExpectClean(const GpuCampaign& c, uint64_t cases) {
  ASSERT_TRUE(c.suite.is_object()) << "no summary.json: " << c.log;
  EXPECT_EQ(c.suite["cases"], cases) << c.log;
  EXPECT_EQ(c.suite["failed"], 0) << c.log;
  EXPECT_EQ(c.rc, 0) << c.log;
}

}  // namespace tcfuzz::test
