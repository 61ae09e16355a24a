// wgmma shared-memory matrix descriptor (64-bit), PTX ISA 9.1 §9.7.15.5.1.2.2.
#pragma once

#include <array>
#include <cstdint>
#include <optional>

#include "oracle/core/bits.h"
#include "oracle/core/rule.h"
#include "oracle/smem/address_map.h"
#include "oracle/smem/smem_types.h"

namespace tcfuzz::oracle::wgmma {

namespace smem_field {
inline constexpr std::string_view kSec = "PTX 9.1 §9.7.15.5.1.2.2";
// Matrix start address, enc(x) = (x & 0x3FFFF) >> 4.
inline constexpr Field kStart{"start_address", 0, 13, kSec};
inline constexpr Field kReserved14{"reserved_14_15", 14, 15, kSec};
// Leading-dimension byte offset, enc().
inline constexpr Field kLbo{"lbo", 16, 29, kSec};
inline constexpr Field kReserved30{"reserved_30_31", 30, 31, kSec};
// Stride-dimension byte offset, enc().
inline constexpr Field kSbo{"sbo", 32, 45, kSec};
// Not defined for wgmma (no fixed 0b001 here, unlike tcgen05).
inline constexpr Field kReserved46{"reserved_46_48", 46, 48, kSec};
// Matrix base offset, for swizzled layouts.
inline constexpr Field kBaseOffset{"base_offset", 49, 51, kSec};
inline constexpr Field kReserved52{"reserved_52_61", 52, 61, kSec};
// Swizzle ("layout type"): 0 none (interleave), 1 128B, 2 64B, 3 32B.
inline constexpr Field kSwizzle{"swizzle", 62, 63, kSec};

inline constexpr std::array kAll = {kStart,      kReserved14, kLbo,        kReserved30, kSbo,
                                    kReserved46, kBaseOffset, kReserved52, kSwizzle};
static_assert(IsCompleteLayout(kAll, 64), "wgmma descriptor fields must tile the 64-bit word");
// Decoded, validated and mapped (both encodings, one code path): oracle/smem/smem_case.h
// (DecodeMatrix, Validate, Map); the rules below are this encoding's own.
}  // namespace smem_field

namespace desc_rule {
inline constexpr std::string_view kSec = "PTX 9.1 §9.7.15.5.1.2.2";
inline constexpr Rule kReserved14{"wgmma.smem.reserved_14_15", kSec, "bits 14-15 are 0"};
inline constexpr Rule kReserved30{"wgmma.smem.reserved_30_31", kSec, "bits 30-31 are 0"};
inline constexpr Rule kReserved46{"wgmma.smem.reserved_46_48", kSec, "bits 46-48 are 0"};
inline constexpr Rule kReserved52{"wgmma.smem.reserved_52_61", kSec, "bits 52-61 are 0"};
inline constexpr Rule kSwizzleMode{"wgmma.smem.swizzle_mode", kSec,
                                   "wgmma has no 128B swizzle with 32B atomicity"};
inline constexpr Rule kDType{
    "wgmma.smem.dtype", "PTX 9.1 §9.7.15.2",
    "wgmma takes f16, bf16, tf32, e4m3, e5m2, s8 and u8 from shared memory"};
inline constexpr Rule kMnMajorDType{"wgmma.smem.mn_major_dtype", "PTX 9.1 §9.7.15.5.1 (imm-trans)",
                                    "MN-major (transposed) operands are f16 or bf16 only"};
}  // namespace desc_rule

// Swizzle field code <-> mode (nullopt for 128B with 32B atomicity, which wgmma lacks).
constexpr smem::Swizzle SwizzleOfCode(uint64_t code) {
  switch (code & 3) {
    case 1:
      return smem::Swizzle::k128B;
    case 2:
      return smem::Swizzle::k64B;
    case 3:
      return smem::Swizzle::k32B;
    default:
      return smem::Swizzle::kNone;
  }
}
std::optional<uint64_t> CodeOf(smem::Swizzle s);

// The layout a descriptor word says, every field in bytes. constexpr: device code decodes the
// descriptors it issues the same way (harness/wgmma_judged_lane.h); DecodeMatrix's wgmma half.
constexpr smem::SmemMatrix DecodeMatrix(uint64_t desc) {
  smem::SmemMatrix m;
  m.swizzle = SwizzleOfCode(Get<smem_field::kSwizzle>(desc));
  m.start = Get<smem_field::kStart>(desc) << 4;
  m.lbo = Get<smem_field::kLbo>(desc) << 4;
  m.sbo = Get<smem_field::kSbo>(desc) << 4;
  m.base_offset = static_cast<int>(Get<smem_field::kBaseOffset>(desc));
  return m;
}

}  // namespace tcfuzz::oracle::wgmma
