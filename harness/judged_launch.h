// What every device-judged launch shares (dense-mma-judged, sparse-mma-exact, sparse-mma-judged,
// smem-hw-judged, tcgen05-judged): case w of a launch is index first + w * stride under the suite
// key, drawn and judged on the device by one warp or one block, so only the indices of failing
// cases and the D of a few come back: the first failures, and the cases whose case seed is a
// multiple of sample_every (one in that many, whatever the stride), which the host judges again
// with its own oracle.
//
// A suite is its launch struct: it derives JudgedRange, names its suite (`kSuite`) and declares
// `struct Kernel`, its traits, defined beside its device code in harness/<suite>.cu (the shape
// and the Judge step: harness/judged_launch.cuh). RunJudged and JudgedUnsupported are written
// once for every suite; the build without a CUDA toolkit defines them in judged_stub.cc. Where
// the process's backend is a host backend, both go to the host path (harness/judged_host.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "oracle/core/result.h"

namespace tcfuzz::harness {

struct JudgedRange {
  uint64_t suite_key = 0;  // oracle::SuiteKey of (base seed, suite)
  uint64_t first = 0, stride = 1, count = 0;
  uint64_t sample_every = 0;       // > 0: sampled cases send their D back
  uint32_t keep_mismatches = 256;  // the D of at most this many failing cases comes back
};

struct JudgedCase {
  uint64_t index = 0;
  std::vector<uint32_t> d_regs;  // the lanes' D registers, lane-major (UnpackD reads D from them)
};

struct JudgedResult {
  std::vector<uint64_t> failed;  // every index whose D differed from what the device computed
  std::vector<JudgedCase> kept;  // D of the sampled cases and of the first failing ones
};

// One launch over the launch's range on the process's backend (harness/backend.h): its failing
// indices and kept D's, or why it could not run (a host error: harness/ptx_kernel.h's
// kHostError, the CUDA error, or a host backend's fault). On cuda the kernel; on a host backend
// RunJudgedOnHost.
template <class Launch>
oracle::Result<JudgedResult> RunJudged(const Launch& launch);

// The same launch with no GPU (harness/judged_host.h): each case drawn, placed and judged on the
// host by the kernel's own lane code, the instruction executed by the process's host backend.
template <class Launch>
oracle::Result<JudgedResult> RunJudgedOnHost(const Launch& launch);

// Why the kernel (or its host path) cannot run this launch's tables, or empty (harness/
// judged_common.cc).
template <class Launch>
std::string JudgedCheck(const Launch& launch);

// Why the process's backend cannot run the suite's kernel (cuda: no image of it for the device's
// architecture), or empty.
template <class Launch>
std::string JudgedUnsupported();

}  // namespace tcfuzz::harness
