// What the two descriptor-tile host-run twins (smem-hw-judged, tcgen05-judged) share: the image
// a kernel's threads build, built on the host by the same lane code.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "generators/smem/descriptor_tile_gen.h"
#include "oracle/smem/smem_case.h"

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

// A tile's layout kind: its type, and each operand's major-ness and swizzle.
inline std::string LayoutKind(oracle::smem::Arch arch, const oracle::tile::DescriptorTile& t) {
  const auto a = oracle::smem::DecodeMatrix(arch, t.a.desc);
  const auto b = oracle::smem::DecodeMatrix(arch, t.b.desc);
  return std::string(oracle::num::Name(t.ab)) + " " + std::string(Name(t.a.view.major)) +
         std::string(a ? Name(a->swizzle) : "?") + " " + std::string(Name(t.b.view.major)) +
         std::string(b ? Name(b->swizzle) : "?");
}

}  // namespace tcfuzz::test
