#include "oracle/wgmma/smem_descriptor.h"

namespace tcfuzz::oracle::wgmma {

using smem::Swizzle;

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
