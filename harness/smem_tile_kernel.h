// What the wgmma and tcgen05 descriptor kernels share: one CTA per tile copies the tile's
// shared-memory image from global memory into 1024-aligned dynamic shared memory, then loads the
// tile's two descriptors and moves their start addresses onto the buffer's shared address.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "oracle/wgmma/wgmma_mma.h"

namespace tcfuzz::harness {

// The module's shared buffer and the entry `name(p_img, p_desc, p_d, p_n)` up to and including
// the image copy and the descriptor loads: %t2 the tile, %t3 the thread, %t4 the buffer's shared
// address, %q3 the output, %q7 the tile's descriptor record (`desc_bytes` per tile), %da/%db the
// descriptors, %sd false (scale-d / enable-input-d). Threads past the last tile branch to DONE.
std::string SmemTileKernelHead(const std::string& name, int image_bytes, int desc_bytes);

// The tiles' images as little-endian 32-bit words, one after the other.
std::vector<uint32_t> PackImages(std::span<const oracle::wgmma::WgmmaTile> tiles);

}  // namespace tcfuzz::harness
