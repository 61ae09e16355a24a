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
  // Defaulted in the .cc: a C++17 includer cannot default it (issue 35).
  friend bool operator==(const SmemMatrix&, const SmemMatrix&);
};

// What one instruction reads through the descriptor.
struct OperandView {
  Major major = Major::kK;
  DType dtype = DType::kF16;
  int rows = 64;    // M (operand A) or N (operand B)
  int kbytes = 32;  // K extent in bytes: 32 dense, 64 for sparse forms, 48 for K = 96 fp4
  // Defaulted in the .cc: a C++17 includer cannot default it (issue 35).
  friend bool operator==(const OperandView&, const OperandView&);
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

// Unswizzled offset of element (row, k) from the start address, in bits. constexpr: device code
// that builds a shared-memory image places elements with it (harness/wgmma_judged_lane.h).
constexpr uint64_t CanonicalOffsetBits(
    const SmemMatrix& m, const OperandView& v, int row, int k,
    spec_choice::Base32BAtomKRows base32b = spec_choice::kBase32BAtomKRows) {
  const uint64_t eb = static_cast<uint64_t>(StorageBits(v.dtype));
  const uint64_t t = 128 / eb;  // elements per 16 bytes
  const uint64_t s = static_cast<uint64_t>(SwizzleRowBytes(m.swizzle)) / 16;  // units per row
  const uint64_t r = static_cast<uint64_t>(row);
  const uint64_t c = static_cast<uint64_t>(k);
  uint64_t bytes = 0;
  uint64_t bits = 0;
  if (v.major == Major::kK) {
    const uint64_t unit = c / t;  // 16-byte unit along K
    bits = (c % t) * eb;
    bytes = (r % 8) * (s * 16) + (r / 8) * m.sbo;
    if (m.swizzle == Swizzle::kNone) {
      bytes += unit * m.lbo;
    } else {
      // Spec choice S2: inside a swizzle atom the units are contiguous (LBO "assumed 1");
      // a K extent wider than one atom reaches the next atom at +LBO.
      bytes += (unit % s) * 16 + (unit / s) * m.lbo;
    }
  } else {
    bits = (r % t) * eb;
    if (m.swizzle == Swizzle::kNone) {
      bytes = (r / t) * m.sbo + (c % 8) * 16 + (c / 8) * m.lbo;
    } else {
      // An atom is S units along MN by AtomKRows K rows of S * 16 bytes; SBO steps between
      // atoms along K, LBO between atoms along MN (spec choice S7 for the 32-byte-atom mode).
      const uint64_t krows = static_cast<uint64_t>(AtomKRows(m.swizzle, base32b));
      bytes =
          ((r / t) % s) * 16 + (r / (t * s)) * m.lbo + (c % krows) * (s * 16) + (c / krows) * m.sbo;
    }
  }
  return bytes * 8 + bits;
}

}  // namespace tcfuzz::oracle::smem
