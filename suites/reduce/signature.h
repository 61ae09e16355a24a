// What every minimizer compares: how a candidate failed on the device. A candidate is kept when it
// fails with the same signature as the case it came from.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "suites/engine/worker_protocol.h"

namespace tcfuzz::suites {

// What failed: the result class and where (mismatch: "D[r][c]", the first differing element;
// a device fault: the CUDA error name).
struct FailureSignature {
  std::string outcome;
  std::string where;
  bool operator==(const FailureSignature&) const = default;
};

struct Evaluation {
  std::optional<FailureSignature> failure;        // nullopt: the device agrees with the oracle
  std::optional<std::vector<uint32_t>> observed;  // D, when the device returned one
};

// The signature of a device result against the oracle's expected D of `cols` columns (nullopt
// when equal).
inline std::optional<FailureSignature> MismatchSignature(const std::vector<uint32_t>& expected,
                                                         const std::vector<uint32_t>& got,
                                                         std::size_t cols = 8) {
  const auto e = FirstDifference(expected, got);
  if (!e) return std::nullopt;
  return FailureSignature{
      "mismatch", "D[" + std::to_string(*e / cols) + "][" + std::to_string(*e % cols) + "]"};
}

}  // namespace tcfuzz::suites
