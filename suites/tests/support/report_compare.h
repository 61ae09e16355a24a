// Comparing two reports of the same cases (a merged or resumed run against the run it should
// equal): summary.json without what legitimately differs (times, the command, how it was
// sharded and seeded, when it started and how long it took), as a JSON patch that is "[]" when they
// agree.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "suites/engine/atomic_file.h"

namespace tcfuzz::test {

inline nlohmann::json ComparableSummary(const std::string& dir) {
  auto j = nlohmann::json::parse(suites::ReadFile(dir + "/summary.json").value());
  for (const char* key : {"command", "shard", "shard_source", "merged_shards", "seed_source"})
    j.erase(key);
  for (const char* key : {"started", "seconds"}) j["provenance"].erase(key);
  for (auto& s : j["suites"]) {
    for (const char* key : {"seconds", "cases_per_second", "worker_seconds_by_phase"}) s.erase(key);
  }
  return j;
}

// "[]" when the two folders' summaries agree; else the patch from a to b (its start).
inline std::string SummaryDiff(const std::string& a, const std::string& b) {
  return nlohmann::json::diff(ComparableSummary(a), ComparableSummary(b)).dump().substr(0, 2000);
}

}  // namespace tcfuzz::test
