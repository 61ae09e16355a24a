// libFuzzer target for the zero-column mask (and the text form it is stored in).
//
// Input starting with "tcfuzz-text": parsed as a case file (corpus entries, reproducers) and
// held to every invariant; under replay (replay_main.cc) also to its recorded expectations,
// which a fuzzer's mutations would otherwise falsify. A file that does not parse is
// rejected (-1): libFuzzer drops it, replay reports it.
// Any other input: decoded by BytesSource into (intent, descriptor bits, M, N, idesc) choices,
// drawn through the same generator the campaigns use, and held to every invariant.
// A broken invariant prints its check and aborts: libFuzzer records the input as a crash.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <string_view>

#include "generators/core/bytes_source.h"
#include "generators/tcgen05/zero_column_mask_gen.h"
#include "oracle/core/text_format.h"
#include "oracle/tcgen05/zero_column_mask_text.h"
#include "suites/checks/zero_column_mask_checks.h"

// Defined only by replay_main.cc: expectations are checked when replaying a corpus.
extern "C" __attribute__((weak)) int TcfuzzReplayMode();

namespace {

void AbortOn(const tcfuzz::suites::CheckFailures& failures) {
  if (failures.empty()) return;
  for (const auto& f : failures) std::fprintf(stderr, "check %s: %s\n", f.check.c_str(), f.message.c_str());
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  if (text.starts_with(tcfuzz::oracle::kTextMagic)) {
    auto file = tcfuzz::oracle::tcgen05::ZcmCaseFromText(text);
    if (!file.ok()) return -1;
    tcfuzz::oracle::tcgen05::ZcmCaseFile f = file.value();
    if (TcfuzzReplayMode == nullptr) f.expect = {};
    AbortOn(tcfuzz::suites::CheckZcmFile(f));
    return 0;
  }
  tcfuzz::gen::BytesSource source(std::span<const uint8_t>(data, size));
  static constexpr tcfuzz::gen::Intent kIntents[] = {
      tcfuzz::gen::Intent::kRawBits, tcfuzz::gen::Intent::kLegal, tcfuzz::gen::Intent::kBreakOne};
  const auto intent = kIntents[source.Below(3)];
  AbortOn(tcfuzz::suites::CheckZcm(tcfuzz::gen::DrawZcm(source, intent)));
  return 0;
}
