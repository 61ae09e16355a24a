// Vocabulary shared by the wgmma (sm_90a) and tcgen05 (sm_100a family) shared-memory matrix
// descriptors: major-ness, swizzle modes, element types, target architectures.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "oracle/core/spec_choices.h"

namespace tcfuzz::oracle::smem {

enum class Arch { kSm90a, kSm100a, kSm103a };
enum class Major { kK, kMN };
enum class Operand { kA, kB };
// PTX 9.1 §9.7.16.3.3 / §9.7.15.5.1.2.1.3: the canonical layouts' swizzle modes.
enum class Swizzle { kNone, k32B, k64B, k128B, k128B32BAtom };
// The element types a descriptor operand can hold (CLI spelling in Name()).
enum class DType { kF16, kBF16, kTF32, kE4M3, kE5M2, kE3M2, kE2M3, kE2M1, kS8, kU8 };

std::string_view Name(Arch a);
std::string_view Name(Major m);
std::string_view Name(Operand o);
std::string_view Name(Swizzle s);
std::string_view Name(DType t);
std::optional<Arch> ParseArch(std::string_view s);
std::optional<Major> ParseMajor(std::string_view s);
std::optional<Operand> ParseOperand(std::string_view s);
std::optional<DType> ParseDType(std::string_view s);

// Bits of the value itself (4, 6, 8, 16, 32). constexpr, like the rest of this block, so that
// device code maps addresses with the oracle's own functions (oracle/smem/address_map.h).
constexpr int ValueBits(DType t) {
  switch (t) {
    case DType::kF16:
    case DType::kBF16:
      return 16;
    case DType::kTF32:
      return 32;
    case DType::kE3M2:
    case DType::kE2M3:
      return 6;
    case DType::kE2M1:
      return 4;
    default:
      return 8;
  }
}
// Bits one element occupies in shared memory. Spec choice S5: 6-bit types sit in 8-bit
// containers (the unpacked kind::f8f6f4 form, the only one a descriptor reads them in);
// e2m1 is packed, 4 bits.
constexpr int StorageBits(DType t) {
  const int bits = ValueBits(t);
  return bits == 6 ? 8 : bits;  // spec choice S5
}

// Bytes of one swizzle row (the atom's extent along its contiguous dimension): 16 for none.
constexpr int SwizzleRowBytes(Swizzle s) {
  switch (s) {
    case Swizzle::kNone:
      return 16;
    case Swizzle::k32B:
      return 32;
    case Swizzle::k64B:
      return 64;
    default:
      return 128;
  }
}
// Bytes after which the swizzle pattern repeats (the base-offset boundary); 0 for none.
constexpr int SwizzleRepeatBytes(Swizzle s) {
  switch (s) {
    case Swizzle::kNone:
      return 0;
    case Swizzle::k32B:
      return 256;
    case Swizzle::k64B:
      return 512;
    case Swizzle::k128B:
      return 1024;
    case Swizzle::k128B32BAtom:
      return 512;  // Swizzle<2,5,2>: 4 rows of 128 B
  }
  return 0;
}
// K rows one MN-major swizzle atom holds (PTX 9.1 Table 55: the atoms are 8 K rows deep, the
// 128B/32B-atom mode's 4; spec choice S7): SBO steps between groups of this many K rows.
constexpr int AtomKRows(Swizzle s,
                        spec_choice::Base32BAtomKRows base32b = spec_choice::kBase32BAtomKRows) {
  return s == Swizzle::k128B32BAtom ? static_cast<int>(base32b) : 8;
}

inline constexpr int kSmemWindowBits = 18;  // enc(x) keeps 18 significant address bits
inline constexpr uint64_t kSmemWindowBytes = uint64_t{1} << kSmemWindowBits;

}  // namespace tcfuzz::oracle::smem
