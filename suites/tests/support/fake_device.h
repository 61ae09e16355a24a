// What tests of the fake device (suites/tests/engine/fake_worker.cc) share.
#pragma once

#include <cstdint>
#include <string>

#include "suites/engine/campaign.h"
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

// A sparse-mma campaign of `cases` on the fake device (--gpu require), `batch` cases per worker,
// with one wrong element planted in case `planted`.
inline suites::CampaignOptions PlantedSparseMma(uint64_t seed, uint64_t planted, uint64_t cases,
                                                uint64_t batch) {
  suites::CampaignOptions o;
  o.suites = {suites::kSparseMmaDeviceSuite};
  o.seed = seed;
  o.cases = cases;
  o.gpu = "require";
  o.worker = {FAKE_WORKER_BIN};
  o.worker_extra = {"--device-probe-wrong-at", std::to_string(planted)};
  o.device_batch = batch;
  return o;
}

}  // namespace tcfuzz::test
