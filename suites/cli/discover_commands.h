// `tcfuzz discover --emit-cu DIR` (the discovery kit, suites/discover/discover_kit.h) and
// `tcfuzz oracle readings --ingest FILE` (its result file judged, suites/discover/ingest.h).
#pragma once

#include <CLI/CLI.hpp>
#include <string>

namespace tcfuzz::suites {

struct DiscoverCli {
  CLI::App* discover = nullptr;
  std::string emit_dir;
  std::string ingest;  // set by `oracle readings --ingest`
};

void AddDiscoverCommand(CLI::App& app, DiscoverCli& d);
// `oracle readings` takes --ingest FILE.
void AddIngestOption(CLI::App& readings, DiscoverCli& d);
// Runs whichever was given: exit code 0, 1 (ingest: a row contradicted), 2 (bad input); -1 when
// neither was.
int RunDiscoverCommand(const DiscoverCli& d);

}  // namespace tcfuzz::suites
