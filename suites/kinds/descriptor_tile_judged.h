// What the descriptor-tile judged suites (smem-hw-judged: wgmma, tcgen05-judged) share: the
// layouts of a run drawn once, a case's values as the kernels draw them (oracle/tile/
// device_drawn_tile.h), and the host's judgement of a kept tile by the general model.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "generators/core/source.h"
#include "generators/smem/descriptor_tile_gen.h"
#include "oracle/numerics/dot_product.h"
#include "suites/kinds/judged_worker.h"

namespace tcfuzz::suites {

// Whether every element of t's A and B lies inside the image, no two (of either) in one byte.
bool Placeable(const oracle::tile::DescriptorTile& t);
// `count` layouts of a run with base seed `seed`, drawn once per process: layout i is the first
// placeable tile `draw` returns from the streams "<suite>.layouts" i, i + count, ...
const std::vector<oracle::tile::DescriptorTile>& PlaceableLayouts(
    uint64_t seed, const std::string& suite, uint32_t count,
    const std::function<oracle::tile::DescriptorTile(gen::Source&)>& draw);
// Case `index` of `suite` with base seed `seed`, as the kernels build it: the layout its case seed
// picks from `layouts`, the recipe's values (oracle/tile/device_drawn_tile.h) placed by the
// oracle in an image of poison.
gen::GeneratedTile DrawJudgedTile(uint64_t seed, const char* suite,
                                  const std::vector<oracle::tile::DescriptorTile>& layouts,
                                  uint64_t index);
// A tile suite's families: each layout's TileFamily, and the layout a case's recipe picks.
void SetTileFamilies(JudgedSuiteHalf& half,
                     const std::vector<oracle::tile::DescriptorTile>& layouts, uint64_t seed,
                     const char* suite);

// The host's line for a kept tile whose D (row-major) came back: judged by the general model
// (suites/kinds/judged_worker.h JudgeKept).
std::string JudgeKeptTile(uint64_t index, const oracle::tile::DescriptorTile& t,
                          const std::vector<uint32_t>& d, bool device_failed);

// What a tile kernel's layout row holds of every tile: both descriptors, N, the type, the
// major-ness of A and B.
template <class Layout>
Layout TileLayoutOf(const oracle::tile::DescriptorTile& t) {
  Layout l;
  l.desc_a = t.a.desc;
  l.desc_b = t.b.desc;
  l.n = static_cast<uint16_t>(t.n);
  l.bf16 = t.ab == oracle::num::Format::kBF16;
  l.mn_a = t.a.view.major == oracle::smem::Major::kMN;
  l.mn_b = t.b.view.major == oracle::smem::Major::kMN;
  return l;
}

// A tile suite's launch of `layouts` on a device of numerics row `gpu`, with the device's `instr`
// rows (present: the suite's support predicate asked) and the generator's image size.
template <class Launch, class Layout>
Launch TileJudgedLaunchFor(std::span<const Layout> layouts, oracle::num::Gpu gpu,
                           oracle::num::Instr instr) {
  Launch l;
  l.layouts = layouts;
  const auto params = FastMmaParams(gpu, instr);
  l.f16 = params->first;
  l.bf16 = params->second;
  l.image_bytes = gen::kTileImageBytes;
  return l;
}

}  // namespace tcfuzz::suites
