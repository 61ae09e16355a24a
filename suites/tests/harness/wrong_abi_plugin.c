/* A plug-in of another ABI version (and, being C, a check that tcfuzz/backend.h is C): the
 * loader must refuse it with a line naming both versions. */
#include "tcfuzz/backend.h"

static int NoMma(const tcfuzz_warp_mma* call, const char* target, char* err, size_t err_size) {
  (void)call, (void)target, (void)err, (void)err_size;
  return TCFUZZ_UNSUPPORTED;
}

static const tcfuzz_backend kTable = {99u, sizeof(tcfuzz_backend), "wrong abi", &NoMma};

__attribute__((visibility("default"))) const tcfuzz_backend* tcfuzz_backend_entry(void) {
  return &kTable;
}
