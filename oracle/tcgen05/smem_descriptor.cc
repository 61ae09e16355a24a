#include "oracle/tcgen05/smem_descriptor.h"

namespace tcfuzz::oracle::tcgen05 {

using smem::Swizzle;

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
