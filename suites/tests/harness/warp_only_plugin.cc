// A plug-in built against the first table of the ABI (warp_mma only, struct_size
// TCFUZZ_BACKEND_MIN_SIZE): it loads, runs the warp-level suites, and the wgmma and tcgen05.mma
// suites say it does not execute them rather than read past its table.
#include <tcfuzz/backend.h>

#include "harness/emulator/emulator_backend.h"

namespace {

int WarpMma(const tcfuzz_warp_mma* call, const char* target, char* err, size_t size) {
  return tcfuzz::harness::emulator::EmulatorBackend()->warp_mma(call, target, err, size);
}

const tcfuzz_backend kTable = {TCFUZZ_BACKEND_ABI_VERSION, TCFUZZ_BACKEND_MIN_SIZE,
                               "warp-only model", &WarpMma, nullptr};

}  // namespace

extern "C" __attribute__((visibility("default"))) const tcfuzz_backend* tcfuzz_backend_entry(void) {
  return &kTable;
}
