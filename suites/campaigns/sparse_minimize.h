// `tcfuzz minimize FILE`: shrink a failing sparse MMA case while the device still fails it the
// same way. Steps, each kept only when the signature is unchanged: zero whole operands, then
// halves and single values (A's kept values, B, C); reset metadata nibbles to the canonical
// ascending pair (0,1); replace the remaining values by one. The evaluator runs a candidate on
// the device (a `tcfuzz worker --case-file` process) or, in tests, on a stand-in.
#pragma once

#include <functional>
#include <ostream>
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

MinimizeResult MinimizeSparse(const oracle::sparse::SparseCaseFile& start, const FailureSignature& signature,
                              const SparseEvaluator& evaluate, int budget);

// Runs a candidate through `<worker> worker --case-file` (a fresh process per candidate, so a
// faulting candidate cannot poison the next). `error` is set when the worker cannot run it at
// all (no GPU), and the evaluation then reports no failure.
SparseEvaluator WorkerEvaluator(const std::vector<std::string>& worker, const std::string& scratch_dir, std::string* error);

// `tcfuzz minimize FILE`: evaluates FILE on the device, minimizes while the signature holds,
// writes the result (with the observed D) to out_path. Exit: 0 written, 1 the case does not fail
// on this device, 2 bad input or no GPU.
int RunMinimize(const std::string& file, const std::string& out_path, int budget, const std::vector<std::string>& worker,
                std::ostream& log);

// The signature of a device result against the oracle's expected D (nullopt when equal).
std::optional<FailureSignature> MismatchSignature(const std::vector<uint32_t>& expected, const std::vector<uint32_t>& got);

}  // namespace tcfuzz::suites
