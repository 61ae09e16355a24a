// The tiled execution a TCubeTiling describes, on the CPU (../shared/reference/
// ascend-tcubetiling.md §4): the sample kernel's core mapping (mIdx = block % mBlocks, nIdx =
// block / mBlocks, tails by min), the C-tile order of each iterateOrder with stepM/stepN, and
// the K loop with its tail: baseK steps (Norm) or L1 chunks of stepKa/stepKb (MDL, k_loop.h).
//
// Symbolic mode (up to 2^28 C tiles): every element of C written exactly once across cores, no
// access outside A, B or C. Numeric mode (small shapes): the tiled product of small-integer
// matrices (exact in every type) equals a plain matmul.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "oracle/ascend/tiling_rules.h"

namespace tcfuzz::oracle::ascend {

struct TileVisit {
  int core;
  int order;       // position in the core's iteration sequence
  int64_t m0, m1;  // C rows [m0, m1)
  int64_t n0, n1;  // C columns [n0, n1)
};

struct SimResult {
  bool clean = true;
  std::vector<std::string>
      findings;  // one line each: out-of-range access, double or missing write, mismatch
  int64_t tiles = 0;
  int64_t k_steps = 0;  // per C tile
  bool numeric_run = false;
  std::vector<TileVisit> visits;  // kept when there are at most 4096 tiles (for the picture)
};

// Stops collecting findings after 20 (the first ones name the problem).
SimResult Simulate(const Problem& p, const TCubeTiling& t, bool numeric);

// A picture of which core and which iteration writes each C tile (small grids only).
std::string SimPicture(const Problem& p, const TCubeTiling& t, const SimResult& r);

}  // namespace tcfuzz::oracle::ascend
