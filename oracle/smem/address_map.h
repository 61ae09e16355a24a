// From a decoded shared-memory descriptor to the address of every element it describes.
//
// The canonical layouts (PTX 9.1 §9.7.16.3.3, identical to wgmma's §9.7.15.5.1.2.1.3), with
// T = 128 / element bits elements per 16-byte unit, S = swizzle row bytes / 16:
//
//   K-major,  none:     ((8,m),(T,2k)) : ((1T,SBO),(1,LBO))
//   K-major,  swizzled: ((8,m),(T,2k)) : ((S*T,SBO),(1,T))           LBO unused inside an atom
//   MN-major, none:     ((T,1,m),(8,k)) : ((1,T,SBO),(1T,LBO))
//   MN-major, swizzled: ((T,S,m),(R,k)) : ((1,T,LBO),(S*T,SBO))     R = AtomKRows: 8, or 4 for
//                                                                   128B with 32-byte atoms
//
// composed with the mode's swizzle on absolute byte addresses (swizzle.h). Readings where the
// spec is silent or contradicts itself are in oracle/core/spec_choices.h (S1-S7); `base32b`
// selects S7's alternative reading so a hardware run can tell which one the device follows.
#pragma once

#include <cstdint>
#include <vector>

#include "oracle/core/result.h"
#include "oracle/smem/smem_types.h"

namespace tcfuzz::oracle::smem {

// What a descriptor says, architecture-neutral, in bytes.
struct SmemMatrix {
  uint64_t start = 0;         // byte address of the operand
  uint64_t lbo = 0;           // leading-dimension byte offset (or byte address when absolute)
  uint64_t sbo = 0;           // stride-dimension byte offset
  int base_offset = 0;        // 0..7
  bool lbo_absolute = false;  // tcgen05 bit 52
  Swizzle swizzle = Swizzle::kNone;
  friend bool operator==(const SmemMatrix&, const SmemMatrix&) = default;
};

// What one instruction reads through the descriptor.
struct OperandView {
  Major major = Major::kK;
  DType dtype = DType::kF16;
  int rows = 64;    // M (operand A) or N (operand B)
  int kbytes = 32;  // K extent in bytes: 32 dense, 64 for sparse forms, 48 for K = 96 fp4
  friend bool operator==(const OperandView&, const OperandView&) = default;
};

// Element (row, k) lives at bit address bit(row, k); k counts elements along K.
struct AddressMap {
  int rows = 0;
  int cols = 0;  // elements along K
  int element_bits = 0;
  std::vector<uint64_t> bits;  // row-major

  uint64_t Bit(int row, int k) const { return bits[static_cast<std::size_t>(row) * cols + k]; }
  uint64_t Byte(int row, int k) const { return Bit(row, k) / 8; }  // byte holding the lowest bit
};

// Checks that `view` is one the map is defined for (rows 1..256, K a positive multiple of
// 16 bytes up to 256, at least one element); error: one line naming what is wrong.
Result<bool> CheckView(const OperandView& view);

// The address of every element, or the reason the view is unusable.
Result<AddressMap> MapAddresses(
    const SmemMatrix& m, const OperandView& view,
    spec_choice::Base32BAtomKRows base32b = spec_choice::kBase32BAtomKRows);

// Unswizzled byte offset of element (row, k) from the start address, in bits.
uint64_t CanonicalOffsetBits(
    const SmemMatrix& m, const OperandView& view, int row, int k,
    spec_choice::Base32BAtomKRows base32b = spec_choice::kBase32BAtomKRows);

}  // namespace tcfuzz::oracle::smem
