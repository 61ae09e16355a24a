// How what tcfuzz answers is backed (oracle/core/backing.h), as commands print it: the "backing"
// array of `explain ... --json`, its text lines, `tcfuzz oracle rows` and `tcfuzz oracle readings`.
#pragma once

#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <string_view>

namespace tcfuzz::suites {

// One object per reading: id, backing on `target` ("sm_90"; empty: wherever seen), seen_on,
// reading, basis.
nlohmann::ordered_json BackingJson(std::span<const std::string_view> ids, std::string_view target);
// "backing (on sm_100):" and one line per reading.
std::string BackingText(std::span<const std::string_view> ids, std::string_view target);

// Every numerics row ParamsFor answers: parameters, reading id and backing on its own target.
std::string OracleRowsText();
std::string OracleRowsJson();
// The whole table of readings.
std::string OracleReadingsText();
std::string OracleReadingsJson();

}  // namespace tcfuzz::suites
