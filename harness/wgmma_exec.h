// wgmma.mma_async on the GPU with both operands in shared memory (sm_90a): a batch kernel of
// one warpgroup per tile that copies the tile's image into dynamic shared memory (1024-aligned,
// so the swizzle patterns hold), adds the buffer's shared address to each descriptor's start
// address, issues the one instruction with scale-d false (true, loading the tile's C, when it has
// one), and stores every thread's accumulators; D is unpacked with the oracle's fragment map
// (oracle/tile/descriptor_tile.h).
#pragma once

#include <span>
#include <string>
#include <vector>

#include "harness/backend.h"
#include "harness/ptx_kernel.h"
#include "oracle/core/result.h"
#include "oracle/tile/descriptor_tile.h"

namespace tcfuzz::harness {

// The form every tile of a batch shares.
struct WgmmaSpec {
  oracle::num::Format ab = oracle::num::Format::kF16, b_type = oracle::num::Format::kF16;
  oracle::num::Format d = oracle::num::Format::kF32;
  int n = 64;
  int trans_a = 0, trans_b = 0;  // 1: MN-major (f16/bf16 only)
  int image_bytes = 64 * 1024;
  // wgmma.mma_async.sp: the mma.sp form whose K and metadata layout it shares, and the selector
  // immediate; each thread's metadata register comes with the tile (oracle
  // SparseMetadataRegisters).
  const oracle::sparse::SparseForm* sparse_form = nullptr;
  int selector = 0;
  // The tiles carry C: each thread loads its accumulators from the tile's record and the
  // instruction runs with scale-d true (D = A·B + C).
  bool with_c = false;
};
WgmmaSpec SpecOf(const oracle::tile::DescriptorTile& t);

int AccumulatorRegisters(const WgmmaSpec& s);  // N/2 (f32, s32) or N/4 (f16) per thread

// The instruction line and the whole module (entry `tcfuzz_wgmma(img, desc, d, n)`).
std::string WgmmaInstruction(const WgmmaSpec& s);
std::string WgmmaModule(const WgmmaSpec& s);

// The batch as a launch (one CTA per tile); an error when an image is not spec.image_bytes.
// Tiles by pointer: a worker's batch of 64 KiB images is not copied to form it.
oracle::Result<PreparedLaunch> PrepareWgmma(
    const WgmmaSpec& spec, std::span<const oracle::tile::DescriptorTile* const> tiles);

// A call of `tiles` tiles of `spec` with its strings and fields set, the per-tile arrays (image,
// descriptors, metadata, C) left for the caller: SmemMmaCallOf fills them from generated tiles,
// the judged suites' host path (harness/judged_host_tile.cc) from its lane code.
SmemMmaCall SmemMmaCallHead(const WgmmaSpec& spec, uint32_t tiles);

// The tiles as one call of a host backend's ABI (tcfuzz/backend.h): each tile's image and
// descriptors, its threads' metadata and C registers as the kernel loads them.
oracle::Result<SmemMmaCall> SmemMmaCallOf(
    const WgmmaSpec& spec, std::span<const oracle::tile::DescriptorTile* const> tiles);

// D [64][n] from the 128 threads' accumulator registers (the kernel's and the ABI's order).
std::vector<uint32_t> DOfRegisters(const WgmmaSpec& spec, std::span<const uint32_t> regs);

// D [64][n] per tile on device 0, or on the process's host backend (harness/backend.h)
// (every tile must have SpecOf(tile) == spec). An error names
// the CUDA failure, or a shared-memory buffer the driver did not place on a 1024-byte boundary.
oracle::Result<std::vector<std::vector<uint32_t>>> RunWgmma(
    const WgmmaSpec& spec, std::span<const oracle::tile::DescriptorTile* const> tiles);
oracle::Result<std::vector<std::vector<uint32_t>>> RunWgmma(
    const WgmmaSpec& spec, std::span<const oracle::tile::DescriptorTile> tiles);

}  // namespace tcfuzz::harness
