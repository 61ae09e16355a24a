// `tcfuzz replay` of a wgmma_tile file whose descriptors break a rule: undefined by spec, never a
// failure, and its note holds the device's D against the reading of the descriptors as decoded, as
// a device run's record does. The expected D is never the oracle's: an all-zero image, or a D an
// H100 returned for the same reading.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "generators/core/random_source.h"
#include "generators/smem/descriptor_tile_gen.h"
#include "oracle/tile/descriptor_tile_text.h"
#include "suites/kinds/descriptor_tile_cases.h"
#include "suites/tests/support/test_seed.h"

namespace tcfuzz::suites {
namespace {

using oracle::tile::DescriptorTile;

// A file that does not read or replay comes back as a failure, so the test fails, not crashes.
Replayed ReplayText(const std::string& text) {
  const auto doc = oracle::TextDoc::Parse(text);
  if (!doc.ok()) return {{{"test.parse", doc.error()}}, {}};
  const auto r = ReplayDescriptorTile(doc.value());
  if (!r.ok()) return {{{"test.replay", r.error()}}, {}};
  return r.value();
}

std::string TileText(const DescriptorTile& t, uint8_t fill, const std::vector<uint32_t>* d) {
  oracle::TextWriter w(oracle::tile::kDescriptorTileKind);
  oracle::tile::AppendDescriptorTile(w, t, fill, d);
  return w.str();
}

std::string Undefined(const DescriptorTile& t) {
  return "breaks " + BrokenRules(t) +
         ": undefined by spec, what a device returns is recorded, not judged; ";
}

// The note's end for a D that differs first at element `at`, as the device worker's record names
// it.
std::string Differs(std::size_t at, int cols, uint32_t oracle_word, uint32_t device_word) {
  char b[96];
  std::snprintf(b, sizeof b, "D[%zu][%zu] oracle %08x device %08x",
                at / static_cast<std::size_t>(cols), at % static_cast<std::size_t>(cols),
                oracle_word, device_word);
  return "differs from the as-if reading, " + std::string(b);
}

// With an all-zero image and no C, every element any reading reads is +0 (in f16, bf16, tf32,
// e4m3, e5m2 and the integers alike), so D is all zero bits under every reading that stays
// inside the image: "as-if" for zeros, "differs" at the one element set to other bits.
TEST(DescriptorTileReplay, ABrokenTilesNoteHoldsItsDAgainstTheAsIfReading) {
  gen::RandomSource s(test::Seed());
  int as_if = 0, none = 0;
  for (int i = 0; i < 60; ++i) {
    const uint64_t which = static_cast<uint64_t>(i) % 5;
    gen::GeneratedTile g = which == 0   ? gen::DrawWgmmaSpTile(s)
                           : which == 1 ? gen::DrawWgmmaTile(s)
                           : which == 2 ? gen::DrawTcgen05SpTile(s)
                                        : gen::DrawTcgen05Tile(s, which == 3);
    gen::BreakOneDescriptor(s, g);
    std::fill(g.tile.image.begin(), g.tile.image.end(), uint8_t{0});
    g.tile.c.clear();
    ASSERT_FALSE(BrokenRules(g.tile).empty());
    const std::size_t size =
        static_cast<std::size_t>(g.tile.a.view.rows) * static_cast<std::size_t>(g.tile.n);
    const std::vector<uint32_t> zeros(size);
    std::vector<uint32_t> one_off = zeros;
    const std::size_t at = size / 2;
    one_off[at] = 0x3c00;  // any bits but +0's: 1.0 in f16, a denormal in f32, 15360 in s32

    const Replayed agrees = ReplayText(TileText(g.tile, 0, &zeros));
    const Replayed differs = ReplayText(TileText(g.tile, 0, &one_off));
    const Replayed bare = ReplayText(TileText(g.tile, 0, nullptr));
    const std::string undefined = Undefined(g.tile);
    for (const Replayed* r : {&agrees, &differs, &bare}) {
      for (const CheckFailure& f : r->failures) ADD_FAILURE() << f.check << ": " << f.message;
      EXPECT_TRUE(r->note.starts_with(undefined)) << r->note;
    }
    if (agrees.note.starts_with(undefined + "no as-if reading (")) {
      // Past the image or an invalid swizzle code: no reading to hold any D against.
      EXPECT_TRUE(differs.note.starts_with(undefined + "no as-if reading (")) << differs.note;
      EXPECT_TRUE(bare.note.starts_with(undefined + "no as-if reading (")) << bare.note;
      ++none;
      continue;
    }
    EXPECT_EQ(agrees.note, undefined + "as-if");
    EXPECT_TRUE(differs.note.ends_with(Differs(at, g.tile.n, 0, 0x3c00))) << differs.note;
    EXPECT_EQ(bare.note, undefined + "no device D in the file to hold against the as-if reading");
    ++as_if;
  }
  EXPECT_GE(as_if, 15) << none << " had no as-if reading";
}

// Non-zero values: the smem-hw deciding tiles with the D an H100 returned (corpus/smem_hw/deciding,
// docs/doc-vs-hardware.md), A's descriptor given bit 14, which wgmma.smem.reserved_14_15 keeps 0
// and no field reads (the start address is bits 0..13, PTX ISA 9.1 §9.7.15.5.1.2.2,
// #asynchronous-warpgroup-level-matrix-shared-memory-layout-matrix-descriptor). As decoded, the
// broken tile reads what the legal one did, so the H100's D is its as-if D.
TEST(DescriptorTileReplay, AReservedBitBreakHoldsTheH100sDAsIf) {
  int captured = 0;
  const std::string dir = std::string(TCFUZZ_SOURCE_DIR) + "/corpus/smem_hw/deciding";
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    std::ifstream in(entry.path());
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const auto doc = oracle::TextDoc::Parse(text);
    ASSERT_TRUE(doc.ok()) << entry.path() << ": " << doc.error();
    auto f = oracle::tile::DescriptorTileFromDoc(doc.value());
    ASSERT_TRUE(f.ok()) << entry.path() << ": " << f.error();
    if (!f.value().observed) continue;
    DescriptorTile t = f.value().tile;
    t.a.desc |= uint64_t{1} << 14;
    ASSERT_EQ(BrokenRules(t), "wgmma.smem.reserved_14_15") << entry.path();
    std::vector<uint32_t> d = *f.value().observed;
    const Replayed agrees = ReplayText(TileText(t, f.value().fill, &d));
    EXPECT_TRUE(agrees.failures.empty()) << entry.path();
    EXPECT_EQ(agrees.note, Undefined(t) + "as-if") << entry.path();
    const std::size_t at = d.size() - 1;
    const uint32_t h100 = d[at];
    d[at] ^= 1;  // the last element's lowest bit: differs from the H100 there and only there
    const Replayed differs = ReplayText(TileText(t, f.value().fill, &d));
    EXPECT_TRUE(differs.note.ends_with(Differs(at, t.n, h100, d[at])))
        << entry.path() << ": " << differs.note;
    ++captured;
  }
  EXPECT_GE(captured, 17);
}

}  // namespace
}  // namespace tcfuzz::suites
