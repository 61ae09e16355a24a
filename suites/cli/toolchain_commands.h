// `tcfuzz toolchain scan` and its internal `toolchain worker` (suites/toolchain/toolchain_scan.h).
#pragma once

#include <CLI/CLI.hpp>

#include "suites/toolchain/toolchain_scan.h"

namespace tcfuzz::suites {

struct ToolchainCli {
  CLI::App* scan = nullptr;
  CLI::App* worker = nullptr;
  ScanOptions options;
  std::string targets;  // comma-separated, or "all"
  bool json = false;
  std::string out;  // write the output here (atomically) instead of stdout
  bool no_expectations = false;
  size_t first = 0, count = 0;
  bool lines = false;  // worker: item indices on stdin (a campaign's toolchain suite)
  int item_timeout_ms = 30000;
};

// Exit code of a scan whose assembler is missing (ctest counts it as a skip): 0 clean, 1 an
// unexpected verdict or stale expectation, 2 bad input.
inline constexpr int kExitNoAssembler = 3;

void AddToolchainCommands(CLI::App& app, ToolchainCli& t);
// Runs whichever of the two was given; -1 when neither.
int RunToolchainCommand(ToolchainCli& t);

}  // namespace tcfuzz::suites
