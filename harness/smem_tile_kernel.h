// What the wgmma and tcgen05 descriptor kernels share: one CTA per tile copies the tile's
// shared-memory image from global memory into 1024-aligned dynamic shared memory, then loads the
// tile's two descriptors and moves their start addresses onto the buffer's shared address.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "harness/ptx_kernel.h"
#include "oracle/core/result.h"
#include "oracle/tile/descriptor_tile.h"

namespace tcfuzz::harness {

// The module's shared buffer and the entry `name(p_img, p_desc, p_d, p_n)` up to and including
// the image copy and the descriptor loads: %t2 the tile, %t3 the thread, %t4 the buffer's shared
// address, %q3 the output, %q7 the tile's descriptor record (`desc_bytes` per tile), %da/%db the
// descriptors, %sd false (scale-d / enable-input-d). Threads past the last tile branch to DONE.
std::string SmemTileKernelHead(const std::string& name, int image_bytes, int desc_bytes);

// Pointers to each tile of a span (the Prepare* functions take tiles by pointer).
std::vector<const oracle::tile::DescriptorTile*> PointersTo(
    std::span<const oracle::tile::DescriptorTile> tiles);

// `entry` of `ptx` as a launch of one CTA of 128 threads per tile: the tiles' images, then
// `desc` (the tiles' descriptor records), the image size as dynamic shared memory. Each tile's
// output is `per_tile_words` words, the first the buffer's shared address: unpacking checks it is
// 1024-aligned (an error names it) and hands the rest to `unpack_d`, which returns D. An error
// when a tile's image is not image_bytes long.
oracle::Result<PreparedLaunch> PrepareSmemTileKernel(
    const std::string& ptx, const std::string& entry,
    std::span<const oracle::tile::DescriptorTile* const> tiles, std::vector<uint32_t> desc,
    int image_bytes, size_t per_tile_words,
    std::function<std::vector<uint32_t>(std::span<const uint32_t>)> unpack_d);

}  // namespace tcfuzz::harness
