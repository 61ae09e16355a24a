// The tile-per-case judged suites on a host backend (harness/judged_host.h): smem-hw-judged
// (wgmma) and tcgen05-judged. A case is the shared-memory image its threads' lane code builds
// (poison, then every element where the oracle's map puts it) with the layout's descriptors, in a
// call of the ABI's smem_mma with every case of its instruction; each thread's D is judged against
// its lane code's expected D, as the kernel's Judge step does.
#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "harness/judged_host.h"
#include "harness/judged_suites.h"
#include "harness/tcgen05_exec.h"
#include "harness/wgmma_exec.h"
#include "oracle/tile/device_drawn_tile.h"

namespace tcfuzz::harness {
namespace {

using oracle::num::Format;

// 64 tiles at once: 4 MiB of images (64 KiB each) and up to 8 MiB of D and expected D.
constexpr uint64_t kTileChunk = 64;

template <class Layout>
const Layout& LayoutOf(std::span<const Layout> layouts, uint64_t cs) {
  return layouts[oracle::tile::drawn::LayoutIndex(cs, static_cast<uint32_t>(layouts.size()))];
}

// The store the lane code places an element with: 16 bits, little-endian, into the tile's image.
auto StoreInto(uint8_t* image) {
  return [image](uint64_t byte, uint32_t bits) {
    image[byte] = static_cast<uint8_t>(bits);
    image[byte + 1] = static_cast<uint8_t>(bits >> 8);
  };
}

// The call's per-tile arrays sized for its tiles, the images poisoned.
void SizeTiles(SmemMmaCall& c, std::size_t tiles) {
  c.image.assign(tiles * c.fields.image_bytes, kTileJudgedPoison);
  c.a_desc.assign(tiles, 0);
  c.b_desc.assign(tiles, 0);
}

// Tile `slot` of the call as the kernel's threads build it: every thread's share of the elements
// placed by `place(thread, store)`, then the layout's descriptors.
template <class Layout, class Place>
void PlaceTile(SmemMmaCall& c, std::size_t slot, uint32_t image_bytes, const Layout& t, int threads,
               const Place& place) {
  const auto store = StoreInto(c.image.data() + slot * image_bytes);
  for (int thread = 0; thread < threads; ++thread) place(thread, store);
  c.a_desc[slot] = t.desc_a;
  c.b_desc[slot] = t.desc_b;
}

// What both tile judges share: the call type, its size and the backend's smem_mma.
struct TileJudge {
  using Call = SmemMmaCall;
  static constexpr uint64_t kChunk = kTileChunk;
  static oracle::Result<std::vector<uint32_t>> Execute(const Call& c) {
    return HostD(RunSmemMmaOnHost(c));
  }
};

}  // namespace

template <>
struct HostJudge<WgmmaJudgedLaunch> : TileJudge {
  // What a call shares: N, the type and both majors (the opcode's spelling).
  static uint32_t Group(const WgmmaJudgedLaunch& l, uint64_t cs) {
    const WgmmaJudgedLayout& t = LayoutOf(l.layouts, cs);
    return t.n | uint32_t{t.bf16} << 16 | uint32_t{t.mn_a} << 17 | uint32_t{t.mn_b} << 18;
  }
  static Call MakeCall(const WgmmaJudgedLaunch& l, uint32_t group, std::size_t cases) {
    WgmmaSpec s;
    s.ab = s.b_type = (group >> 16 & 1) ? Format::kBF16 : Format::kF16;
    s.d = Format::kF32;
    s.n = static_cast<int>(group & 0xFFFF);
    s.trans_a = static_cast<int>(group >> 17 & 1);
    s.trans_b = static_cast<int>(group >> 18 & 1);
    s.image_bytes = static_cast<int>(l.image_bytes);
    Call c = SmemMmaCallHead(s, static_cast<uint32_t>(cases));
    SizeTiles(c, cases);
    return c;
  }
  static std::size_t Words(const WgmmaJudgedLaunch&, uint32_t group) {
    return std::size_t{kWgmmaJudgedThreads} * (group & 0xFFFF) / 2;
  }
  static void Draw(const WgmmaJudgedLaunch& l, uint64_t cs, Call& c, std::size_t slot,
                   uint32_t* expected) {
    const WgmmaJudgedLayout& t = LayoutOf(l.layouts, cs);
    const auto v = std::make_unique<WgmmaJudgedValues>();
    PlaceTile(c, slot, l.image_bytes, t, kWgmmaJudgedThreads, [&](int thread, const auto& store) {
      PlaceShare(t, cs, thread, l.image_bytes, store, *v);
    });
    const int regs = t.n / 2;
    for (int thread = 0; thread < kWgmmaJudgedThreads; ++thread) {
      for (int x = 0; x < regs; ++x)
        expected[thread * regs + x] = ExpectedWgmmaD(t, *v, thread, x, t.bf16 ? l.bf16 : l.f16);
    }
  }
};

template <>
struct HostJudge<Tcgen05JudgedLaunch> : TileJudge {
  // What a call shares: N, the type and .ws (the majors travel in each tile's descriptor).
  static uint32_t Group(const Tcgen05JudgedLaunch& l, uint64_t cs) {
    const Tcgen05JudgedLayout& t = LayoutOf(l.layouts, cs);
    return t.n | uint32_t{t.bf16} << 16 | uint32_t{t.ws} << 17;
  }
  static Call MakeCall(const Tcgen05JudgedLaunch& l, uint32_t group, std::size_t cases) {
    Tcgen05Spec s;
    s.ab = s.b_type = (group >> 16 & 1) ? Format::kBF16 : Format::kF16;
    s.d = Format::kF32;
    s.n = static_cast<int>(group & 0xFFFF);
    s.ws = (group >> 17 & 1) != 0;
    s.image_bytes = static_cast<int>(l.image_bytes);
    Call c = SmemMmaCallHead(s, static_cast<uint32_t>(cases));
    SizeTiles(c, cases);
    c.idesc.assign(cases, 0);
    if (s.ws) c.zero_column_mask.assign(cases, 0);
    return c;
  }
  static std::size_t Words(const Tcgen05JudgedLaunch&, uint32_t group) {
    return std::size_t{kTcgen05JudgedThreads} * (group & 0xFFFF);
  }
  static void Draw(const Tcgen05JudgedLaunch& l, uint64_t cs, Call& c, std::size_t slot,
                   uint32_t* expected) {
    const Tcgen05JudgedLayout& t = LayoutOf(l.layouts, cs);
    const auto v = std::make_unique<Tcgen05JudgedValues>();
    PlaceTile(c, slot, l.image_bytes, t, kTcgen05JudgedThreads, [&](int thread, const auto& store) {
      PlaceTcgen05Share(t, cs, thread, l.image_bytes, store, *v);
    });
    c.idesc[slot] = t.idesc;
    if (t.ws) c.zero_column_mask[slot] = t.mask;
    // Thread t holds D's row t (tensor memory lane t), its columns in order.
    for (int row = 0; row < kTcgen05JudgedThreads; ++row) {
      for (int col = 0; col < t.n; ++col)
        expected[row * t.n + col] = ExpectedTcgen05D(t, *v, row, col, t.bf16 ? l.bf16 : l.f16);
    }
  }
};

template oracle::Result<JudgedResult> RunJudgedOnHost(const WgmmaJudgedLaunch&);
template oracle::Result<JudgedResult> RunJudgedOnHost(const Tcgen05JudgedLaunch&);

}  // namespace tcfuzz::harness
