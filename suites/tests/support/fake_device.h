// What tests of the fake device (suites/tests/engine/fake_worker.cc) share.
#pragma once

#include <cstdint>

#include "suites/engine/device_campaign.h"

namespace tcfuzz::test {

// The first probe-mode f32 sparse-mma case of a seed: where --device-probe-wrong-at plants a
// wrong element the oracle can name.
inline uint64_t FirstProbeCase(uint64_t seed) {
  for (uint64_t index = 0;; ++index) {
    const auto g = suites::DrawSparseMmaCase(seed, index);
    if (g.mode == gen::ValueMode::kProbe && g.tile.cd == oracle::num::Format::kF32) return index;
  }
}

}  // namespace tcfuzz::test
