// The shape every fuzz target shares: inputs starting with "tcfuzz-text" are case files (the
// corpus format, and a way to fuzz the text parser); anything else is a byte stream that a
// BytesSource turns into generator choices. A broken invariant prints its check and aborts,
// which libFuzzer records as a crash and the replay binary reports as a failure.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <string_view>

#include "generators/core/bytes_source.h"
#include "generators/core/intent.h"
#include "oracle/core/text_format.h"
#include "suites/checks/check_failure.h"

// Defined only by replay_main.cc: recorded expectations are checked when replaying a corpus
// (a fuzzer's mutations would otherwise falsify them).
extern "C" __attribute__((weak)) int TcfuzzReplayMode();

namespace tcfuzz::suites {

inline void AbortOn(const CheckFailures& failures) {
  if (failures.empty()) return;
  for (const auto& f : failures)
    std::fprintf(stderr, "check %s: %s\n", f.check.c_str(), f.message.c_str());
  std::abort();
}

inline bool ReplayMode() { return TcfuzzReplayMode != nullptr; }

// `from_doc(doc)` -> Result<File>; `check_file(File, bool with_expectations)`;
// `draw(BytesSource&, Intent)` -> Generated; `check(Generated)`.
template <class FromDoc, class CheckFile, class Draw, class Check>
int RunFuzzInput(const uint8_t* data, size_t size, FromDoc from_doc, CheckFile check_file,
                 Draw draw, Check check) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  if (text.starts_with(oracle::kTextMagic)) {
    auto doc = oracle::TextDoc::Parse(text);
    if (!doc.ok()) return -1;
    auto file = from_doc(doc.value());
    if (!file.ok()) return -1;
    AbortOn(check_file(file.value(), ReplayMode()));
    return 0;
  }
  gen::BytesSource source(std::span<const uint8_t>(data, size));
  static constexpr gen::Intent kIntents[] = {gen::Intent::kRawBits, gen::Intent::kLegal,
                                             gen::Intent::kBreakOne};
  AbortOn(check(draw(source, kIntents[source.Below(3)])));
  return 0;
}

}  // namespace tcfuzz::suites
