// TCFUZZ_RECORD_CALLS=DIR: every batch a host backend executes, written as one JSON line (its
// target, every field and array of the ABI call, and what came back) to DIR/calls-PID.jsonl; the
// shared-memory image as its fill byte and the runs of other bytes ({bytes, fill, runs: [[offset,
// hex], ...]}). A plug-in author replays a campaign's calls against their model offline from it;
// the Python module's tests hold tcfuzz.emulate to the emulated worker with it.
#pragma once

#include <string>
#include <string_view>

#include "oracle/core/result.h"
#include "tcfuzz/backend.h"

namespace tcfuzz::harness {

// `outcome` is the batch's: D in call.d when ok, else the harness's one-line error.
void RecordWarpMma(const tcfuzz_warp_mma& call, std::string_view target,
                   const oracle::Result<bool>& outcome);
void RecordSmemMma(const tcfuzz_smem_mma& call, std::string_view target,
                   const oracle::Result<bool>& outcome);

}  // namespace tcfuzz::harness
