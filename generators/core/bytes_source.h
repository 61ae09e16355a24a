// A Source that decodes a libFuzzer input deterministically and never fails: each choice takes
// just enough bytes for its range, and an exhausted buffer answers 0 (the simplest choice).
// A mutation of the bytes is therefore a mutation of the choices.
#pragma once

#include <cstddef>
#include <cstdint>

#include "generators/core/source.h"
#include "oracle/core/span.h"

namespace tcfuzz::gen {

class BytesSource final : public Source {
 public:
  explicit BytesSource(oracle::Span<const uint8_t> bytes) : bytes_(bytes) {}
  uint64_t Below(uint64_t n) override;
  std::size_t remaining() const { return bytes_.size() - pos_; }

 private:
  oracle::Span<const uint8_t> bytes_;
  std::size_t pos_ = 0;
};

}  // namespace tcfuzz::gen
