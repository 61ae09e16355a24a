// What the device-judged suites' GPU tests share: the suite run through the engine on shard 1/4
// of `cases` (a stride that shares factors with the sample rate) with every case passing.
// For gpu_tests (TCFUZZ_BIN is the tcfuzz binary the workers run).
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "suites/engine/atomic_file.h"
#include "suites/engine/device_campaign.h"
#include "suites/tests/support/temp_dir.h"
#include "suites/tests/support/test_seed.h"

namespace tcfuzz::test {

inline void ExpectJudgedCampaignClean(const char* suite, uint64_t cases) {
  suites::CampaignOptions o;
  o.suites = {suite};
  o.seed = Seed();
  o.cases = cases;
  o.shard_index = 1, o.shard_count = 4;
  o.report_dir = TempDir(suite);
  o.gpu = "require";
  o.worker = {TCFUZZ_BIN};
  std::ostringstream log;
  const int rc = suites::RunCampaign(o, log);
  const auto j = nlohmann::json::parse(suites::ReadFile(o.report_dir + "/summary.json").value());
  const auto& s = j["suites"][0];
  EXPECT_EQ(s["cases"], cases / 4) << log.str();
  EXPECT_EQ(s["failed"], 0) << log.str();
  EXPECT_EQ(rc, 0) << log.str();
  std::printf("%s", log.str().c_str());
}

}  // namespace tcfuzz::test
