// Running a PTX kernel on device 0 through the CUDA driver: JIT the module, copy buffers in,
// launch, copy results out. Every failure is a Result error that names the CUDA error and, for
// a JIT failure, the assembler's log. A build without CUDA reports that instead.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "oracle/core/result.h"

namespace tcfuzz::harness {

struct KernelLaunch {
  std::string ptx;
  std::string entry;
  std::vector<std::vector<uint32_t>> inputs;  // device buffers, passed as u64 pointers in order
  std::size_t output_words = 0;               // one output buffer, passed after the inputs
  uint32_t n = 0;                             // passed last as u32
  unsigned grid = 1, block = 128;
  unsigned shared_bytes = 0;  // dynamic shared memory per block
};

// The output buffer's contents.
oracle::Result<std::vector<uint32_t>> RunPtxKernel(const KernelLaunch& launch);

// "sm_90" for an H100; empty when there is no device.
std::string DeviceTarget();

}  // namespace tcfuzz::harness
