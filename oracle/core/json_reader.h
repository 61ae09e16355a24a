// The one JSON reader for every file and line tcfuzz reads (summary.json of untrusted runners,
// tiling, problem and chip files, batch lines): linear in the text, nothing recursive (nlohmann's
// SAX parser and its iterative tree), nesting bounded, a duplicate key an error (the last value
// would silently win). An error is one line with the offset; never an exception.
#pragma once

#include <nlohmann/json.hpp>
#include <string_view>

#include "oracle/core/result.h"

namespace tcfuzz::oracle {

// Deeper than every file tcfuzz writes (summary.json nests 5 levels).
inline constexpr int kMaxJsonDepth = 64;

Result<nlohmann::json> ParseJson(std::string_view text, int max_depth = kMaxJsonDepth);

}  // namespace tcfuzz::oracle
