// What GPU this process can use. The only CUDA-facing API of the foundation; later harness
// pieces (batched launches, workers) build on it. No legality rule lives in harness/.
#pragma once

#include <string>

namespace tcfuzz::harness {

struct DeviceInfo {
  bool available = false;
  std::string reason;  // why not, when unavailable: one line for a visible skip
  std::string name;
  int cc_major = 0;
  int cc_minor = 0;
  int driver_version = 0;   // CUDA driver API version, e.g. 13000
  int runtime_version = 0;  // CUDA runtime the harness was built with
};

// Queries device 0. Never throws; a build without CUDA reports "built without CUDA".
DeviceInfo ProbeDevice();

// Runs a one-thread kernel that reports the __CUDA_ARCH__ it was compiled for, i.e. which
// fatbin image the driver picked for this device (e.g. 900 on an H100). -1 on any failure.
int KernelArchOnDevice();

}  // namespace tcfuzz::harness
