// The built-in emulator as a plug-in (tcfuzz/backend.h): loaded by `--device plugin:PATH` in the
// tests, so the loader and the ABI are exercised by a backend whose answers are known.
#include "harness/emulator/emulator_backend.h"

extern "C" __attribute__((visibility("default"))) const tcfuzz_backend* tcfuzz_backend_entry(void) {
  return tcfuzz::harness::emulator::EmulatorBackend();
}
