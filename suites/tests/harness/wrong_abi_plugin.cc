// A plug-in of another ABI version: the loader must refuse it with a line naming both versions.
#include "tcfuzz/backend.h"

namespace {

int NoMma(const tcfuzz_warp_mma*, const char*, char*, size_t) { return TCFUZZ_UNSUPPORTED; }

const tcfuzz_backend kTable = {99u, sizeof(tcfuzz_backend), "wrong abi", &NoMma, nullptr};

}  // namespace

extern "C" __attribute__((visibility("default"))) const tcfuzz_backend* tcfuzz_backend_entry(void) {
  return &kTable;
}
