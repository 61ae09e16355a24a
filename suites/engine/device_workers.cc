#include "suites/engine/device_workers.h"

#include <algorithm>

#include "harness/backend.h"
#include "harness/device.h"
#include "harness/planted_faults.h"
#include "suites/engine/device_campaign.h"
#include "suites/engine/device_suite.h"
#include "suites/engine/worker_protocol.h"

namespace tcfuzz::suites {

int ProbeWorker(std::ostream& out) {
  const harness::DeviceInfo info = harness::ProbeBackend();
  if (!info.available) {
    out << "none " << info.reason << "\n";
  } else {
    out << "device " << info.cc_major << " " << info.cc_minor << " " << info.driver_version << " "
        << info.runtime_version << " " << info.name << "\n";
  }
  return 0;
}

IndexProgression ShardProgression(const WorkerArgs& a) {
  IndexProgression p;
  p.stride = std::max<uint64_t>(1, a.shard_count);
  const uint64_t shard = a.shard_count <= 1 ? 0 : a.shard_index;
  p.start = a.first + (shard + p.stride - a.first % p.stride) % p.stride;
  const uint64_t end = a.first + a.count;
  p.count = p.start >= end || shard >= p.stride
                ? 0
                : (end - p.start + p.stride - 1) / p.stride;  // no such shard: none
  return p;
}

std::vector<uint64_t> ShardIndices(const WorkerArgs& a) {
  const IndexProgression p = ShardProgression(a);
  std::vector<uint64_t> indices(p.count);
  for (uint64_t i = 0; i < p.count; ++i) indices[i] = p.start + i * p.stride;
  return indices;
}

std::optional<int> RunPlantedFaults(const WorkerArgs& a, const std::vector<uint64_t>& indices,
                                    std::ostream& out) {
  for (const uint64_t i : indices) {
    if (a.plant_hang.count(i)) harness::RunPlantedFault(harness::PlantedFault::kHang);
    if (a.plant_fault.count(i)) {
      const auto r = harness::RunPlantedFault(harness::PlantedFault::kIllegalAddress);
      out << "fault " << (r.ok() ? "planted fault did not fault" : r.error()) << "\n" << std::flush;
      return kWorkerFaultExit;
    }
  }
  return std::nullopt;
}

std::optional<harness::DeviceInfo> DeviceOrSkip(std::size_t cases, std::ostream& out,
                                                std::string_view host_backend_lacks,
                                                std::string_view family) {
  harness::DeviceInfo d = harness::ProbeBackend(family);
  const auto host = harness::HostBackend();
  if (d.available && !host_backend_lacks.empty() && host.ok() && host.value() != nullptr) {
    out << "unsupported " << cases << " " << d.name << " does not execute " << host_backend_lacks
        << " yet\nran " << cases << "\ndone\n";
    return std::nullopt;
  }
  if (d.available) return d;
  out << "unsupported " << cases << " no GPU: " << d.reason << "\nran " << cases << "\ndone\n";
  return std::nullopt;
}

std::string_view SmemMmaHostLacks() {
  return harness::BackendExecutesSmemMma() ? "" : "wgmma or tcgen05.mma tiles";
}

oracle::num::Gpu GpuOf(const harness::DeviceInfo& d) {
  return *oracle::num::ParseGpu(GpuRowName(d.cc_major, d.cc_minor));
}

int CaseFileError(const std::string& error, std::ostream& out) {
  out << CaseLine(0, CaseOutcome::kHarnessError, error) << "\nran 1\ndone\n";
  return 0;
}

int RunDeviceWorker(const WorkerArgs& a, std::ostream& out) {
  const DeviceSuite* s = FindDeviceSuite(a.suite);
  return s != nullptr && s->run_worker != nullptr ? s->run_worker(a, out) : 2;
}

}  // namespace tcfuzz::suites
