// Reports and reproducers are written atomically: a temporary file in the same folder, flushed
// to disk, then renamed over the target. A crash mid-write leaves the old file or none, never
// half of one.
#pragma once

#include <string>
#include <string_view>

#include "oracle/core/result.h"

namespace tcfuzz::suites {

// Writes `content` to `path`; creates missing parent folders. Error: one line naming the path.
oracle::Result<bool> WriteFileAtomic(const std::string& path, std::string_view content);

// Reads a whole file (at most `max_bytes`); "-" or a pipe is read to its end. Error: one line
// naming the path.
oracle::Result<std::string> ReadFile(const std::string& path, std::size_t max_bytes = 1 << 24);

}  // namespace tcfuzz::suites
