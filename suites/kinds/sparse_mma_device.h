// The worker side of the sparse-mma GPU suite (`tcfuzz worker`): every mma.sp /
// mma.sp::ordered_metadata form the device runs, compared bit for bit with the oracle. The only
// campaign code that touches the GPU; suites/engine/device_campaign.h is the parent side and
// draws the same cases (DrawSparseMmaCase), so a reported case is rebuilt, not shipped.
#pragma once

#include <ostream>
#include <string>

#include "oracle/sparse/sparse_case_text.h"
#include "suites/engine/device_workers.h"

namespace tcfuzz::suites {

// Runs the range and prints the worker protocol (suites/engine/worker_protocol.h); returns the
// exit code.
int RunSparseMmaWorker(const WorkerArgs& args, std::ostream& out);

// `tcfuzz worker --case-file F` of a sparse case: on the device, compared with the oracle (the
// device's numerics row), reported as case 0 in the worker protocol.
int RunSparseCaseWorker(const oracle::sparse::SparseCaseFile& k, std::ostream& out);

}  // namespace tcfuzz::suites
