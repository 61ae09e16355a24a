// libFuzzer target for shared-memory descriptors (raw 64-bit descriptors plus layout choices)
// and their text form (see fuzz_target.h): no crash, and a legal verdict always yields an
// in-range map, with every other invariant of the checks.
#include "oracle/smem/smem_case_text.h"
#include "suites/checks/smem_descriptor_checks.h"
#include "suites/fuzz/fuzz_target.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace tcfuzz;
  return suites::RunFuzzInput(
      data, size, oracle::smem::SmemCaseFromDoc,
      [](oracle::smem::SmemCaseFile f, bool with_expectations) {
        if (!with_expectations) f.expect_rules.reset();
        return suites::CheckSmemFile(f);
      },
      gen::DrawSmem, suites::CheckSmem);
}
