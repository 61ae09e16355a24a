// tcgen05 instruction descriptor (32-bit), kinds f16 / tf32 / f8f6f4 / i8.
// PTX ISA 9.1 §9.7.16.4.2, Table 42. Only decoding lives here for now; the full legality
// table of the descriptor belongs with the MMA forms that consume it.
#pragma once

#include <array>
#include <cstdint>
#include <optional>

#include "oracle/core/bits.h"
#include "oracle/numerics/formats.h"

namespace tcfuzz::oracle::tcgen05 {

namespace idesc_field {
inline constexpr std::string_view kTable42 = "PTX 9.1 §9.7.16.4.2 Table 42";
// Sparsity selector, used only when `sparsity` is 1.
inline constexpr Field kSparseSelector{"sparse_selector", 0, 1, kTable42};
// 0 = dense, 1 = sparse.
inline constexpr Field kSparsity{"sparsity", 2, 2, kTable42};
// Saturate (kind::i8 only).
inline constexpr Field kSaturate{"saturate", 3, 3, kTable42};
// D type: F16 = 0, F32 = 1, S32 = 2.
inline constexpr Field kDType{"dtype", 4, 5, kTable42};
inline constexpr Field kReserved6{"reserved_6", 6, 6, kTable42};
inline constexpr Field kAType{"atype", 7, 9, kTable42};
inline constexpr Field kBType{"btype", 10, 12, kTable42};
inline constexpr Field kNegateA{"negate_a", 13, 13, kTable42};
inline constexpr Field kNegateB{"negate_b", 14, 14, kTable42};
// 0 = K-major, 1 = MN-major.
inline constexpr Field kTransposeA{"transpose_a", 15, 15, kTable42};
inline constexpr Field kTransposeB{"transpose_b", 16, 16, kTable42};
// N >> 3.
inline constexpr Field kNDim{"n_dim", 17, 22, kTable42};
inline constexpr Field kReserved23{"reserved_23", 23, 23, kTable42};
// M >> 4.
inline constexpr Field kMDim{"m_dim", 24, 28, kTable42};
inline constexpr Field kReserved29{"reserved_29", 29, 29, kTable42};
// Maximum column shift for B reuse in .ws: 0 = none, 1 = 8, 2 = 16, 3 = 32.
inline constexpr Field kMaxShift{"max_shift", 30, 31, kTable42};

inline constexpr std::array kAll = {
    kSparseSelector, kSparsity,   kSaturate,   kDType, kReserved6,  kAType, kBType,      kNegateA,
    kNegateB,        kTransposeA, kTransposeB, kNDim,  kReserved23, kMDim,  kReserved29, kMaxShift};
static_assert(IsCompleteLayout(kAll, 32), "Table 42 fields must tile the 32-bit word");
}  // namespace idesc_field

struct InstrDescriptor {
  uint32_t bits = 0;

  int m() const { return static_cast<int>(idesc_field::kMDim.Get(bits)) << 4; }
  int n() const { return static_cast<int>(idesc_field::kNDim.Get(bits)) << 3; }
  bool sparse() const { return idesc_field::kSparsity.Get(bits) != 0; }
  // Columns the .ws B-reuse shift may reach: 0, 8, 16 or 32.
  int max_shift_columns() const {
    static constexpr std::array<int, 4> kColumns = {0, 8, 16, 32};
    return kColumns[idesc_field::kMaxShift.Get(bits)];
  }
};

// The max_shift code whose column limit is `columns` (one of 0, 8, 16, 32), or -1.
int MaxShiftCode(int columns);

// The descriptor of a kind::f16 / tf32 / f8f6f4 / i8 instruction (Table 42's type codes: f16 0,
// bf16 1, tf32 2; e4m3 0, e5m2 1, e2m3 3, e3m2 4, e2m1 5; u8 0, s8 1; D f16 0, f32 1, s32 2).
// nullopt for a type the four kinds do not take.
struct IdescFields {
  num::Format a = num::Format::kF16, b = num::Format::kF16, d = num::Format::kF32;
  int m = 128, n = 64;
  bool transpose_a = false, transpose_b = false;  // MN-major operands
  bool sparse = false;
  int sparse_selector = 0;  // with `sparse` (kind::f16 and tf32: which metadata column, TM1)
  int max_shift_code = 0;
};
std::optional<uint32_t> EncodeInstrDescriptor(const IdescFields& f);

}  // namespace tcfuzz::oracle::tcgen05
