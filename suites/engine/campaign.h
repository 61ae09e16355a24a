// The campaign runner behind `tcfuzz run`: drives host suites over a deterministic case space,
// shows progress, and writes a JSON summary, JUnit XML and one reproducer per failing case (the
// first of each suite), as one consistent report folder (suites/engine/report_folder.h).
// SIGINT/SIGTERM stop it at the next batch of cases with a report marked interrupted, which
// `tcfuzz run --resume DIR` finishes; `tcfuzz merge` adds shard reports into one.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "suites/engine/report.h"

namespace tcfuzz::suites {

// The run's settings (seed, cases, shard, baseline: RunSettings in report.h) and what a report
// does not record.
struct CampaignOptions : RunSettings {
  std::vector<std::string> suites;  // names; empty: every host suite
  std::string report_dir = "report";
  bool progress = false;      // live progress line (on a terminal)
  double progress_every = 0;  // > 0 and no live line: a plain progress line this often (s)
  std::string command_line;   // recorded in the summary
  int reruns = 2;             // GPU suites: a failing case runs again this often (batch_engine.h)
  std::vector<std::string> worker;        // argv prefix of `tcfuzz` itself; empty: no GPU suites
  std::vector<std::string> worker_extra;  // appended to every worker (test-only fault plants)
  uint64_t device_batch = 0;              // cases per worker; 0: the suite's own (device_suite.h)
  int device_watchdog_ms = 20000;         // per worker, plus an allowance per case
  uint64_t device_cases_per_launch = 0;   // 0: the worker's default (65,536); 1: the baseline mode
  unsigned host_threads = 0;  // host suites: cases at once (0: every core); the report is the same
  // Set by the run for each suite under a whole-run budget (run_seconds): when the run ends, so
  // the progress line's ETA is the run's, not the suite's.
  std::optional<std::chrono::steady_clock::time_point> run_deadline;
};

class HostSuite;
class RunExpectations;
struct RunPlace;

// The progress line on stderr: "[suite] done/total cases (p%), F failed, R cases/s, ETA T s".
// `total` 0: unknown (a time budget, whose end gives the ETA instead). On a terminal it
// rewrites itself (`live`); otherwise it is a plain line.
struct ProgressState {
  std::string suite;
  uint64_t done = 0, total = 0, failed = 0;
  double seconds = 0;
  std::optional<double> budget;    // the suite's time budget
  std::optional<double> run_left;  // seconds to the whole run's end (--time)
};
void PrintProgress(const ProgressState& p, bool live, bool final_line);

// One suite's progress: a live line on a terminal (options.progress), a plain line every
// options.progress_every seconds otherwise.
class SuiteProgress {
 public:
  SuiteProgress(const CampaignOptions& o, std::string suite, uint64_t total);
  void Update(uint64_t done, uint64_t failed);
  void Final(uint64_t done, uint64_t failed);  // the live line's last state

 private:
  const CampaignOptions& o_;
  std::chrono::steady_clock::time_point t0_, last_;
  ProgressState state_;
};

// How many indices of [first, cases) the options' shard runs.
uint64_t ShardShare(uint64_t first, uint64_t cases, const CampaignOptions& o);

// Runs the campaign over every host suite; returns the process exit code (0 clean,
// 1 failures, 2 setup error, 128 + the signal when interrupted).
int RunCampaign(const CampaignOptions& options, std::ostream& log);
// The same over the given suites (tests use it to plant failing suites).
int RunCampaign(const CampaignOptions& options, std::vector<std::unique_ptr<HostSuite>> suites,
                std::ostream& log);
// `tcfuzz run --resume DIR`: the interrupted run of DIR's summary.json, finished with the
// report an uninterrupted run would have written. `base` gives what the report does not record
// (worker, progress, watchdog).
int ResumeCampaign(const std::string& dir, const CampaignOptions& base, std::ostream& log);
int ResumeCampaign(const std::string& dir, const CampaignOptions& base,
                   std::vector<std::unique_ptr<HostSuite>> suites, std::ostream& log);

}  // namespace tcfuzz::suites
