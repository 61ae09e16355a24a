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

// How a GPU case file without the device's D replays: "<family>.device_<origin.outcome>" with
// origin.detail, pointing at a rerun on a GPU.
inline CheckFailure UnobservedDeviceCase(const oracle::TextDoc& doc, std::string_view family) {
  const auto text = [&doc](std::string_view key, const char* otherwise) {
    auto v = doc.String(key);
    return v.ok() ? v.value() : std::string(otherwise);
  };
  return {std::string(family) + ".device_" + text("origin.outcome", "unknown"),
          text("origin.detail", "") + " (no observed D: re-run on a GPU, see the file's last line)"};
}

}  // namespace tcfuzz::suites
