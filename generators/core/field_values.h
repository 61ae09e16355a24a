// Boundary-first values for bit fields: what fuzztest calls special values. Half the draws
// come from the field's boundaries (0, 1, max - 1, max), half are uniform over its width.
#pragma once

#include <array>
#include <cstdint>

#include "generators/core/source.h"
#include "oracle/core/bits.h"
#include "oracle/core/span.h"

namespace tcfuzz::gen {

inline uint64_t FieldValue(Source& s, const oracle::Field& f) {
  const uint64_t max = f.max_value();
  if (s.Below(2) == 0) {
    const std::array<uint64_t, 4> edges = {0, 1, max > 0 ? max - 1 : 0, max};
    return s.Pick(oracle::Span<const uint64_t>(edges));
  }
  return s.Bits(f.width());
}

}  // namespace tcfuzz::gen
