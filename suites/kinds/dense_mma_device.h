// The worker side of the dense-mma GPU suite: cases drawn per index
// (suites/kinds/dense_device_cases.h), grouped by instruction, one warp per case, D compared
// bit for bit with the oracle's row for the device.
#pragma once

#include <ostream>
#include <string>

#include "oracle/mma/dense_mma.h"
#include "suites/engine/device_workers.h"

namespace tcfuzz::suites {

int RunDenseMmaWorker(const WorkerArgs& a, std::ostream& out);

// One dense case (from a dense_mma file) on the device, reported as case 0.
int RunDenseCaseWorker(const oracle::mma::DenseTile& t, std::ostream& out);

}  // namespace tcfuzz::suites
