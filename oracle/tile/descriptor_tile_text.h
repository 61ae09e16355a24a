// The text form of one shared-memory MMA tile (wgmma or tcgen05) with what a GPU returned for
// it: the reproducer of the smem-hw and tcgen05 GPU suites.
//
//   kind = wgmma_tile
//   arch = sm_90a              sm_90a (wgmma) | sm_100a (tcgen05; M = a.rows)
//   ab = f16   b_type = f16   d = f32   n = 64
//   a.major = k   a.dtype = f16   a.rows = 64   a.desc = 0x...   a.pattern_start = 0x00000
//   b.major = mn  b.dtype = f16   b.rows = 64   b.desc = 0x...   b.pattern_start = 0x08000
//   zero_column_mask = 0x...   (tcgen05.mma.ws only)
//   sparse.form = m16n8k32.f16   sparse.selector = 0   (wgmma.mma_async.sp only: the mma.sp form
//   sparse.meta.<row> = one hex digit per chunk         whose metadata layout the warps follow)
//   image.bytes = 65536        the shared memory the kernel loads, from address 0
//   image.fill = 0xff          every byte not listed below
//   image.<hex offset> = up to 64 bytes from that offset, two hex digits each, no spaces
//   observed.<row> = D row as the device wrote it (n hex words, optional)
//
// The image is stored as bytes, not as elements, so a reproducer keeps what the device read
// even if the oracle's address map is what is wrong.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "oracle/core/result.h"
#include "oracle/core/text_format.h"
#include "oracle/tile/descriptor_tile.h"

namespace tcfuzz::oracle::tile {

inline constexpr std::string_view kDescriptorTileKind = "wgmma_tile";

struct DescriptorTileFile {
  DescriptorTile tile;
  uint8_t fill = 0xFF;                            // image.fill: the bytes no element holds
  std::optional<std::vector<uint32_t>> observed;  // D [M][n]
};

// `fill`: the byte the image is written against (the generator's poison).
void AppendDescriptorTile(TextWriter& w, const DescriptorTile& t, uint8_t fill,
                          const std::vector<uint32_t>* observed = nullptr);
Result<DescriptorTileFile> DescriptorTileFromDoc(const TextDoc& doc);

}  // namespace tcfuzz::oracle::tile
