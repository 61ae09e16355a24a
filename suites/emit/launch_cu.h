// A standalone CUDA file for one case the harness runs as a prepared launch (dense mma.sync,
// wgmma and tcgen05 descriptor tiles): the harness's own PTX module, its input buffers and launch
// shape as constants, loaded and launched through the CUDA driver API; D is read back through
// the same output-to-D map the harness uses (written out as a table) and printed element by
// element next to the oracle's D and, when known, the D found when the case was reported.
// Builds with `nvcc -arch=<arch> repro.cu -lcuda`; nothing of tcfuzz.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "harness/ptx_kernel.h"
#include "oracle/core/result.h"

namespace tcfuzz::suites {

struct LaunchCu {
  std::string from;                // the reproducer it was written from
  std::string instruction;         // for the header comment
  std::string arch;                // nvcc -arch
  std::string oracle_row;          // the numerics row of the expected D
  harness::PreparedLaunch launch;  // one case, or several (`expected` holds their Ds in order)
  bool half_words = false;         // D elements are 16-bit halves of output words (f16 D)
  bool address_word = false;       // output word 0 is the kernel's shared buffer address
  std::size_t cols = 8;            // D columns
  std::vector<uint32_t> expected;  // the oracle's D, row-major
  std::optional<std::vector<uint32_t>> found;
  // The discovery kit (suites/discover/discover_kit.h): one case file per case (text form, no
  // observed rows). When set, main() prints each, with an origin.device line and the D the device
  // returned as observed.<row> rows: a self-contained capture `oracle readings --ingest` reads.
  std::vector<std::string> case_texts;
};

// The .cu text; an error when the launch's output does not map onto D.
oracle::Result<std::string> LaunchCuText(const LaunchCu& c);

}  // namespace tcfuzz::suites
