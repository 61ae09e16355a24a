#include "oracle/wgmma/smem_descriptor.h"

namespace tcfuzz::oracle::wgmma {

using smem::Swizzle;

Swizzle SwizzleOfCode(uint64_t code) {
  switch (code & 3) {
    case 1:
      return Swizzle::k128B;
    case 2:
      return Swizzle::k64B;
    case 3:
      return Swizzle::k32B;
    default:
      return Swizzle::kNone;
  }
}

std::optional<uint64_t> CodeOf(Swizzle s) {
  switch (s) {
    case Swizzle::kNone:
      return 0;
    case Swizzle::k128B:
      return 1;
    case Swizzle::k64B:
      return 2;
    case Swizzle::k32B:
      return 3;
    case Swizzle::k128B32BAtom:
      return std::nullopt;
  }
  return std::nullopt;
}

}  // namespace tcfuzz::oracle::wgmma
