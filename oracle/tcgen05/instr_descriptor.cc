#include "oracle/tcgen05/instr_descriptor.h"

namespace tcfuzz::oracle::tcgen05 {

int MaxShiftCode(int columns) {
  for (uint32_t code = 0; code < 4; ++code) {
    const InstrDescriptor d{static_cast<uint32_t>(idesc_field::kMaxShift.Put(0, code))};
    if (d.max_shift_columns() == columns) return static_cast<int>(code);
  }
  return -1;
}

}  // namespace tcfuzz::oracle::tcgen05
