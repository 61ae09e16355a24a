// Built without a CUDA toolkit: the launch reports why it cannot run.
#include "harness/tcgen05_judged.h"

namespace tcfuzz::harness {

oracle::Result<JudgedResult> RunTcgen05Judged(const Tcgen05JudgedLaunch&) {
  return oracle::Result<JudgedResult>::Fail(
      "no CUDA device: tcfuzz was built without a CUDA toolkit");
}

std::string Tcgen05JudgedUnsupported() { return "tcfuzz was built without a CUDA toolkit"; }

}  // namespace tcfuzz::harness
