// A Source backed by RapidCheck picks, for use inside rc::gen::exec or a property body.
// Every choice is one RapidCheck pick, so RapidCheck shrinks each choice toward 0 (the simplest
// answer). Choices are drawn at full size: RapidCheck's size scaling would otherwise leave the
// high bits of descriptor fields almost never set.
#pragma once

#include <rapidcheck.h>

#include "generators/core/source.h"

namespace tcfuzz::gen {

class RcSource final : public Source {
 public:
  uint64_t Below(uint64_t n) override {
    if (n <= 1) return 0;
    if (n <= (uint64_t{1} << 32)) {
      return *rc::gen::resize(rc::kNominalSize, rc::gen::inRange<uint64_t>(0, n));
    }
    // Wider ranges: two 32-bit picks, high word first so shrinking clears it first.
    const uint64_t hi =
        *rc::gen::resize(rc::kNominalSize, rc::gen::inRange<uint64_t>(0, ((n - 1) >> 32) + 1));
    const uint64_t lo =
        *rc::gen::resize(rc::kNominalSize, rc::gen::inRange<uint64_t>(0, uint64_t{1} << 32));
    return ((hi << 32) | lo) % n;
  }
};

}  // namespace tcfuzz::gen
