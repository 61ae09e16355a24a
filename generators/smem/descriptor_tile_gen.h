// Generated wgmma tiles for the hardware descriptor suite: a type, N, both operands' major-ness,
// swizzle, start address (inside a swizzle row too), LBO and SBO (varied where the spec says
// LBO is ignored), their descriptors, and a shared-memory image holding every element where the
// oracle's address map puts it. Bytes no element maps to hold a poison pattern (NaN for floats),
// so a device that reads elsewhere shows up in D.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "generators/core/mma_values.h"
#include "generators/core/source.h"
#include "oracle/core/rule.h"
#include "oracle/core/span.h"
#include "oracle/tile/descriptor_tile.h"

namespace tcfuzz::gen {

// Values: small integers (every D exact); a layout probe: A element (row, k) holds
// 1 + ((row * K + k) mod ProbeRange(type)) and B is one-hot per column at a drawn K, so every D
// element is exactly the probe value of the one A element the device read; or random finite
// values, which check the instruction's arithmetic against the numerics model (fp8 keeps 13
// fraction bits on sm_90 wgmma, docs/numerics.md).
enum class TileValues { kSmallInt, kProbe, kRandom };
std::string_view Name(TileValues v);  // "small_int" | "probe" | "random"

struct GeneratedTile {
  oracle::tile::DescriptorTile tile;
  TileValues values = TileValues::kSmallInt;
  uint8_t fill = 0xFF;                   // the poison byte of the image
  const oracle::Rule* broken = nullptr;  // set by BreakOneDescriptor: the rule the tile breaks
};

// Bytes of shared memory a tile may use (the kernel's dynamic shared memory).
inline constexpr int kTileImageBytes = 64 * 1024;

// Whether no two of `addresses` fall in the same `slot`-sized slot (addresses / slot all
// distinct): a placement's alias check, in one pass over a flag per slot where the addresses sit
// on slots of a bounded span (sorting thousands of addresses for every stride a draw tried was
// most of drawing a layout, and most of a sanitizer build's worker start).
bool DistinctSlots(oracle::Span<const uint64_t> addresses, uint64_t slot);

// c with the smallest legal LBO and SBO (powers of two from 16 bytes, smallest footprint first)
// under which no two elements share a byte; its other fields kept. nullopt when none is.
std::optional<oracle::smem::SmemCase> WithCompactStrides(const oracle::smem::SmemCase& c);

// A wgmma tile (sm_90a, M = 64) whose operands are K-major without swizzle in their most compact
// canonical layout (core matrices of 8 rows x 16 bytes: LBO 128 between K units, SBO 256 between
// row groups), A at 0 and B at image_bytes / 2, holding `a` (64 x K) and `b` (n x K) row-major;
// `c` (64 x n, empty: scale-d false). What deciding vectors and probes are placed in.
oracle::tile::DescriptorTile PlainWgmmaTile(oracle::num::Format ab, oracle::num::Format b_type,
                                            oracle::num::Format d, int n,
                                            const std::vector<uint64_t>& a,
                                            const std::vector<uint64_t>& b, std::vector<uint32_t> c,
                                            int image_bytes = kTileImageBytes);

// wgmma (sm_90a): M = 64, N of 8..256.
GeneratedTile DrawWgmmaTile(Source& s);
// The descriptors of a dense wgmma tile of A/B type `ab` (f32 D) and N `n`, drawn as DrawWgmmaTile
// draws them (A inside the image's first half, B inside its second); no values, no image.
oracle::tile::DescriptorTile DrawWgmmaLayout(Source& s, oracle::num::Format ab, int n);
// wgmma.mma_async.sp (sm_90a): A the kept half of K with legal ordered metadata, any selector
// the form takes.
GeneratedTile DrawWgmmaSpTile(Source& s);
// tcgen05.mma (sm_100a): M = 128, N of 8..128, f32/s32 D; with `ws`, tcgen05.mma.ws with a
// legal zero-column mask for that M and N.
GeneratedTile DrawTcgen05Tile(Source& s, bool ws);
// .ws's N (Table 39: 64, 128, and 256, which the tcgen05 kernels do not take).
inline constexpr int kTcgen05WsN[] = {64, 128};
// The descriptors of a dense tcgen05.mma (M = 128) tile of A/B type `ab` (f32 D) and N `n`, drawn
// as DrawTcgen05Tile draws them; with `ws`, .ws with a legal zero-column mask (N 64 or 128).
oracle::tile::DescriptorTile DrawTcgen05Layout(Source& s, oracle::num::Format ab, int n, bool ws);
// A legal zero-column mask for t's M and N whose shifted columns stay among B's N rows (0, no
// column zeroed, when 256 draws find none).
void DrawWsMask(Source& s, oracle::tile::DescriptorTile& t);
// tcgen05.mma.sp (sm_100a): M = 128, A the kept half of K with legal ordered metadata, the
// selectors spec choice TM1 reads (0..1 for kind::f16 and tf32, 0 for f8f6f4 and i8).
GeneratedTile DrawTcgen05SpTile(Source& s);

// Breaks one descriptor rule of A's or B's descriptor, one field only (reserved and fixed bits,
// base offset, the swizzle code and LBO mode of tcgen05), leaving the image as the legal
// descriptor placed it: what the device does with it is undefined by the spec.
void BreakOneDescriptor(Source& s, GeneratedTile& g);

}  // namespace tcfuzz::gen
