// The PTX targets the toolchain scan knows (PTX ISA 9.1 §11.1.2 ".target", and the release
// notes of §14 for the version that introduced each): the architecture number, the suffix that
// makes it arch-specific ("a") or family-portable ("f"), and the lowest .version that names it.
#pragma once

#include <string_view>

#include "oracle/core/span.h"

namespace tcfuzz::oracle::ptx {

struct PtxTarget {
  std::string_view name;  // "sm_90a"
  int sm;                 // 90
  char suffix;            // '\0', 'a' or 'f'
  int min_ptx;            // major*10 + minor
};

// sm_75 through sm_121f: every sm_ target of the 13.0 toolkit, plain, "a" and "f".
Span<const PtxTarget> AllTargets();
const PtxTarget* FindTarget(std::string_view name);

}  // namespace tcfuzz::oracle::ptx
