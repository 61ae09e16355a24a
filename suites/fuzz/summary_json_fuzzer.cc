// A shard's summary.json, as `merge` and `run --resume` read it from runners nobody vouches for
// (issue 33): any bytes give a report or a one-line error, never a crash, a hang or a read past
// the reader's limits; a report it accepts is written back and read again to the same report.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "suites/engine/report.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto r = tcfuzz::suites::ParseSummary(text);
  if (!r.ok()) {
    if (r.error().find('\n') != std::string::npos) {
      std::fprintf(stderr, "summary_json_fuzzer: a two-line error: %s\n", r.error().c_str());
      std::abort();
    }
    return 0;
  }
  const std::string again = tcfuzz::suites::SummaryJson(r.value());
  const auto back = tcfuzz::suites::ParseSummary(again);
  if (!back.ok() || tcfuzz::suites::SummaryJson(back.value()) != again) {
    std::fprintf(stderr, "summary_json_fuzzer: an accepted report does not read back: %s\n",
                 back.ok() ? "differs" : back.error().c_str());
    std::abort();
  }
  return 0;
}
