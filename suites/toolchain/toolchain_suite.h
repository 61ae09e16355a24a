// The toolchain scan as a suite of `tcfuzz run` (issue 34: every subject in the main job's one
// report). Case i is one item of the whole scan (every enumerated form on every target,
// toolchain_scan.h), drawn through a permutation of the items that the run's seed picks, so a
// run of N cases is a sample of N distinct items and one of WholeScanItems() cases, the whole
// scan. Items are assembled by `tcfuzz toolchain worker --lines` processes, one per thread at a
// time, so an assembler that crashes or hangs costs its one case (assembler_crash,
// assembler_timeout). A verdict against the legality model that no line of the toolkit's
// expectations file names is a failure; a known deviation passes, counted under the coverage
// tag "known_deviation".
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "oracle/core/result.h"
#include "suites/engine/host_suite.h"

namespace tcfuzz::suites {

// `worker`: the argv of tcfuzz itself (its first word a path, /proc/<pid>/exe rather than
// /proc/self/exe: a shell starts it); empty: the suite cannot run. `expectations_file`: the known
// deviations per toolkit (an empty path: none, every deviation fails; an error: the suite cannot
// run, and says why).
std::unique_ptr<HostSuite> MakeToolchainSuite(std::vector<std::string> worker,
                                              oracle::Result<std::string> expectations_file);

}  // namespace tcfuzz::suites
