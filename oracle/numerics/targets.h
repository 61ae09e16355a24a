// Every target (sm_XX) and device name a user may give, mapped to the numerics row tcfuzz uses
// for it and why: the row of the target it was measured on, the row of the same tensor-core
// generation (a hypothesis on this target until a run says so), or no row with the reason.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "oracle/core/result.h"
#include "oracle/core/span.h"
#include "oracle/numerics/dot_product.h"

namespace tcfuzz::oracle::num {

struct TargetInfo {
  std::string_view target;   // "sm_86" (an "a"/"f" suffix a user gives is accepted as the base)
  std::string_view devices;  // "A10, A2, A40, RTX 30xx"
  std::optional<Gpu> row;    // the parameter rows tcfuzz uses for it; nullopt: none
  std::string_view why;      // "same tensor-core generation as sm_80 (Ampere)", or why none
};

Span<const TargetInfo> Targets();

// A target ("sm_86", "sm_90a", "86", "compute_100") or a device name ("H100", "rtx 4090",
// "B200", case and spaces ignored). Error: one line listing the known targets and devices.
Result<TargetInfo> FindTarget(std::string_view name);
// The target of a compute capability (8.6 -> sm_86); its entry, or an error naming it.
Result<TargetInfo> TargetOfCc(int major, int minor);
// "sm_86: the sm_80 row (same tensor-core generation as sm_80, Ampere)", or "sm_75: no row: ...".
std::string Describe(const TargetInfo& t);

}  // namespace tcfuzz::oracle::num
