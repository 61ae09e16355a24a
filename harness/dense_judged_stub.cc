// Built without a CUDA toolkit: the launch reports why it cannot run.
#include "harness/dense_judged.h"

namespace tcfuzz::harness {

oracle::Result<JudgedResult> RunDenseJudged(const DenseJudgedLaunch&) {
  return oracle::Result<JudgedResult>::Fail(
      "no CUDA device: tcfuzz was built without a CUDA toolkit");
}

std::string DenseJudgedUnsupported() { return "tcfuzz was built without a CUDA toolkit"; }

}  // namespace tcfuzz::harness
