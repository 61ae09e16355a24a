#include "generators/core/mma_values.h"

#include <cstdlib>

namespace tcfuzz::gen {

uint64_t SmallInt(Source& s, oracle::num::Format f) {
  const int v = static_cast<int>(s.Below(7)) - 3;
  if (!oracle::num::IsFloat(f)) {
    if (!oracle::num::IsSigned(f)) return static_cast<uint64_t>(std::abs(v));
    return static_cast<uint64_t>(static_cast<int64_t>(v)) & ((uint64_t{1} << oracle::num::StorageBits(f)) - 1);
  }
  return oracle::num::FromDouble(f, v);
}

}  // namespace tcfuzz::gen
