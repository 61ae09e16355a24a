// The engine on a real device, through the real `tcfuzz worker`: a planted illegal-address
// kernel and a planted hang are each isolated to their own case index, reported with their
// class, and the campaign finishes every other case. Skips visibly without a GPU.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "suites/engine/atomic_file.h"
#include "suites/engine/device_campaign.h"
#include "suites/tests/support/temp_dir.h"

namespace tcfuzz::suites {
namespace {

void PlantedFaultAndHangAreIsolated(const char* suite) {
  const DeviceProbe device = ProbeInWorker({TCFUZZ_BIN});
  if (!device.available) GTEST_SKIP() << "no GPU: " << device.reason;
  CampaignOptions o;
  o.suites = {suite};
  o.seed = 20261122;
  o.cases = 4000;
  o.report_dir = test::TempDir(std::string("device_engine_") + suite);
  o.gpu = "require";
  o.worker = {TCFUZZ_BIN};
  o.worker_extra = {"--plant-fault", "1234", "--plant-hang", "3001"};
  o.device_batch = 1000;
  o.device_watchdog_ms = 8000;  // context start and JIT take about a second
  std::ostringstream log;
  RunCampaign(o, log);
  const auto j = nlohmann::json::parse(ReadFile(o.report_dir + "/summary.json").value());
  const auto& s = j["suites"][0];
  EXPECT_EQ(s["cases"], 4000) << log.str();
  EXPECT_EQ(s["outcomes"]["device_fault"], 1) << log.str();
  EXPECT_EQ(s["outcomes"]["timeout"], 1) << log.str();
  EXPECT_FALSE(s["outcomes"].contains("mismatch")) << log.str();
  EXPECT_FALSE(s["outcomes"].contains("harness_error")) << log.str();
  std::map<uint64_t, std::string> failing;
  for (const auto& f : s["failures"])
    failing[f["index"].get<uint64_t>()] = f["check"].get<std::string>();
  ASSERT_EQ(failing.size(), 2u) << log.str();
  EXPECT_EQ(failing[1234], "device_fault");
  EXPECT_EQ(failing[3001], "timeout");
  for (const auto& f : s["failures"]) {
    if (f["index"] == 1234) {
      EXPECT_NE(f["message"].get<std::string>().find("ILLEGAL_ADDRESS"), std::string::npos) << f;
    }
  }
  // Every other case ran: passes plus cases the device cannot run.
  const uint64_t pass = s["outcomes"].value("pass", uint64_t{0});
  const uint64_t unsupported = s["outcomes"].value("not_supported", uint64_t{0});
  EXPECT_EQ(pass + unsupported, 3998u);
  EXPECT_GT(pass, 3000u);
}

TEST(DeviceEngine, PlantedFaultAndHangAreIsolated) {
  PlantedFaultAndHangAreIsolated(kSparseMmaDeviceSuite);
}

// The device-drawn suite's worker takes its range as a progression, never as a list: the same
// isolation holds.
TEST(DeviceEngine, PlantedFaultAndHangAreIsolatedInTheDeviceDrawnSuite) {
  PlantedFaultAndHangAreIsolated(kSparseMmaExactSuite);
}

}  // namespace
}  // namespace tcfuzz::suites
