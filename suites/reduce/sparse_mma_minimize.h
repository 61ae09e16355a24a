// `tcfuzz minimize FILE`: shrink a failing sparse MMA case while the device still fails it the
// same way. Steps, each kept only when the signature is unchanged: zero whole operands, then
// halves and single values (A's kept values, B, C); reset metadata nibbles to the canonical
// ascending pair (0,1); replace the remaining values by one. The evaluator runs a candidate on
// the device (suites/cli/minimize_command.h) or, in tests, on a stand-in.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "oracle/sparse/sparse_case_text.h"
#include "suites/reduce/signature.h"

namespace tcfuzz::suites {

using SparseEvaluator = std::function<Evaluation(const oracle::sparse::SparseCaseFile&)>;

struct MinimizeResult {
  oracle::sparse::SparseCaseFile minimized;
  int tries = 0;     // evaluations spent
  int accepted = 0;  // steps kept
};

// How many values of A, B and C are non-zero (what minimizing brings down).
std::size_t NonZeroValues(const oracle::sparse::SparseCaseFile& k);

MinimizeResult MinimizeSparse(const oracle::sparse::SparseCaseFile& start,
                              const FailureSignature& signature, const SparseEvaluator& evaluate,
                              int budget);

}  // namespace tcfuzz::suites
