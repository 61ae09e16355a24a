// The smem-hw and tcgen05 GPU suites end to end on a device, through the real `tcfuzz worker`:
// every legal descriptor tile agrees with the oracle, and the broken ones come back as
// undefined_by_spec records, each with the device's D. Skips visibly without an sm_90 (smem-hw)
// or compute capability 10.x (tcgen05) device.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "suites/campaigns/device_campaign.h"
#include "suites/campaigns/wgmma_device_cases.h"
#include "suites/runner/atomic_file.h"
#include "suites/support/temp_dir.h"

namespace tcfuzz::suites {
namespace {

void RunsClean(const char* suite, bool (*fits)(const DeviceProbe&), const char* needs) {
  const DeviceProbe device = ProbeInWorker({TCFUZZ_BIN});
  if (!device.available) GTEST_SKIP() << "no GPU: " << device.reason;
  if (!fits(device)) GTEST_SKIP() << suite << " needs " << needs << "; this is " << device.name;
  CampaignOptions o;
  o.suites = {suite};
  o.seed = 20261122;
  o.cases = 3000;
  o.report_dir = test::TempDir(std::string("hw_") + suite);
  o.gpu = "require";
  o.worker = {TCFUZZ_BIN};
  std::ostringstream log;
  const int rc = RunCampaign(o, log);
  const auto j = nlohmann::json::parse(ReadFile(o.report_dir + "/summary.json").value());
  const auto& s = j["suites"][0];
  EXPECT_EQ(s["cases"], 3000) << log.str();
  EXPECT_EQ(s["failed"], 0) << log.str();
  EXPECT_EQ(rc, 0) << log.str();
  uint64_t broken = 0;
  for (uint64_t i = 0; i < 3000; ++i) {
    broken += (std::string(suite) == kSmemHwSuite ? DrawSmemHwCase(o.seed, i) : DrawTcgen05Case(o.seed, i)).broken != nullptr;
  }
  EXPECT_EQ(s["families"]["undefined_by_spec"]["cases"], broken) << log.str();
}

TEST(SmemHwCampaign, WgmmaDescriptorTilesRunCleanOnSm90) {
  RunsClean(kSmemHwSuite, [](const DeviceProbe& d) { return d.cc_major == 9 && d.cc_minor == 0; }, "sm_90a");
}

TEST(SmemHwCampaign, Tcgen05DescriptorTilesRunCleanOnBlackwell) {
  RunsClean(kTcgen05Suite, [](const DeviceProbe& d) { return d.cc_major == 10; }, "compute capability 10.x");
}

}  // namespace
}  // namespace tcfuzz::suites
