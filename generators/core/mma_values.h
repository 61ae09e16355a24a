// Element values for MMA operands, shared by the warp-level and warpgroup generators.
#pragma once

#include <cstdint>

#include "generators/core/source.h"
#include "oracle/numerics/formats.h"

namespace tcfuzz::gen {

// -3..3 in the type's bits (0..3 unsigned): products and sums of a tile stay exact.
uint64_t SmallInt(Source& s, oracle::num::Format f);

}  // namespace tcfuzz::gen
