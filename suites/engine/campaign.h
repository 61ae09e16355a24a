// The campaign runner behind `tcfuzz run`: drives host suites over a deterministic case space,
// shows progress, and writes a JSON summary, JUnit XML and one reproducer per failing case.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace tcfuzz::suites {

struct CampaignOptions {
  std::vector<std::string> suites;  // names; empty: every host suite
  uint64_t seed = 0;
  std::optional<uint64_t> cases;  // per suite: indices [0, cases)
  std::optional<double> seconds;  // per suite time budget (cases then form a prefix)
                                  // neither: each suite's default_cases()
  uint64_t shard_index = 0;       // this shard runs indices i with i % shard_count == shard_index
  uint64_t shard_count = 1;
  std::string report_dir = "report";
  bool progress = false;     // live progress line (on a terminal)
  std::string command_line;  // recorded in the summary
  std::size_t max_reproducers = 100;
  // GPU suites (suites/engine/device_campaign.h): "auto" runs them when a device answers the
  // probe and reports them skipped otherwise, "require" fails the run without one, "off" skips.
  std::string gpu = "auto";
  std::vector<std::string> worker;        // argv prefix of `tcfuzz` itself; empty: no GPU suites
  std::vector<std::string> worker_extra;  // appended to every worker (test-only fault plants)
  uint64_t device_batch = 0;              // cases per worker; 0: the suite's own (device_suite.h)
  int device_watchdog_ms = 20000;         // per worker, plus an allowance per case
  uint64_t device_cases_per_launch = 0;   // 0: the worker's default (65,536); 1: the baseline mode
};

class HostSuite;

// The live progress line on stderr ("[suite] N cases, F failed, R cases/s, T s").
void PrintProgress(const std::string& suite, uint64_t cases, uint64_t failed, double seconds,
                   bool final_line);

// Runs the campaign over every host suite; returns the process exit code (0 clean,
// 1 failures, 2 setup error).
int RunCampaign(const CampaignOptions& options, std::ostream& log);
// The same over the given suites (tests use it to plant failing suites).
int RunCampaign(const CampaignOptions& options, std::vector<std::unique_ptr<HostSuite>> suites,
                std::ostream& log);

}  // namespace tcfuzz::suites
