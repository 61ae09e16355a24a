// What the two descriptor-tile host-run twins (smem-hw-judged, tcgen05-judged) share: the image
// a kernel's threads build, built on the host by the same lane code, and each case checked up to
// its D.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "generators/smem/descriptor_tile_gen.h"
#include "oracle/core/counter_hash.h"
#include "oracle/smem/smem_case.h"
#include "oracle/tile/descriptor_tile.h"
#include "oracle/tile/device_drawn_tile.h"

namespace tcfuzz::test {

// The image (poisoned with `poison`, then each thread's share placed) and values the kernel's
// `threads` threads build for case seed `cs` of layout `l`; `place` is the suite's share function
// (harness::PlaceShare, harness::PlaceTcgen05Share).
template <class Layout, class Values, class Place>
std::vector<uint8_t> BuildImageOnHost(const Layout& l, uint64_t cs, Values& v, int threads,
                                      uint8_t poison, const Place& place) {
  std::vector<uint8_t> image(gen::kTileImageBytes, poison);
  const auto store = [&image](uint64_t byte, uint32_t bits) {
    image[byte] = static_cast<uint8_t>(bits);
    image[byte + 1] = static_cast<uint8_t>(bits >> 8);
  };
  for (int thread = 0; thread < threads; ++thread) place(l, cs, thread, image.size(), store, v);
  return image;
}

// Case `index` of a tile-judged suite as its kernel takes it: the layout its case seed picks from
// `table`, which must have the generated tile's N, and the image its threads build on the host
// (`build(layout, case seed, values)`, values starting as garbage), which must be the generated
// tile's byte for byte. `layout` is null after a failure; `want` is the general model's D.
template <class Layout>
struct LaneCase {
  const Layout* layout = nullptr;
  std::vector<uint32_t> want;  // row-major
};
template <class Layout, class Values, class Build>
LaneCase<Layout> CheckLaneCase(const std::vector<Layout>& table, uint64_t key, uint64_t index,
                               const gen::GeneratedTile& g, Values& v, const Build& build) {
  const uint64_t cs = oracle::CaseSeedFromKey(key, index);
  const Layout& l =
      table[oracle::tile::drawn::LayoutIndex(cs, static_cast<uint32_t>(table.size()))];
  LaneCase<Layout> c;
  if (l.n != g.tile.n) {
    ADD_FAILURE() << "case " << index << ": the layout's N " << l.n << ", the tile's " << g.tile.n;
    return c;
  }
  std::memset(static_cast<void*>(&v), 0xA5, sizeof v);  // as uninitialized shared memory
  const std::vector<uint8_t> image = build(l, cs, v);
  if (image != g.tile.image) {
    std::size_t at = 0;
    while (at < image.size() && at < g.tile.image.size() && image[at] == g.tile.image[at]) ++at;
    ADD_FAILURE() << "case " << index << " N " << l.n << ": the image differs from byte " << at;
    return c;
  }
  const auto want = oracle::tile::TileReference(g.tile, /*general_only=*/true);
  if (!want.ok()) {
    ADD_FAILURE() << "case " << index << ": " << want.error();
    return c;
  }
  c.layout = &l;
  c.want = want.value();
  return c;
}

// A tile's layout kind: its type, and each operand's major-ness and swizzle.
inline std::string LayoutKind(oracle::smem::Arch arch, const oracle::tile::DescriptorTile& t) {
  const auto a = oracle::smem::DecodeMatrix(arch, t.a.desc);
  const auto b = oracle::smem::DecodeMatrix(arch, t.b.desc);
  return std::string(oracle::num::Name(t.ab)) + " " + std::string(Name(t.a.view.major)) +
         std::string(a ? Name(a->swizzle) : "?") + " " + std::string(Name(t.b.view.major)) +
         std::string(b ? Name(b->swizzle) : "?");
}

}  // namespace tcfuzz::test
