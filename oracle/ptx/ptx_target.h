// The PTX targets the toolchain scan knows (PTX ISA 9.1 §11.1.2 ".target", and the release
// notes of §14 for the version that introduced each): the architecture number, the suffix that
// makes it arch-specific ("a") or family-portable ("f"), and the lowest .version that names it.
#pragma once

#include <span>
#include <string_view>

namespace tcfuzz::oracle::ptx {

struct PtxTarget {
  std::string_view name;  // "sm_90a"
  int sm;                 // 90
  char suffix;            // '\0', 'a' or 'f'
  int min_ptx;            // major*10 + minor
};

// sm_80, sm_86, sm_89, sm_90, sm_90a, sm_100, sm_100a, sm_100f, sm_103a, sm_110a, sm_120,
// sm_120a, sm_121a.
std::span<const PtxTarget> AllTargets();
const PtxTarget* FindTarget(std::string_view name);

// The targets the issue that introduced the scan names: sm_80, sm_89, sm_90a, sm_100a, sm_103a,
// sm_120a.
std::span<const std::string_view> DefaultScanTargets();

}  // namespace tcfuzz::oracle::ptx
