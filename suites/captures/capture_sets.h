// Hardware-captured dot products (../shared/captures, BSD-2, from the validation data of
// Khattak & Mikaitis, "Accurate Models of NVIDIA Tensor Cores"): reading them and holding the
// arithmetic oracle to them. The data stay where they are; nothing is copied into this tree.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "oracle/core/result.h"
#include "oracle/numerics/dot_product.h"

namespace tcfuzz::suites {

// One file set: a GPU, an input format, an output (fp32 or fp16 accumulator).
struct CaptureSet {
  std::string gpu;     // folder name: A100, Ada, L40S, B200, V100
  std::string format;  // folder name: fp16, bf16, tf32, E4M3, E5M2
  std::string out;     // fp32 or fp16
  std::string dir;     // the folder
};

// Every set present under `root` (an empty list when the folder is absent).
std::vector<CaptureSet> FindCaptureSets(const std::string& root);

struct CaptureResult {
  CaptureSet set;
  std::string target;    // e.g. "sm_80 mma" (the model the GPU maps to)
  bool covered = false;  // the model claims this set (a confirmed parameter row)
  int lines = 0;
  int matched = 0;
  int first_mismatch = -1;  // 1-based line
  std::string mismatch;     // "got ..., hardware ..." for the first mismatch
};

// Runs the oracle over every line of a set. Error: a malformed file (one line, with its line).
oracle::Result<CaptureResult> CheckCaptureSet(const CaptureSet& set);

// The default captures folder: $TCFUZZ_CAPTURES_DIR, else the build's configured one.
std::string DefaultCapturesDir();

}  // namespace tcfuzz::suites
