// The tiled execution a TCubeTiling describes, on the CPU (../shared/reference/
// ascend-tcubetiling.md §4): the sample kernel's core mapping (mIdx = block % mBlocks, nIdx =
// block / mBlocks, tails by min), the C-tile order of each iterateOrder with stepM/stepN, and
// the K loop with its tail: baseK steps (Norm) or L1 chunks of stepKa/stepKb (MDL, k_loop.h).
//
// Symbolic mode (up to 2^24 C tiles): every element of C written exactly once across cores, no
// access outside A, B or C (NZ operands read in whole fractals). Numeric mode (small shapes): the
// tiled product of small-integer matrices (exact in every type) equals a plain matmul.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "oracle/ascend/tiling_rules.h"

namespace tcfuzz::oracle::ascend {

struct TileVisit {
  int core;
  int order;       // position in the core's iteration sequence
  int64_t m0, m1;  // C rows [m0, m1)
  int64_t n0, n1;  // C columns [n0, n1)
};

// How the kernel consumes the tiling. The samples clip each core's tail to the matrix
// (SetTail(min(singleCore, dim - offset))); a kernel that does not walks whole singleCore blocks.
struct SimOptions {
  bool numeric = false;
  bool clip_tails = true;
};

// One fault of the tiled execution: id is `tiling.sim.<kind>` (read_past_a, read_past_b,
// write_past_c, core_outside_grid, c_unwritten, c_written_twice, k_loop, k_past_end,
// numeric_mismatch, tile_order, not_positive, too_large); message names cores, rows and bytes.
struct SimFinding {
  std::string id;
  std::string message;
  int64_t count = 1;  // instances of this kind (cores outside the grid, ...)
};

struct SimResult {
  bool clean = true;
  std::vector<SimFinding> findings;  // one per id: the first (or worst) instance, and a count
  int64_t tiles = 0;
  int64_t k_steps = 0;  // per C tile
  bool numeric_run = false;
  std::vector<TileVisit> visits;  // kept when there are at most 4096 tiles (for the picture)
  bool Has(std::string_view id) const;
};

// Operand reads are modelled at the granule the copy moves: ND operands row by row, NZ operands
// in whole fractals (16 rows of the M or N dimension, C0 columns of K), so a tile that starts or
// ends inside a fractal shows as an access past the operand with its byte addresses.
SimResult Simulate(const Problem& p, const TCubeTiling& t, const SimOptions& options);
inline SimResult Simulate(const Problem& p, const TCubeTiling& t, bool numeric) {
  return Simulate(p, t, SimOptions{numeric, true});
}

// A picture of which core and which iteration writes each C tile (small grids only).
std::string SimPicture(const Problem& p, const TCubeTiling& t, const SimResult& r);

}  // namespace tcfuzz::oracle::ascend
