// The cases of the dense-mma GPU suite (mma.sync for the shapes sparse MMA reuses) as both
// halves draw them, and what the parent says about a failing one: case i comes from
// CaseSeed(seed, "dense-mma", i) alone.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "generators/mma/dense_mma_gen.h"
#include "oracle/core/result.h"
#include "oracle/core/text_format.h"
#include "oracle/mma/dense_case_text.h"
#include "oracle/numerics/dot_product.h"
#include "suites/checks/check_failure.h"

namespace tcfuzz::suites {

inline constexpr const char* kDenseMmaSuite = "dense-mma";

gen::GeneratedDense DrawDenseMmaCase(uint64_t seed, uint64_t index);

// "m16n8k16.row.col.f16.f32" style: the form, B's type where it differs from A's, the
// accumulator; the JUnit family of the dense suites' cases.
std::string DenseFamily(const oracle::mma::DenseTile& t);

// The numerics row of a dense tile on a GPU (nullopt: no model for this form there).
std::optional<oracle::num::DotParams> DenseParams(const oracle::mma::DenseTile& t,
                                                  oracle::num::Gpu gpu);

// For a probe case and the device's D: the first differing element, B's hot K in its column,
// the A element the oracle reads and the one(s) whose value the device returned.
std::string DenseProbeExplanation(const gen::GeneratedDense& g,
                                  const std::vector<uint32_t>& observed);

// Replays a dense_mma file without a GPU: the oracle (the file's origin.gpu row) against the D
// recorded in it.
oracle::Result<Replayed> ReplayDenseCase(const oracle::TextDoc& doc);

}  // namespace tcfuzz::suites
