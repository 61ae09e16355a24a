// Generated wgmma tiles for the hardware descriptor suite: a type, N, both operands' major-ness,
// swizzle, start address (inside a swizzle row too), LBO and SBO (varied where the spec says
// LBO is ignored), their descriptors, and a shared-memory image holding every element where the
// oracle's address map puts it. Bytes no element maps to hold a poison pattern (NaN for floats),
// so a device that reads elsewhere shows up in D.
#pragma once

#include "generators/core/source.h"
#include "oracle/wgmma/wgmma_mma.h"

namespace tcfuzz::gen {

// Values: small integers (every D exact), or a layout probe (A holds 1 + its K index mod 4, B
// is one-hot per column at a drawn K, so D names the K the device read, mod 4).
enum class TileValues { kSmallInt, kProbe };

struct GeneratedWgmma {
  oracle::wgmma::WgmmaTile tile;
  TileValues values = TileValues::kSmallInt;
};

// Bytes of shared memory a tile may use (the kernel's dynamic shared memory).
inline constexpr int kWgmmaImageBytes = 64 * 1024;

// wgmma (sm_90a): M = 64, N of 8..256.
GeneratedWgmma DrawWgmmaTile(Source& s);
// tcgen05.mma (sm_100a): M = 128, N of 8..128, f32/s32 D; with `ws`, tcgen05.mma.ws with a
// legal zero-column mask for that M and N.
GeneratedWgmma DrawTcgen05Tile(Source& s, bool ws);

}  // namespace tcfuzz::gen
