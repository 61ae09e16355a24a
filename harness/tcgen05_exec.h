// tcgen05.mma, tcgen05.mma.sp and tcgen05.mma.ws (with the zero-column mask) on a Blackwell GPU
// (sm_100a), both operands in shared memory: a batch kernel of one CTA (four warps) per tile that
// copies the tile's image into dynamic shared memory, allocates tensor memory (.sp: each thread
// stores its row's metadata words after D's columns, spec choice TM1), issues the one instruction
// from one thread with the oracle's instruction descriptor, commits to an mbarrier, waits, reads
// D back with tcgen05.ld (warp w: lanes 32w..32w+31) and frees the tensor memory. Compiled and
// assembled everywhere; run only where the device reports compute capability 10.x. M = 128,
// N = 8..128, f32 or s32 D.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "harness/backend.h"
#include "harness/ptx_kernel.h"
#include "oracle/core/result.h"
#include "oracle/tile/descriptor_tile.h"

namespace tcfuzz::harness {

struct Tcgen05Spec {
  oracle::num::Format ab = oracle::num::Format::kF16, b_type = oracle::num::Format::kF16;
  oracle::num::Format d = oracle::num::Format::kF32;
  int n = 64;
  bool ws = false;  // tcgen05.mma.ws with a zero-column mask operand
  int image_bytes = 64 * 1024;
  bool sparse = false;  // tcgen05.mma.sp: metadata in tensor memory (not with ws)
};

// The spec of a tile (.ws when it carries a zero-column mask).
Tcgen05Spec Tcgen05SpecOf(const oracle::tile::DescriptorTile& t);

std::string Tcgen05Instruction(const Tcgen05Spec& s);
// What the tiles of one launch share: the instruction, N and the image size (the module is
// built for them; types and majors travel per tile in the instruction descriptor).
std::string Tcgen05BatchKey(const Tcgen05Spec& s);
// The module (entry `tcfuzz_tcgen05(img, desc, d, n)`; desc per tile: A, B, the mask as u64
// pairs, then the instruction descriptor; .sp: then 128 x 2 metadata words) for `target`
// (sm_100a, sm_103a, ...), at the PTX version the target needs.
std::string Tcgen05Module(const Tcgen05Spec& s, const std::string& target = "sm_100a");

// The batch as a launch of the module for `target` (sm_100a, sm_103a, ...).
oracle::Result<PreparedLaunch> PrepareTcgen05(
    const Tcgen05Spec& spec, std::span<const oracle::tile::DescriptorTile* const> tiles,
    const std::string& target);

// A call of `tiles` tiles of `spec` with its strings and fields set, the per-tile arrays (image,
// descriptors, metadata, C) left for the caller: SmemMmaCallOf fills them from generated tiles,
// the judged suites' host path (harness/judged_host_tile.cc) from its lane code.
SmemMmaCall SmemMmaCallHead(const Tcgen05Spec& spec, uint32_t tiles);

// The tiles as one call of a host backend's ABI (tcfuzz/backend.h): each tile's image, its
// descriptors, the instruction descriptor the kernel would issue, the mask and the metadata
// words; D comes back lane = row, n columns.
oracle::Result<SmemMmaCall> SmemMmaCallOf(
    const Tcgen05Spec& spec, std::span<const oracle::tile::DescriptorTile* const> tiles);

// D [128][n] per tile on device 0, or on the process's host backend (harness/backend.h).
// Runs the module for the device's own arch-specific target.
oracle::Result<std::vector<std::vector<uint32_t>>> RunTcgen05(
    const Tcgen05Spec& spec, std::span<const oracle::tile::DescriptorTile* const> tiles);
oracle::Result<std::vector<std::vector<uint32_t>>> RunTcgen05(
    const Tcgen05Spec& spec, std::span<const oracle::tile::DescriptorTile> tiles);

}  // namespace tcfuzz::harness
