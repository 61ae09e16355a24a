// libFuzzer target for Ascend TCubeTiling: the bytes choose a chip, a problem and an intent
// (a raw 200-byte image, the reference tiler's answer, or that answer with one field changed),
// then every invariant of CheckTiling holds: no crash in validate() or the simulator on any
// image, and a legal verdict always simulates cleanly.
#include <span>

#include "generators/core/bytes_source.h"
#include "suites/checks/tcube_tiling_checks.h"
#include "suites/fuzz/fuzz_target.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace tcfuzz;
  gen::BytesSource source(std::span<const uint8_t>(data, size));
  static constexpr gen::Intent kIntents[] = {gen::Intent::kRawBits, gen::Intent::kLegal,
                                             gen::Intent::kBreakOne};
  const gen::Intent intent = kIntents[source.Below(3)];
  suites::AbortOn(suites::CheckTiling(gen::DrawTiling(source, intent)));
  return 0;
}
