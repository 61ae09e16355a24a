// One dense wgmma.mma_async (sm_90a) with both operands in shared memory: the descriptors, the
// bytes of shared memory they point into, and what D must be (PTX 9.1 §9.7.15.5). The oracle's
// address maps (oracle/smem) are the only source of placement: element (row, k) of A or B is
// read from the byte the map names, so a wrong map and a wrong device disagree at once.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "oracle/core/result.h"
#include "oracle/numerics/dot_product.h"
#include "oracle/smem/smem_case.h"

namespace tcfuzz::oracle::wgmma {

// The accumulator fragment of m64nNk*: thread 0..127 of the warpgroup, accumulator index
// 0..N/2-1 (PTX 9.1 §9.7.15.5.1.1, "Matrix fragments for wgmma D"): warp w holds rows
// 16w..16w+15; within it, lane l holds row l/4 (+8 for indices 2, 3 of each group of four) and
// columns 2(l%4) + (i%2) + 8(i/4). f16 accumulators pack indices 2j, 2j+1 into register j.
struct Coord {
  int row;
  int col;
};
Coord MapD(int thread, int index);

struct WgmmaTile {
  num::Format ab = num::Format::kF16;  // A and B element type (s8/u8 and e4m3/e5m2 may mix)
  num::Format b_type = num::Format::kF16;
  num::Format d = num::Format::kF32;
  int n = 64;                          // N; M is 64, K is 32 bytes of A/B (one instruction)
  smem::SmemCase a, b;                 // arch sm_90a; a.view.rows = 64, b.view.rows = n
  std::vector<uint8_t> image;          // shared memory from address 0, as the kernel loads it
};

// K of the tile: 32 bytes of the element type (16 f16, 8 tf32, 32 fp8/s8).
int TileK(const WgmmaTile& t);

// The value bits of element (row, k) of A or B as the descriptor's map reads them from the
// image; nullopt when the map reaches past the image (or the descriptor does not decode).
std::optional<std::vector<uint64_t>> ReadOperand(const WgmmaTile& t, smem::Operand which);

// D [64][n] row-major: A·B with scale-d false (C unused), each element one dot product in
// ascending K through the sm_90 wgmma parameters; an error when an operand does not map.
Result<std::vector<uint32_t>> WgmmaReference(const WgmmaTile& t);

}  // namespace tcfuzz::oracle::wgmma
