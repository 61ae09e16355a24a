// Running a PTX kernel on device 0 through the CUDA driver: JIT the module, copy buffers in,
// launch, copy results out. Every failure is a Result error that names the CUDA error and, for
// a JIT failure, the assembler's log. A build without CUDA reports that instead.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
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

// Errors that leave the CUDA context usable start with one of these: the PTX did not assemble,
// or the host side refused the batch (a tile that does not fit, a launch setting the driver
// declines). Any other launch error is a device fault that may have taken the context with it.
inline constexpr std::string_view kJitError = "PTX JIT failed";
inline constexpr std::string_view kHostError = "harness: ";
inline bool IsContextSafeError(std::string_view e) {
  return e.starts_with(kJitError) || e.starts_with(kHostError);
}

// A batch launch ready to run, and how case i's D comes out of the output buffer (an error when
// the output fails the kernel's own check). The Run* functions execute one; `tcfuzz repro
// --emit-cu` writes one into a standalone CUDA file.
struct PreparedLaunch {
  KernelLaunch launch;
  std::size_t cases = 0;
  std::function<oracle::Result<std::vector<uint32_t>>(std::span<const uint32_t> out, std::size_t i)>
      unpack;
};
oracle::Result<std::vector<std::vector<uint32_t>>> RunPrepared(const PreparedLaunch& p);

// "sm_90" for an H100; empty when there is no device.
std::string DeviceTarget();

// What this process spent JIT-compiling modules (each PTX text once): the workers report it as
// its own phase, apart from the launches.
struct JitTotals {
  uint64_t modules = 0;
  double seconds = 0;
};
JitTotals ProcessJitTotals();

}  // namespace tcfuzz::harness
