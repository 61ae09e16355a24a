// Warp-level dense MMA, `mma.sync.aligned.m16n8kK.row.col`, for the shapes sparse MMA reuses
// (PTX ISA 9.1 §9.7.13.4.8 "Matrix Fragments for mma.m16n8k8 / k16 / k32 / k64"): the per-lane
// fragment maps of A (16 x K), B (K x 8), C and D (16 x 8), and D = A·B + C through the same
// bit-exact dot product the sparse reference uses. Figure-only facts, as for sparse: B, C and D
// equal the sparse forms' maps of the same K (confirmed on an H100, docs/doc-vs-hardware.md SP2);
// A is stated here from the figures and is not yet run on hardware.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "oracle/core/span.h"
#include "oracle/numerics/dot_product.h"
#include "oracle/numerics/formats.h"

namespace tcfuzz::oracle::mma {

using num::Format;

struct DenseForm {
  std::string_view shape;   // "m16n8k16"
  int k;                    // K
  Format type;              // A and B element type (s8/u8, e4m3/e5m2 may mix)
  std::string_view target;  // lowest target
  int elem_bits() const { return num::StorageBits(type); }  // tf32 sits in its 32-bit container
  int per_reg() const { return 32 / elem_bits(); }
  int a_regs() const { return 16 * k / (32 * per_reg()); }  // 4 for every shape here
  int b_regs() const { return k * 8 / (32 * per_reg()); }   // 2
  std::string Name() const;                                 // "m16n8k16.f16"
};

// f16/bf16 k16, tf32 k8, s8/u8 k32, e4m3/e5m2 k32 (sm_89), s4/u4 k64.
Span<const DenseForm> AllDenseForms();
const DenseForm* FindDenseForm(std::string_view shape, Format type);

struct Coord {
  int row;
  int col;
};
// Element `pos` of register `reg` of `lane`: A (row, k column), B (k row, n column).
Coord MapDenseA(const DenseForm& f, int lane, int reg, int pos);
Coord MapDenseB(const DenseForm& f, int lane, int reg, int pos);
// C and D are the sparse forms' map (oracle/sparse/sparse_form.h MapCD), as every m16n8 shape's.

struct DenseTile {
  const DenseForm* form = nullptr;
  Format a_type = Format::kF16, b_type = Format::kF16, cd = Format::kF32;
  bool satfinite = false;
  std::vector<uint64_t> a;  // 16 x K, row-major bit patterns
  std::vector<uint64_t> b;  // K x 8
  std::vector<uint32_t> c;  // 16 x 8
};

// D [16][8], row-major: each element one DotProduct over K in ascending order (floats), or the
// exact integer sum (integers).
// `general_only`: through the general model alone (num::TileMmaSpec::general_only).
std::vector<uint32_t> DenseReference(const DenseTile& t, const num::DotParams& p,
                                     bool general_only = false);

// The readings of oracle/core/backing.h the fragment maps rest on (D1); the arithmetic adds the
// numerics row.
std::vector<std::string_view> ReadingsOf(const DenseForm& f);

}  // namespace tcfuzz::oracle::mma
