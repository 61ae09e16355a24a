#include "oracle/tcgen05/smem_descriptor.h"

namespace tcfuzz::oracle::tcgen05 {

using smem::Swizzle;

std::optional<Swizzle> SwizzleOfCode(uint64_t code) {
  switch (code) {
    case 0:
      return Swizzle::kNone;
    case 1:
      return Swizzle::k128B32BAtom;
    case 2:
      return Swizzle::k128B;
    case 4:
      return Swizzle::k64B;
    case 6:
      return Swizzle::k32B;
    default:
      return std::nullopt;
  }
}

uint64_t CodeOf(Swizzle s) {
  switch (s) {
    case Swizzle::kNone:
      return 0;
    case Swizzle::k128B32BAtom:
      return 1;
    case Swizzle::k128B:
      return 2;
    case Swizzle::k64B:
      return 4;
    case Swizzle::k32B:
      return 6;
  }
  return 0;
}

}  // namespace tcfuzz::oracle::tcgen05
