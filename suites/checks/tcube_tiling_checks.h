// Invariants of one generated Ascend tiling case, shared by the fuzz target and campaigns:
// the image and JSON forms round-trip; the reference tiler's answer is legal; a legal tiling
// (without the K2 extra-core warning, which only a guarded kernel survives) simulates cleanly.
#pragma once

#include "generators/ascend/tcube_tiling_gen.h"
#include "suites/checks/check_failure.h"

namespace tcfuzz::suites {

CheckFailures CheckTiling(const gen::GeneratedTiling& g);

}  // namespace tcfuzz::suites
