// Built without a CUDA toolkit: every judged suite's launch runs on a host backend
// (harness/judged_host.h) or reports why it cannot run.
#include "harness/backend.h"
#include "harness/judged_suites.h"

namespace tcfuzz::harness {

template <class Launch>
oracle::Result<JudgedResult> RunJudged(const Launch& l) {
  if (!BackendIsCuda()) return RunJudgedOnHost(l);
  return oracle::Result<JudgedResult>::Fail(
      "no CUDA device: tcfuzz was built without a CUDA toolkit");
}

template <class Launch>
std::string JudgedUnsupported() {
  return BackendIsCuda() ? "tcfuzz was built without a CUDA toolkit" : "";
}

#define TCFUZZ_JUDGED_STUB(Launch)                                \
  template oracle::Result<JudgedResult> RunJudged(const Launch&); \
  template std::string JudgedUnsupported<Launch>();
TCFUZZ_JUDGED_STUB(DenseJudgedLaunch)
TCFUZZ_JUDGED_STUB(SparseExactLaunch)
TCFUZZ_JUDGED_STUB(SparseJudgedLaunch)
TCFUZZ_JUDGED_STUB(WgmmaJudgedLaunch)
TCFUZZ_JUDGED_STUB(Tcgen05JudgedLaunch)
#undef TCFUZZ_JUDGED_STUB

}  // namespace tcfuzz::harness
