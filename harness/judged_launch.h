// What every device-judged launch shares (sparse-mma-exact, dense-mma-judged): one warp per case,
// case w of a launch is index first + w * stride under the suite key, each drawn and judged on
// the device, so only the indices of failing cases and the D of a few come back: the first
// failures, and the cases whose case seed is a multiple of sample_every (one in that many,
// whatever the stride), which the host judges again with its own oracle.
#pragma once

#include <cstdint>
#include <vector>

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

}  // namespace tcfuzz::harness
