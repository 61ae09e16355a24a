// A device-backend plug-in built outside tcfuzz (tcfuzz/backend.h): the built-in emulator with one
// behaviour changed, as a pre-silicon team would wrap its own C model. Here D[0][0] of every warp
// (lane 0's first D register) and every wgmma or tcgen05.mma tile has its lowest bit flipped, so a
// campaign against this plug-in must report that element as a mismatch, and nothing else.
#include <tcfuzz/backend.h>
#include <tcfuzz/harness/emulator/emulator_backend.h>

#include <cstddef>

namespace {

int FlippedWarpMma(const tcfuzz_warp_mma* call, const char* target, char* err, size_t size) {
  const int rc = tcfuzz::harness::emulator::EmulatorBackend()->warp_mma(call, target, err, size);
  if (rc == TCFUZZ_OK) {
    for (uint32_t w = 0; w < call->warps; ++w) call->d[std::size_t{w} * 32 * call->cd_regs] ^= 1u;
  }
  return rc;
}

// wgmma: thread 0's first accumulator; tcgen05: lane 0, column 0. Both are D[0][0].
int FlippedSmemMma(const tcfuzz_smem_mma* call, const char* target, char* err, size_t size) {
  const int rc = tcfuzz::harness::emulator::EmulatorBackend()->smem_mma(call, target, err, size);
  if (rc == TCFUZZ_OK) {
    for (uint32_t t = 0; t < call->tiles; ++t) call->d[std::size_t{t} * 128 * call->d_words] ^= 1u;
  }
  return rc;
}

const tcfuzz_backend kTable{TCFUZZ_BACKEND_ABI_VERSION, sizeof(tcfuzz_backend),
                            "tcfuzz emulator with D[0][0] bit 0 flipped", &FlippedWarpMma,
                            &FlippedSmemMma};

}  // namespace

extern "C" __attribute__((visibility("default"))) const tcfuzz_backend* tcfuzz_backend_entry(void) {
  return &kTable;
}
