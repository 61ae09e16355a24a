// The harness in a build without a CUDA toolkit: every probe says so.
#include "harness/device.h"

namespace tcfuzz::harness {

DeviceInfo ProbeDevice() {
  DeviceInfo info;
  info.reason = "tcfuzz was built without a CUDA toolkit (nvcc not found at configure time)";
  return info;
}

int KernelArchOnDevice() { return -1; }

}  // namespace tcfuzz::harness
