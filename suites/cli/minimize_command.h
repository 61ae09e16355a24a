// `tcfuzz minimize FILE`: a failing reproducer of a GPU suite shrunk on the device while it fails
// the same way, by its kind's minimizer (suites/kinds/case_kind.h: sparse_mma_minimize.h for
// sparse_mma, tile_minimize.h for wgmma_tile). Each candidate runs in a fresh `tcfuzz worker
// --case-file` process, so a faulting candidate cannot poison the next.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "suites/reduce/signature.h"

namespace tcfuzz::suites {

// Runs one case text through `<worker> worker --case-file` (written under scratch_dir). `error`
// is set when the worker cannot judge it at all (no GPU, a harness error, a case the spec leaves
// undefined); the evaluation then reports no failure.
Evaluation EvaluateInWorker(const std::vector<std::string>& worker, const std::string& scratch_dir,
                            const std::string& text, std::string* error);

// Evaluates FILE on the device, minimizes while the signature holds, writes the result (with the
// observed D) to out_path. Exit: 0 written, 1 the case does not fail on this device, 2 bad input
// or no GPU.
int RunMinimize(const std::string& file, const std::string& out_path, int budget,
                const std::vector<std::string>& worker, std::ostream& log);

// `tcfuzz replay --device B FILE...`: each GPU reproducer executed again on the process's backend
// (in a worker, as minimize runs it) and judged, rather than its recorded D. Exit as replay: 0
// every case passes, 1 one fails, 2 bad input or no device.
int ReplayOnBackend(const std::vector<std::string>& files, const std::vector<std::string>& worker,
                    std::ostream& out, std::ostream& log);

}  // namespace tcfuzz::suites
