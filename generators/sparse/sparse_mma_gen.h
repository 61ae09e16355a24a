// Generator for sparse MMA cases: a form, its metadata for every lane, and the tile's values.
//
// Value modes: random normal-range values; small integers whose products sum exactly; edge
// values (NaN, Inf, -0, subnormals) placed both in kept A slots and in rows of B that the
// metadata does not select; layout probes (A holds each element's own column index, B is
// one-hot) so a wrong answer names the element the hardware read.
#pragma once

#include <string_view>

#include "generators/core/intent.h"
#include "generators/core/mma_values.h"
#include "generators/core/source.h"
#include "oracle/core/span.h"
#include "oracle/sparse/sparse_metadata.h"

namespace tcfuzz::gen {

struct GeneratedSparse {
  oracle::sparse::SparseOp op;      // form, spelling, selector, every lane's metadata register
  oracle::sparse::SparseTile tile;  // values; tile.nibbles mirror op's selected lanes
  ValueMode mode = ValueMode::kRandom;
  Intent intent = Intent::kLegal;
  const oracle::Rule* broken = nullptr;  // break-one: the undefined/illegal pattern planted
};

oracle::Span<const oracle::Rule* const> SparseBreakableRules();

// Forms whose values the host model covers (floats with a DotParams row, and integers).
GeneratedSparse DrawSparse(Source& s, Intent intent);
GeneratedSparse DrawSparseBreaking(Source& s, const oracle::Rule& rule);

}  // namespace tcfuzz::gen
