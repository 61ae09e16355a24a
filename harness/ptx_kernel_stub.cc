#include "harness/ptx_kernel.h"

namespace tcfuzz::harness {

oracle::Result<std::vector<uint32_t>> RunPtxKernel(const KernelLaunch&) {
  return oracle::Result<std::vector<uint32_t>>::Fail("tcfuzz was built without a CUDA toolkit");
}

std::string DeviceTarget() { return {}; }

JitTotals ProcessJitTotals() { return {}; }

}  // namespace tcfuzz::harness
