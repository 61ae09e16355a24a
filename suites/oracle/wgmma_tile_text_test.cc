// The wgmma_tile text form (the smem-hw and tcgen05 reproducers): what is written reads back to
// the same tile and D, and every malformed file is one error naming its line. Also the
// break-one tiles the smem-hw suite runs as "undefined by spec".
#include "oracle/wgmma/wgmma_tile_text.h"

#include <gtest/gtest.h>

#include "generators/core/random_source.h"
#include "generators/smem/wgmma_tile_gen.h"
#include "suites/support/test_seed.h"

namespace tcfuzz::oracle::wgmma {
namespace {

Result<WgmmaTileFile> Read(const std::string& text) {
  auto doc = TextDoc::Parse(text);
  if (!doc.ok()) return Result<WgmmaTileFile>::Fail(doc.error());
  return WgmmaTileFromDoc(doc.value());
}

TEST(WgmmaTileText, WrittenTilesReadBackToTheSameImageDescriptorsAndD) {
  gen::RandomSource s(test::Seed());
  for (int i = 0; i < 30; ++i) {
    const gen::GeneratedWgmma g = i % 3 == 0 ? gen::DrawWgmmaTile(s) : gen::DrawTcgen05Tile(s, i % 3 == 1);
    const auto d = WgmmaReference(g.tile);
    ASSERT_TRUE(d.ok()) << d.error();
    TextWriter w(kWgmmaTileKind);
    AppendWgmmaTile(w, g.tile, g.fill, &d.value());
    const auto back = Read(w.str());
    ASSERT_TRUE(back.ok()) << back.error();
    const WgmmaTile& t = back.value().tile;
    EXPECT_EQ(t.image, g.tile.image);
    EXPECT_EQ(t.a, g.tile.a);
    EXPECT_EQ(t.b, g.tile.b);
    EXPECT_EQ(t.zero_column_mask, g.tile.zero_column_mask);
    EXPECT_EQ(std::tie(t.ab, t.b_type, t.d, t.n), std::tie(g.tile.ab, g.tile.b_type, g.tile.d, g.tile.n));
    EXPECT_EQ(back.value().observed, d.value());
    EXPECT_EQ(WgmmaReference(t).value(), d.value());
  }
}

TEST(WgmmaTileText, MalformedFilesAreOneLineErrorsNamingTheLine) {
  gen::RandomSource s(5);
  const gen::GeneratedWgmma g = gen::DrawWgmmaTile(s);
  TextWriter w(kWgmmaTileKind);
  AppendWgmmaTile(w, g.tile, g.fill);
  const std::string good = w.str();
  ASSERT_TRUE(Read(good).ok());
  const auto error_with = [&](const std::string& extra) {
    const auto r = Read(good + extra);
    EXPECT_FALSE(r.ok()) << extra;
    return r.ok() ? std::string() : r.error();
  };
  EXPECT_NE(error_with("bogus = 1\n").find("unknown key"), std::string::npos);
  EXPECT_NE(error_with("image.0ffff = 0102\n").find("runs past image.bytes"), std::string::npos);
  EXPECT_NE(error_with("image.0fffd = 012\n").find("odd number of hex digits"), std::string::npos);
  EXPECT_NE(error_with("image.0fffd = 01zz\n").find("not a hex byte"), std::string::npos);
  EXPECT_NE(error_with("image.xyz = 01\n").find("the offset is not hex"), std::string::npos);
  EXPECT_NE(error_with("observed.0 = 1 2 3\n").find("expected " + std::to_string(g.tile.n)), std::string::npos);
  for (const std::string& e : {error_with("image.0ffff = 0102\n"), error_with("bogus = 1\n")}) {
    EXPECT_EQ(e.rfind("line ", 0), 0u) << e;
    EXPECT_EQ(e.find('\n'), std::string::npos) << e;
  }
  std::string no_n = good;
  no_n.erase(no_n.find("n = "), no_n.find('\n', no_n.find("n = ")) - no_n.find("n = ") + 1);
  EXPECT_EQ(Read(no_n).error(), "missing required key 'n'");
}

TEST(WgmmaTileGen, BreakOneDescriptorBreaksExactlyOneRuleOfOneOperand) {
  gen::RandomSource s(test::Seed());
  for (int i = 0; i < 200; ++i) {
    gen::GeneratedWgmma g = i % 2 ? gen::DrawWgmmaTile(s) : gen::DrawTcgen05Tile(s, false);
    gen::BreakOneDescriptor(s, g);
    ASSERT_NE(g.broken, nullptr);
    const auto va = smem::Validate(g.tile.a), vb = smem::Validate(g.tile.b);
    std::set<std::string> ids = va.RuleIds();
    const auto b_ids = vb.RuleIds();
    ids.insert(b_ids.begin(), b_ids.end());
    EXPECT_EQ(ids, std::set<std::string>{std::string(g.broken->id)}) << g.broken->id;
    EXPECT_TRUE(va.legal() || vb.legal());
  }
}

}  // namespace
}  // namespace tcfuzz::oracle::wgmma
