// Built without a CUDA toolkit: the launch reports why it cannot run.
#include "harness/sparse_exact.h"

namespace tcfuzz::harness {

oracle::Result<SparseExactResult> RunSparseExact(const SparseExactLaunch&) {
  return oracle::Result<SparseExactResult>::Fail(
      "no CUDA device: tcfuzz was built without a CUDA toolkit");
}

std::string SparseExactUnsupported() { return "tcfuzz was built without a CUDA toolkit"; }

}  // namespace tcfuzz::harness
