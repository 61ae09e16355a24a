// How what tcfuzz answers is backed (oracle/core/backing.h), as commands print it: the "backing"
// array of `explain ... --json`, its text lines, `tcfuzz oracle rows` and `tcfuzz oracle readings`.
#pragma once

#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <string_view>

#include "oracle/numerics/targets.h"

namespace tcfuzz::suites {

// One object per reading: id, backing on `target` ("sm_90"; empty: wherever seen), seen_on,
// reading, basis.
nlohmann::ordered_json BackingJson(std::span<const std::string_view> ids, std::string_view target);
// "backing (on sm_100):" and one line per reading.
std::string BackingText(std::span<const std::string_view> ids, std::string_view target);

// Every numerics row ParamsFor answers: parameters, reading id and backing on its own target.
// Every row; with a target, only the rows tcfuzz uses for it, backed as on that target.
std::string OracleRowsText(const oracle::num::TargetInfo* target = nullptr);
std::string OracleRowsJson(const oracle::num::TargetInfo* target = nullptr);
// The whole table of readings.
std::string OracleReadingsText();
std::string OracleReadingsJson();

}  // namespace tcfuzz::suites
