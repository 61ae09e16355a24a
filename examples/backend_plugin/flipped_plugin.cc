// A device-backend plug-in built outside tcfuzz (tcfuzz/backend.h): the built-in emulator with one
// behaviour changed, as a pre-silicon team would wrap its own C model. Here every warp's D[0][0]
// (lane 0's first D register) has its lowest bit flipped, so a campaign against this plug-in
// must report that element as a mismatch, and nothing else.
#include <tcfuzz/backend.h>

#include <cstddef>

#include "harness/emulator/emulator_backend.h"

namespace {

int FlippedWarpMma(const tcfuzz_warp_mma* call, const char* target, char* err, size_t size) {
  const int rc = tcfuzz::harness::emulator::EmulatorBackend()->warp_mma(call, target, err, size);
  if (rc == TCFUZZ_OK) {
    for (uint32_t w = 0; w < call->warps; ++w) call->d[std::size_t{w} * 32 * call->cd_regs] ^= 1u;
  }
  return rc;
}

const tcfuzz_backend kTable{TCFUZZ_BACKEND_ABI_VERSION, sizeof(tcfuzz_backend),
                            "tcfuzz emulator with D[0][0] bit 0 flipped", &FlippedWarpMma};

}  // namespace

extern "C" __attribute__((visibility("default"))) const tcfuzz_backend* tcfuzz_backend_entry(void) {
  return &kTable;
}
