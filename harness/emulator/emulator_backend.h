// The built-in emulator as a backend table of the plug-in ABI (tcfuzz/backend.h): what
// `--device emulated` runs, and what the plug-in build of it exports.
#pragma once

#include "tcfuzz/backend.h"

namespace tcfuzz::harness::emulator {

const tcfuzz_backend* EmulatorBackend();

}  // namespace tcfuzz::harness::emulator
