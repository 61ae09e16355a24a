// Every invariant of a sparse MMA case: rules and intent, the metadata map, compress/expand,
// and the whole-instruction reference against exact arithmetic (exactly for integers and for
// exactly-summable values, within the model's rigorous error bound otherwise).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "generators/sparse/sparse_mma_gen.h"
#include "oracle/numerics/dot_product.h"
#include "suites/checks/check_failure.h"

namespace tcfuzz::suites {

// "mma.sp::ordered_metadata.m16n8k32.f16.f32": the spelling, the shape, A's type, B's where it
// differs and the accumulator; the family a GPU suite reports a case under, so a failing spelling
// or type pair is told from a known one.
std::string SparseFamily(const oracle::sparse::SparseForm& form, oracle::sparse::Variant variant,
                         oracle::num::Format a_type, oracle::num::Format b_type,
                         oracle::num::Format cd);
inline std::string SparseFamily(const gen::GeneratedSparse& g) {
  return SparseFamily(*g.op.form, g.op.variant, g.tile.a_type, g.tile.b_type, g.tile.cd);
}

// The parameters the sparse reference uses for a tile on `gpu` (mma.sync rows). The host
// campaign uses sm_90, except fp8 whose sm_90 mma.sync row is open: there sm_89's.
std::optional<oracle::num::DotParams> SparseParams(const oracle::sparse::SparseTile& t);
std::optional<oracle::num::DotParams> SparseParams(const oracle::sparse::SparseTile& t,
                                                   oracle::num::Gpu gpu);

// The chunk classes a tile's compressed A holds, as coverage tags ("chunk.nonzeros=0", "=1",
// "=2"): a chunk with fewer nonzero kept elements than slots is where an implementation that
// reads a phantom value hides (composable_kernel issue 3753).
std::vector<std::string_view> ChunkClasses(const oracle::sparse::SparseTile& t);

// `expected`, when given, receives a legal case's D through the model (left empty for a float
// form without a row on the host's GPU).
CheckFailures CheckSparse(const gen::GeneratedSparse& g, std::vector<uint32_t>* expected = nullptr);

}  // namespace tcfuzz::suites
