// The tiling fuzz as a suite of `tcfuzz run` (issue 34: every subject in the main job's one
// report). Case i is case i of `tcfuzz tiling fuzz` with the run's seed (tiling_fuzz.h
// DrawTilingCase): a built-in chip, a problem, the tiler's answer judged (tiling_judge.h). A
// fault of an answer to a problem inside the contract fails the case, its check the rule
// (tiling.*, tiling.sim.*, tiler.*); an answer to a problem outside it is a warning, counted
// under the coverage tag "outside_contract_answered". Its reproducer is a shell script that runs
// that one case through `tcfuzz tiling fuzz --first I --cases 1`, which also minimizes it.
#pragma once

#include <memory>
#include <string>

#include "suites/engine/host_suite.h"

namespace tcfuzz::suites {

// Its tiler is the run's (RunSettings::tiler): a command speaking the lines protocol
// (docs/tiler-under-test.md), one process per thread at a time; empty: the reference tiler, in
// process.
std::unique_ptr<HostSuite> MakeTilingSuite();

// The command of the example tiler beside this tcfuzz (a build tree's suites/example_tiler, or an
// install's libexec/tcfuzz/example_tiler), its path shell-quoted; "" when there is none.
std::string FindExampleTiler();

}  // namespace tcfuzz::suites
