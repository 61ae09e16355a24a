#include "generators/core/bytes_source.h"

namespace tcfuzz::gen {

uint64_t BytesSource::Below(uint64_t n) {
  if (n <= 1) return 0;
  uint64_t value = 0;
  int shift = 0;
  // Consume whole bytes until they span n-1 (at most 8).
  for (uint64_t span = n - 1; span != 0 && shift < 64; span >>= 8, shift += 8) {
    const uint64_t byte = pos_ < bytes_.size() ? bytes_[pos_++] : 0;
    value |= byte << shift;
  }
  return value % n;
}

}  // namespace tcfuzz::gen
