// Built without a CUDA toolkit: the launch reports why it cannot run.
#include "harness/wgmma_judged.h"

namespace tcfuzz::harness {

oracle::Result<JudgedResult> RunWgmmaJudged(const WgmmaJudgedLaunch&) {
  return oracle::Result<JudgedResult>::Fail(
      "no CUDA device: tcfuzz was built without a CUDA toolkit");
}

std::string WgmmaJudgedUnsupported() { return "tcfuzz was built without a CUDA toolkit"; }

}  // namespace tcfuzz::harness
