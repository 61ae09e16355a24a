// The swizzle functors of the canonical layouts (CuTe's Swizzle<B, M, S>), on byte addresses.
//
//   address bits:  ... [M+S+B-1 .. M+S] ... [M+B-1 .. M] [M-1 .. 0]
//                         YYY (row phase)       ZZZ         untouched
//   Swizzle<B,M,S>(a) = a ^ (YYY >> S), i.e. ZZZ ^= YYY.
//
// none: Swizzle<0,4,3>; 32B: <1,4,3>; 64B: <2,4,3>; 128B: <3,4,3> (16-byte units XORed with
// the 128-byte row index); 128B with 32-byte atomicity: <2,5,2> (32-byte units).
#pragma once

#include <cstdint>

#include "oracle/smem/smem_types.h"

namespace tcfuzz::oracle::smem {

struct SwizzleFunctor {
  int b;  // bits XORed
  int m;  // lowest XORed bit (unit = 2^m bytes)
  int s;  // distance from the XORed bits to the row-phase bits

  constexpr uint64_t Apply(uint64_t addr) const {
    const uint64_t mask = (uint64_t{1} << b) - 1;
    return addr ^ (((addr >> (m + s)) & mask) << m);
  }
  friend constexpr bool operator==(const SwizzleFunctor& x, const SwizzleFunctor& y) {
    return x.b == y.b && x.m == y.m && x.s == y.s;  // every field (C++17 has no defaulted ==)
  }
};

constexpr SwizzleFunctor FunctorOf(Swizzle s) {
  switch (s) {
    case Swizzle::kNone:
      return {0, 4, 3};
    case Swizzle::k32B:
      return {1, 4, 3};
    case Swizzle::k64B:
      return {2, 4, 3};
    case Swizzle::k128B:
      return {3, 4, 3};
    case Swizzle::k128B32BAtom:
      return {2, 5, 2};
  }
  return {0, 4, 3};
}

// The swizzle as the hardware applies it to an absolute byte address, with the descriptor's
// base offset (spec choice S1): the row phase is counted from the pattern start, so the
// base offset (pattern start >> 7) & 7 is subtracted from the address's 128-byte row index.
constexpr uint64_t SwizzleAddress(uint64_t addr, Swizzle s, int base_offset) {
  const SwizzleFunctor f = FunctorOf(s);
  if (f.b == 0) return addr;
  const uint64_t mask = (uint64_t{1} << f.b) - 1;
  const uint64_t phase = ((addr >> (f.m + f.s)) - static_cast<uint64_t>(base_offset)) & mask;
  return addr ^ (phase << f.m);
}

static_assert(FunctorOf(Swizzle::k128B).Apply(0x80) == 0x90, "row 1 moves chunk 0 to 1");
static_assert(FunctorOf(Swizzle::k128B).Apply(FunctorOf(Swizzle::k128B).Apply(0x3a5)) == 0x3a5,
              "a swizzle is an involution");
static_assert(SwizzleAddress(0x80, Swizzle::k128B, 1) == 0x80, "base offset 1: row 1 is phase 0");

}  // namespace tcfuzz::oracle::smem
