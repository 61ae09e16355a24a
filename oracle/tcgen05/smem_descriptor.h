// tcgen05 shared-memory matrix descriptor (64-bit), PTX ISA 9.1 §9.7.16.4.1, Table 40.
#pragma once

#include <array>
#include <cstdint>
#include <optional>

#include "oracle/core/bits.h"
#include "oracle/core/rule.h"
#include "oracle/smem/address_map.h"
#include "oracle/smem/smem_types.h"

namespace tcfuzz::oracle::tcgen05 {

namespace smem_field {
inline constexpr std::string_view kTable40 = "PTX 9.1 §9.7.16.4.1 Table 40";
// Matrix start address, enc(x) = (x & 0x3FFFF) >> 4.
inline constexpr Field kStart{"start_address", 0, 13, kTable40};
inline constexpr Field kReserved14{"reserved_14_15", 14, 15, kTable40};
// Leading-dimension byte offset (relative mode) or byte address (absolute mode), enc().
inline constexpr Field kLbo{"lbo", 16, 29, kTable40};
inline constexpr Field kReserved30{"reserved_30_31", 30, 31, kTable40};
// Stride-dimension byte offset, enc().
inline constexpr Field kSbo{"sbo", 32, 45, kTable40};
// Fixed constant 0b001.
inline constexpr Field kFixed46{"fixed_46_48", 46, 48, kTable40};
// Matrix base offset (Table 41).
inline constexpr Field kBaseOffset{"base_offset", 49, 51, kTable40};
// Leading-dimension stride mode: 0 relative, 1 absolute (§9.7.16.3.1).
inline constexpr Field kLboMode{"lbo_mode", 52, 52, kTable40};
// Fixed constant 0 (the doc's "0xb00000000" is a typo for 0b00000000).
inline constexpr Field kFixed53{"fixed_53_60", 53, 60, kTable40};
// Swizzle: 0 none, 1 128B with 32B atomicity, 2 128B, 4 64B, 6 32B; 3, 5, 7 invalid.
inline constexpr Field kSwizzle{"swizzle", 61, 63, kTable40};

inline constexpr std::array kAll = {kStart,   kReserved14, kLbo,     kReserved30, kSbo,
                                    kFixed46, kBaseOffset, kLboMode, kFixed53,    kSwizzle};
static_assert(IsCompleteLayout(kAll, 64), "Table 40 fields must tile the 64-bit word");
// Decoded, validated and mapped (both encodings, one code path): oracle/smem/smem_case.h
// (DecodeMatrix, Validate, Map); the rules below are this encoding's own.
}  // namespace smem_field

namespace desc_rule {
inline constexpr std::string_view kTable40 = "PTX 9.1 §9.7.16.4.1 Table 40";
inline constexpr Rule kFixed46{"tcgen05.smem.fixed_46_48", kTable40, "bits 46-48 hold 0b001"};
inline constexpr Rule kReserved14{"tcgen05.smem.reserved_14_15", kTable40, "bits 14-15 are 0"};
inline constexpr Rule kReserved30{"tcgen05.smem.reserved_30_31", kTable40, "bits 30-31 are 0"};
inline constexpr Rule kFixed53{"tcgen05.smem.fixed_53_60", kTable40, "bits 53-60 are 0"};
inline constexpr Rule kSwizzleCode{"tcgen05.smem.swizzle_code", kTable40,
                                   "swizzle is 0, 1, 2, 4 or 6 (3, 5, 7 are invalid)"};
inline constexpr Rule kLboModeTarget{"tcgen05.smem.lbo_mode_target", "PTX 9.1 §9.7.16.4.1.1",
                                     "absolute LBO mode (bit 52) exists on sm_103a only"};
inline constexpr Rule kLboModeSwizzle{"tcgen05.smem.lbo_mode_swizzle", "PTX 9.1 §9.7.16.3.1.2.1",
                                      "absolute LBO mode needs 128B swizzle (16B atomicity)"};
inline constexpr Rule kLboModeMajor{"tcgen05.smem.lbo_mode_major", "PTX 9.1 §9.7.16.3.1.2.1",
                                    "absolute LBO mode is K-major only"};
inline constexpr Rule kLboModeBaseOffset{"tcgen05.smem.lbo_mode_base_offset",
                                         "PTX 9.1 §9.7.16.3.1.2.1",
                                         "absolute LBO mode needs base offset 0"};
inline constexpr Rule kMnMajorDType{"tcgen05.smem.mn_major_dtype", "PTX 9.1 §9.7.16.10.3 Table 54",
                                    "4-bit and 6-bit elements are K-major only"};
inline constexpr Rule kTf32MnSwizzle{"tcgen05.smem.tf32_mn_swizzle", "PTX 9.1 §9.7.16.10.1",
                                     "MN-major tf32 needs 128B swizzle with 32B atomicity"};
inline constexpr Rule kBase32BMajor{"tcgen05.smem.base32b_major", "PTX 9.1 §9.7.16.10.3 Table 55",
                                    "128B swizzle with 32B atomicity has no K-major atom"};
inline constexpr Rule kBase32BDType{"tcgen05.smem.base32b_dtype", "PTX 9.1 §9.7.16.10.1",
                                    "128B swizzle with 32B atomicity is for tf32 only"};
}  // namespace desc_rule

// Swizzle field code <-> mode. constexpr: device code decodes the descriptors it issues the same
// way (harness/tcgen05_judged_lane.h).
constexpr bool SwizzleCodeValid(uint64_t code) { return (code <= 6 && code % 2 == 0) || code == 1; }
// The mode of a valid code (an invalid one reads as none: check SwizzleCodeValid first).
constexpr smem::Swizzle SwizzleOfValidCode(uint64_t code) {
  switch (code) {
    case 1:
      return smem::Swizzle::k128B32BAtom;
    case 2:
      return smem::Swizzle::k128B;
    case 4:
      return smem::Swizzle::k64B;
    case 6:
      return smem::Swizzle::k32B;
    default:
      return smem::Swizzle::kNone;
  }
}
inline std::optional<smem::Swizzle> SwizzleOfCode(uint64_t code) {
  if (!SwizzleCodeValid(code)) return std::nullopt;
  return SwizzleOfValidCode(code);
}
uint64_t CodeOf(smem::Swizzle s);

// The layout a descriptor word with a valid swizzle code says, every field in bytes (LBO the
// field's value in either mode); DecodeMatrix's tcgen05 half.
constexpr smem::SmemMatrix DecodeMatrix(uint64_t desc) {
  smem::SmemMatrix m;
  m.swizzle = SwizzleOfValidCode(Get<smem_field::kSwizzle>(desc));
  m.start = Get<smem_field::kStart>(desc) << 4;
  m.lbo = Get<smem_field::kLbo>(desc) << 4;
  m.sbo = Get<smem_field::kSbo>(desc) << 4;
  m.base_offset = static_cast<int>(Get<smem_field::kBaseOffset>(desc));
  m.lbo_absolute = Get<smem_field::kLboMode>(desc) != 0;
  return m;
}

}  // namespace tcfuzz::oracle::tcgen05
