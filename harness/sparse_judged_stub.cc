// Built without a CUDA toolkit: the launch reports why it cannot run.
#include "harness/sparse_judged.h"

namespace tcfuzz::harness {

oracle::Result<JudgedResult> RunSparseJudged(const SparseJudgedLaunch&) {
  return oracle::Result<JudgedResult>::Fail(
      "no CUDA device: tcfuzz was built without a CUDA toolkit");
}

std::string SparseJudgedUnsupported() { return "tcfuzz was built without a CUDA toolkit"; }

}  // namespace tcfuzz::harness
