// What a campaign found, and its two report formats.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace tcfuzz::suites {

struct FailureRecord {
  std::string case_name;  // "<family>#<index>"
  std::string family;
  uint64_t index = 0;
  uint64_t case_seed = 0;
  std::string check;
  std::string message;
  std::string reproducer_path;  // empty when the reproducer cap was reached
};

struct FamilyStats {
  uint64_t cases = 0;
  uint64_t failed = 0;
};

struct SuiteReport {
  std::string suite;
  uint64_t cases = 0;
  uint64_t failed = 0;
  double seconds = 0;
  std::map<std::string, FamilyStats> families;
  std::map<std::string, uint64_t> coverage;  // tag -> cases
  std::vector<FailureRecord> failures;
  // Mismatches whose expectation rests on a reading no hardware has shown on this device
  // (CaseOutcome::kModelUnconfirmed): reported apart, never failures.
  std::vector<FailureRecord> unconfirmed;
  std::string skipped;  // why the suite did not run at all (no GPU), shown in both reports
  // GPU suites: seconds in worker processes per phase (draw, jit, device, judge, "failed workers"
  // for those that faulted or were killed, and "other": process start, CUDA initialisation, the
  // protocol), summed over workers.
  std::map<std::string, double> worker_phases;
};

struct CampaignReport {
  std::string tool;
  std::string command_line;
  uint64_t seed = 0;
  uint64_t shard_index = 0;
  uint64_t shard_count = 1;
  std::vector<SuiteReport> suites;
};

std::string SummaryJson(const CampaignReport& report);
std::string JUnitXml(const CampaignReport& report);

}  // namespace tcfuzz::suites
