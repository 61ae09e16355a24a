// Minimizing a failing descriptor tile (a wgmma_tile reproducer of smem-hw or tcgen05) while the
// device still misreads the same D element. Every step keeps the operands' values and re-places
// them through the oracle's maps, so only the layout changes: N down to the smallest that still
// holds the element; each operand's descriptor reset to the simplest legal layout (K-major, no
// swizzle, compact strides, start on its region), else to compact strides with its own major and
// swizzle, else just its start moved back to the pattern start; then values zeroed: all but the
// misread element's A row and B column in one step, then halves, down to single values. A step is
// kept only when the signature is the same.
#pragma once

#include <functional>
#include <optional>
#include <vector>

#include "oracle/tile/descriptor_tile_text.h"
#include "suites/reduce/signature.h"

namespace tcfuzz::suites {

using TileEvaluator = std::function<Evaluation(const oracle::tile::DescriptorTileFile&)>;

struct TileMinimizeResult {
  oracle::tile::DescriptorTileFile minimized;
  int tries = 0;
  int accepted = 0;
};

// How many of A's and B's values are non-zero (what minimizing brings down).
std::size_t NonZeroValues(const oracle::tile::DescriptorTileFile& f);

TileMinimizeResult MinimizeTile(const oracle::tile::DescriptorTileFile& start,
                                const FailureSignature& signature, const TileEvaluator& evaluate,
                                int budget);

// The tile with descriptors `a`, `b` (and N = b.view.rows) and the given operand values placed
// through their maps on a fresh image of `fill`; nullopt when a map fails, leaves the image, or
// aliases two elements (the values would not read back).
std::optional<oracle::tile::DescriptorTile> Replace(const oracle::tile::DescriptorTile& t,
                                                    const oracle::smem::SmemCase& a,
                                                    const oracle::smem::SmemCase& b,
                                                    const std::vector<uint64_t>& a_values,
                                                    const std::vector<uint64_t>& b_values,
                                                    uint8_t fill);

// The operand on its region with this major and swizzle and the smallest LBO/SBO that the
// oracle's map keeps legal and free of aliasing; nullopt when the type does not allow them.
std::optional<oracle::smem::SmemCase> CompactLayout(const oracle::smem::SmemCase& c,
                                                    oracle::smem::Major major,
                                                    oracle::smem::Swizzle swizzle);

}  // namespace tcfuzz::suites
