// One failed invariant of one case: the check's stable name and a one-line message.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "oracle/core/text_format.h"

namespace tcfuzz::suites {

struct CheckFailure {
  std::string check;
  std::string message;
};

using CheckFailures = std::vector<CheckFailure>;

// What replaying one case file found: the checks it fails (empty: it passes) and, when part of
// it could not be judged without a GPU, what (printed after PASS).
struct Replayed {
  CheckFailures failures;
  std::string note;
};

// How a GPU case file without the device's D replays. A reproducer (it names the outcome it was
// kept for) fails as "<family>.device_<origin.outcome>" with origin.detail, pointing at a rerun
// on a GPU; a case that was never run (a corpus input) passes with a note.
inline Replayed UnobservedDeviceCase(const oracle::TextDoc& doc, std::string_view family) {
  if (!doc.Has("origin.outcome")) {
    return {{},
            "no device D in the file: the oracle computed the case; run it on a GPU (tcfuzz repro) "
            "to compare"};
  }
  const auto text = [&doc](std::string_view key) {
    auto v = doc.String(key);
    return v.ok() ? v.value() : std::string();
  };
  return {{{std::string(family) + ".device_" + text("origin.outcome"),
            text("origin.detail") + " (no observed D: re-run on a GPU, see the file's last line)"}},
          {}};
}

}  // namespace tcfuzz::suites
