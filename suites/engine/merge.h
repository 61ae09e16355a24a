// `tcfuzz merge DIR... --report OUT`: shard reports of one run (same seed, suites and case count,
// shards 0..N-1 of N, each finished) added into the report the unsharded run writes: the same
// cases, families, coverage, failures and reproducer files.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace tcfuzz::suites {

// Exit code: 0 (the merged run passed), 1 (it has failures), 2 (a one-line error on `log`).
// `allow_partial` (a fleet whose scheduler killed a shard): missing shards and interrupted ones
// are merged as far as they ran, the report says what it lacks (CampaignReport::partial), and the
// exit is at least 1 while anything is missing, so a pipeline is never green over a part.
int MergeReports(const std::vector<std::string>& dirs, const std::string& out, std::ostream& log,
                 bool allow_partial = false);

}  // namespace tcfuzz::suites
