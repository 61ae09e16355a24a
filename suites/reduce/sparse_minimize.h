// `tcfuzz minimize FILE`: shrink a failing sparse MMA case while the device still fails it the
// same way. Steps, each kept only when the signature is unchanged: zero whole operands, then
// halves and single values (A's kept values, B, C); reset metadata nibbles to the canonical
// ascending pair (0,1); replace the remaining values by one. The evaluator runs a candidate on
// the device (suites/reduce/minimize_command.h) or, in tests, on a stand-in.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "oracle/sparse/sparse_case_text.h"

namespace tcfuzz::suites {

// What failed: the result class and where (mismatch: "D[r][c]", the first differing element;
// a device fault: the CUDA error name).
struct FailureSignature {
  std::string outcome;
  std::string where;
  bool operator==(const FailureSignature&) const = default;
};

struct Evaluation {
  std::optional<FailureSignature> failure;          // nullopt: the device agrees with the oracle
  std::optional<std::vector<uint32_t>> observed;    // D, when the device returned one
};

using SparseEvaluator = std::function<Evaluation(const oracle::sparse::SparseCaseFile&)>;

struct MinimizeResult {
  oracle::sparse::SparseCaseFile minimized;
  int tries = 0;     // evaluations spent
  int accepted = 0;  // steps kept
};

// How many values of A, B and C are non-zero (what minimizing brings down).
std::size_t NonZeroValues(const oracle::sparse::SparseCaseFile& k);

MinimizeResult MinimizeSparse(const oracle::sparse::SparseCaseFile& start, const FailureSignature& signature,
                              const SparseEvaluator& evaluate, int budget);

// The signature of a device result against the oracle's expected D of `cols` columns (nullopt
// when equal).
std::optional<FailureSignature> MismatchSignature(const std::vector<uint32_t>& expected, const std::vector<uint32_t>& got,
                                                  std::size_t cols = 8);

}  // namespace tcfuzz::suites
