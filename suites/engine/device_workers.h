// The worker half of the GPU suites (`tcfuzz worker`), the only campaign code that touches the
// GPU: it runs a range of one suite's case indices and prints the worker protocol
// (suites/engine/worker_protocol.h). The parent half is suites/engine/device_suite.h.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <ostream>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "harness/device.h"
#include "oracle/numerics/dot_product.h"

namespace tcfuzz::suites {

struct WorkerArgs {
  std::string suite;
  uint64_t seed = 0, first = 0, count = 0;
  uint64_t shard_index = 0, shard_count = 1;
  std::set<uint64_t> plant_fault, plant_hang;  // test-only: planted kernels at these indices
  unsigned threads = 0;                        // host threads for generation and the oracle; 0: all
  std::size_t cases_per_launch = std::size_t{1} << 16;  // 1: the one-case-per-launch baseline
};

// Runs the range of a.suite; returns the exit code (2 with a message for an unknown suite).
int RunDeviceWorker(const WorkerArgs& a, std::ostream& out);

// `tcfuzz worker --probe`: "device <cc major> <cc minor> <driver API> <runtime> <name>" or
// "none <reason>".
int ProbeWorker(std::ostream& out);

// Shared by the suites' workers: the indices of [first, first + count) in this shard, and the
// planted test faults among them (the exit code when one ran; a planted hang never returns).
std::vector<uint64_t> ShardIndices(const WorkerArgs& a);
// The same indices as a progression start, start + stride, ... (count of them), for workers
// whose kernels compute their own indices.
struct IndexProgression {
  uint64_t start = 0, stride = 1, count = 0;
};
IndexProgression ShardProgression(const WorkerArgs& a);
std::optional<int> RunPlantedFaults(const WorkerArgs& a, const std::vector<uint64_t>& indices,
                                    std::ostream& out);

// The device of the process's backend (harness/backend.h), or nullopt after printing the whole
// answer for `cases` cases without one ("unsupported <cases> no GPU: ...", "ran", "done"). A
// suite whose instructions the host backends do not execute yet names them in
// `host_backend_lacks`; its cases are then unsupported on such a backend. A host backend presents
// as the target `family` runs as (harness::TargetFor).
std::optional<harness::DeviceInfo> DeviceOrSkip(std::size_t cases, std::ostream& out,
                                                std::string_view host_backend_lacks = {},
                                                std::string_view family = "mma");

// What a host backend without smem_mma in its table lacks (DeviceOrSkip's host_backend_lacks for
// the wgmma and tcgen05.mma suites), or empty.
std::string_view SmemMmaHostLacks();

// The numerics row (oracle::num::Gpu) a device follows.
oracle::num::Gpu GpuOf(const harness::DeviceInfo& d);

// "case 0 harness_error ...", "ran 1", "done": a case file the worker cannot read.
int CaseFileError(const std::string& error, std::ostream& out);

}  // namespace tcfuzz::suites
