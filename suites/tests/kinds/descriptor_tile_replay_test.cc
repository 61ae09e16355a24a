// `tcfuzz replay` of a wgmma_tile file whose descriptors break a rule: undefined by spec, never a
// failure, and its note holds the device's D against the reading of the descriptors as decoded, as
// a device run's record does. The expected D is derived here, not by the oracle: with an all-zero
// image and no C, every element any reading reads is +0, so D is +0 (all bits 0) under every
// reading that stays inside the image.
#include <gtest/gtest.h>

#include <algorithm>

#include "generators/core/random_source.h"
#include "generators/smem/descriptor_tile_gen.h"
#include "oracle/tile/descriptor_tile_text.h"
#include "suites/kinds/descriptor_tile_cases.h"
#include "suites/tests/support/test_seed.h"

namespace tcfuzz::suites {
namespace {

Replayed ReplayText(const std::string& text) {
  const auto doc = oracle::TextDoc::Parse(text);
  EXPECT_TRUE(doc.ok()) << doc.error();
  const auto r = ReplayDescriptorTile(doc.value());
  EXPECT_TRUE(r.ok()) << r.error();
  return r.ok() ? r.value() : Replayed{};
}

std::string TileText(const oracle::tile::DescriptorTile& t, const std::vector<uint32_t>* d) {
  oracle::TextWriter w(oracle::tile::kDescriptorTileKind);
  oracle::tile::AppendDescriptorTile(w, t, 0, d);
  return w.str();
}

TEST(DescriptorTileReplay, ABrokenTilesNoteHoldsItsDAgainstTheAsIfReading) {
  gen::RandomSource s(test::Seed());
  int as_if = 0, none = 0;
  for (int i = 0; i < 40; ++i) {
    gen::GeneratedTile g = i % 2 ? gen::DrawWgmmaTile(s) : gen::DrawTcgen05Tile(s, false);
    gen::BreakOneDescriptor(s, g);
    std::fill(g.tile.image.begin(), g.tile.image.end(), uint8_t{0});
    g.tile.c.clear();
    const std::string rules = BrokenRules(g.tile);
    ASSERT_FALSE(rules.empty());
    std::vector<uint32_t> zeros(static_cast<std::size_t>(g.tile.a.view.rows) *
                                static_cast<std::size_t>(g.tile.n));
    std::vector<uint32_t> one_off = zeros;
    one_off[one_off.size() / 2] = 0x3c00;  // 1.0 as f16, a denormal as f32: not +0 either way
    const std::string undefined =
        "breaks " + rules + ": undefined by spec, what a device returns is recorded, not judged; ";

    const Replayed agrees = ReplayText(TileText(g.tile, &zeros));
    const Replayed differs = ReplayText(TileText(g.tile, &one_off));
    const Replayed bare = ReplayText(TileText(g.tile, nullptr));
    for (const Replayed* r : {&agrees, &differs, &bare}) {
      EXPECT_TRUE(r->failures.empty()) << r->note;
      EXPECT_TRUE(r->note.starts_with(undefined)) << r->note;
    }
    if (agrees.note.find("no as-if reading (") != std::string::npos) {
      // Past the image: no reading to hold any D against, with or without one.
      EXPECT_NE(differs.note.find("no as-if reading ("), std::string::npos) << differs.note;
      EXPECT_NE(bare.note.find("no as-if reading ("), std::string::npos) << bare.note;
      ++none;
      continue;
    }
    EXPECT_EQ(agrees.note, undefined + "as-if");
    EXPECT_NE(differs.note.find("differs from the as-if reading, "), std::string::npos)
        << differs.note;
    EXPECT_EQ(bare.note, undefined + "no device D in the file to hold against the as-if reading");
    ++as_if;
  }
  EXPECT_GE(as_if, 10) << none << " had no as-if reading";
}

}  // namespace
}  // namespace tcfuzz::suites
