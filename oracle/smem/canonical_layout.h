// Canonical shared-memory layouts as CuTe shape:stride expressions, both ways:
// layout -> the exact CuTe string the PTX figures print, and CuTe string -> layout, with the
// LBO and SBO a descriptor must carry read off the strides (what CuTe's make_gmma_desc does).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "oracle/core/result.h"
#include "oracle/smem/address_map.h"
#include "oracle/smem/smem_types.h"

namespace tcfuzz::oracle::smem {

struct CanonicalLayout {
  Major major = Major::kK;
  Swizzle swizzle = Swizzle::kNone;
  DType dtype = DType::kF16;
  int m = 1;         // pattern repeats along rows (M or N)
  int k = 1;         // pattern repeats along K (K-major: 2k 16-byte units)
  uint64_t lbo = 0;  // bytes; K-major swizzled layouts have none (the doc's "NA")
  uint64_t sbo = 0;  // bytes
  // Defaulted in the .cc: a C++17 includer cannot default it (issue 35).
  friend bool operator==(const CanonicalLayout&, const CanonicalLayout&);
};

// "Swizzle<B,M,S> o (shape):(stride)", strides in elements, as PTX 9.1 Figures 188-192 print.
std::string CuteString(const CanonicalLayout& layout);

// Parses a CuTe string for element type `dtype` and checks it is one of the canonical forms;
// the error names the first mode that does not fit.
Result<CanonicalLayout> ParseCanonical(std::string_view cute, DType dtype);

// The descriptor's LBO and SBO fields (byte value >> 4) for a layout: K-major swizzled layouts
// encode LBO as 1, the value the doc says the hardware assumes.
struct EncodedStrides {
  uint64_t lbo;
  uint64_t sbo;
};
EncodedStrides EncodeStrides(const CanonicalLayout& layout);

// The decoded descriptor that addresses `layout` at byte address `start`: the base offset is
// derived from `start` by the PTX formula ((start >> 7) & 7 unless on the repeat boundary).
SmemMatrix MatrixFor(const CanonicalLayout& layout, uint64_t start);

// PTX 9.1 §9.7.16.4.1: 0 on the swizzle repeat boundary, else (pattern_start >> 7) & 7.
int BaseOffsetFor(Swizzle swizzle, uint64_t pattern_start);

// Elements along rows and bytes along K the layout holds.
int LayoutRows(const CanonicalLayout& layout);
int LayoutKBytes(const CanonicalLayout& layout);

}  // namespace tcfuzz::oracle::smem
