// libFuzzer target for the zero-column mask and its text form (see fuzz_target.h).
#include "oracle/tcgen05/zero_column_mask_text.h"
#include "suites/checks/zero_column_mask_checks.h"
#include "suites/fuzz/fuzz_target.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace tcfuzz;
  return suites::RunFuzzInput(
      data, size, oracle::tcgen05::ZcmCaseFromDoc,
      [](oracle::tcgen05::ZcmCaseFile f, bool with_expectations) {
        if (!with_expectations) f.expect = {};
        return suites::CheckZcmFile(f);
      },
      gen::DrawZcm, suites::CheckZcm);
}
