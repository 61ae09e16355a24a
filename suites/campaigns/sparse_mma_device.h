// The worker side of the sparse-mma GPU suite (`tcfuzz worker`): every mma.sp /
// mma.sp::ordered_metadata form the device runs, compared bit for bit with the oracle. The only
// campaign code that touches the GPU; suites/campaigns/device_campaign.h is the parent side and
// draws the same cases (DrawSparseMmaCase), so a reported case is rebuilt, not shipped.
#pragma once

#include <cstddef>
#include <cstdint>
#include <ostream>
#include <set>
#include <string>

namespace tcfuzz::suites {

struct WorkerArgs {
  std::string suite;
  uint64_t seed = 0, first = 0, count = 0;
  uint64_t shard_index = 0, shard_count = 1;
  std::set<uint64_t> plant_fault, plant_hang;  // test-only: planted kernels at these indices
  unsigned threads = 0;                          // host threads for generation and the oracle; 0: all
  std::size_t cases_per_launch = std::size_t{1} << 16;  // 1: the one-case-per-launch baseline
};

// Runs the range and prints the worker protocol (suites/runner/worker_protocol.h); returns the
// exit code.
int RunSparseMmaWorker(const WorkerArgs& args, std::ostream& out);

// `tcfuzz worker --case-file F`: one sparse case from a file on the device, compared with the
// oracle (the device's numerics row), reported as case 0 in the worker protocol.
int RunSparseCaseFileWorker(const std::string& path, std::ostream& out);

// `tcfuzz worker --probe`: "device <cc major> <cc minor> <driver API> <runtime> <name>" or
// "none <reason>".
int ProbeWorker(std::ostream& out);

}  // namespace tcfuzz::suites
