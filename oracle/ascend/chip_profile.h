// Ascend SoC profiles: buffer sizes, core counts and alignment granules a tiling must respect
// (../shared/reference/ascend-tcubetiling.md §5-§6). Values a single or no source gives are
// marked unconfirmed.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "oracle/core/result.h"
#include "oracle/core/span.h"

namespace tcfuzz::oracle::ascend {

struct ChipProfile {
  std::string name;  // CANN SoC version, e.g. "Ascend910B2"
  int npu_arch = 0;  // __NPU_ARCH__: 1001, 2002, 2201, 3002, 3510, ...
  int ai_cores = 0;  // cube cores a tiling may use (usedCoreNum upper bound)
  int vector_cores = 0;
  int64_t l0a = 0, l0b = 0, l0c = 0;
  int64_t l1 = 0;           // the kernel's L1 budget (TOTAL_L1_SIZE: the platform's less its
                            // reserved top bytes, K6); a tiling must fit it
  int64_t l1_platform = 0;  // the platform ini value (what GetTiling plans against)
  int64_t ub = 0;
  int64_t bias_table = 0;  // 0: no bias table
  bool confirmed = true;   // false: sizes or cores from a single source or a test stub
  std::string note;
};

// Every built-in profile, in a stable order.
Span<const ChipProfile> ChipProfiles();

// A built-in profile by SoC name, case-insensitive.
const ChipProfile* FindChip(std::string_view name);

// A custom profile from JSON ({"name":..., "npu_arch":..., "ai_cores":..., "l0a":..., ...});
// missing or unknown keys and non-positive sizes are one-line errors.
Result<ChipProfile> ChipFromJson(std::string_view json);
// The same keys (every one), one line; ChipFromJson reads it back.
std::string ChipToJson(const ChipProfile& c);

}  // namespace tcfuzz::oracle::ascend
