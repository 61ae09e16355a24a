#include "oracle/tcgen05/instr_descriptor.h"

namespace tcfuzz::oracle::tcgen05 {

int MaxShiftCode(int columns) {
  for (uint32_t code = 0; code < 4; ++code) {
    const InstrDescriptor d{static_cast<uint32_t>(idesc_field::kMaxShift.Put(0, code))};
    if (d.max_shift_columns() == columns) return static_cast<int>(code);
  }
  return -1;
}

namespace {

std::optional<uint32_t> TypeCode(num::Format f) {
  using num::Format;
  switch (f) {
    case Format::kF16:
    case Format::kE4M3:
    case Format::kU8:
      return 0;
    case Format::kBF16:
    case Format::kE5M2:
    case Format::kS8:
      return 1;
    case Format::kTF32:
      return 2;
    case Format::kE2M3:
      return 3;
    case Format::kE3M2:
      return 4;
    case Format::kE2M1:
      return 5;
    default:
      return std::nullopt;
  }
}

}  // namespace

std::optional<uint32_t> EncodeInstrDescriptor(const IdescFields& f) {
  using namespace idesc_field;
  const auto a = TypeCode(f.a), b = TypeCode(f.b);
  const uint64_t d = f.d == num::Format::kF16   ? 0
                     : f.d == num::Format::kF32 ? 1
                     : f.d == num::Format::kS32 ? 2
                                                : 3;
  if (!a || !b || d == 3) return std::nullopt;
  uint64_t w = 0;
  w = kSparsity.Put(w, f.sparse ? 1 : 0);
  if (f.sparse) w = kSparseSelector.Put(w, static_cast<uint64_t>(f.sparse_selector));
  w = kDType.Put(w, d);
  w = kAType.Put(w, *a);
  w = kBType.Put(w, *b);
  w = kTransposeA.Put(w, f.transpose_a ? 1 : 0);
  w = kTransposeB.Put(w, f.transpose_b ? 1 : 0);
  w = kNDim.Put(w, static_cast<uint64_t>(f.n >> 3));
  w = kMDim.Put(w, static_cast<uint64_t>(f.m >> 4));
  w = kMaxShift.Put(w, static_cast<uint64_t>(f.max_shift_code));
  return static_cast<uint32_t>(w);
}

}  // namespace tcfuzz::oracle::tcgen05
