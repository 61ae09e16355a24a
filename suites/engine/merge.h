// `tcfuzz merge DIR... --report OUT`: shard reports of one run (same seed, suites and case count,
// shards 0..N-1 of N, each finished) added into the report the unsharded run writes: the same
// cases, families, coverage, failures and reproducer files.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace tcfuzz::suites {

// Exit code: 0 (the merged run passed), 1 (it has failures), 2 (a one-line error on `log`).
int MergeReports(const std::vector<std::string>& dirs, const std::string& out, std::ostream& log);

}  // namespace tcfuzz::suites
