// Every file tcfuzz writes or reads goes through these two (docs/files.md).
//
// Writing: a regular file (or a new one) is written atomically, a temporary file in the same
// folder, flushed to disk, then renamed over the target, so a crash mid-write leaves the old file
// or none, never half of one. A symbolic link is followed to the file it names; a terminal,
// /dev/null or a FIFO is written as it is (a FIFO without a reader is an error, not a hang);
// a hard-linked file is rewritten in place so every name sees it; nothing else is replaced.
// "-", /dev/stdout, /dev/stderr and /dev/fd/N (by name or through links) and the very file
// standard output goes to name the process's own stream, written in order after what the
// command printed.
//
// Reading: a regular file up to a size cap, or standard input ("-"); a FIFO, a device or a folder
// is refused at once with a one-line error.
#pragma once

#include <string>
#include <string_view>

#include "oracle/core/result.h"

namespace tcfuzz::suites {

// Writes `content` to `path` as above; creates missing parent folders. Error: one line naming the
// path.
oracle::Result<bool> WriteFileAtomic(const std::string& path, std::string_view content);

// True when `path` names one of this process's own streams ("-", /dev/stdout, /dev/stderr,
// /dev/fd/N, /proc/self/fd/N, by name or through links, or stdout's own file): a caller that prints
// too writes such a file after its own output, and any other file before it, so that an output
// error leaves standard output empty.
bool NamesOwnStream(const std::string& path);

// Whether ReadFile opens a path whose last part is a link. A file of an untrusted report (a
// shard's summary.json) is refused as a link in the same open that reads it: no window between
// a check and the read for the link to appear in.
enum class Links { kFollow, kRefuse };

// Reads a whole regular file, or standard input for "-" (at most `max_bytes`). Error: one line
// naming the path.
oracle::Result<std::string> ReadFile(const std::string& path, std::size_t max_bytes = 1 << 24,
                                     Links links = Links::kFollow);

}  // namespace tcfuzz::suites
