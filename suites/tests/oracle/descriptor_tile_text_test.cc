// The wgmma_tile text form (the smem-hw and tcgen05 reproducers): what is written reads back to
// the same tile and D, and every malformed file is one error naming its line. Also the
// break-one tiles the smem-hw suite runs as "undefined by spec".
#include "oracle/tile/descriptor_tile_text.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "generators/core/random_source.h"
#include "generators/smem/descriptor_tile_gen.h"
#include "oracle/smem/smem_case.h"
#include "suites/tests/support/test_seed.h"

namespace tcfuzz::oracle::tile {
namespace {

Result<DescriptorTileFile> Read(const std::string& text) {
  auto doc = TextDoc::Parse(text);
  if (!doc.ok()) return Result<DescriptorTileFile>::Fail(doc.error());
  return DescriptorTileFromDoc(doc.value());
}

TEST(WgmmaTileText, WrittenTilesReadBackToTheSameImageDescriptorsAndD) {
  gen::RandomSource s(test::Seed());
  for (int i = 0; i < 50; ++i) {
    const gen::GeneratedTile g = i % 5 == 0   ? gen::DrawWgmmaTile(s)
                                 : i % 5 == 3 ? gen::DrawWgmmaSpTile(s)
                                 : i % 5 == 4 ? gen::DrawTcgen05SpTile(s)
                                              : gen::DrawTcgen05Tile(s, i % 5 == 1);
    const auto d = TileReference(g.tile);
    ASSERT_TRUE(d.ok()) << d.error();
    TextWriter w(kDescriptorTileKind);
    AppendDescriptorTile(w, g.tile, g.fill, &d.value());
    const auto back = Read(w.str());
    ASSERT_TRUE(back.ok()) << back.error();
    const DescriptorTile& t = back.value().tile;
    EXPECT_EQ(t.image, g.tile.image);
    EXPECT_EQ(t.a, g.tile.a);
    EXPECT_EQ(t.b, g.tile.b);
    EXPECT_EQ(t.zero_column_mask, g.tile.zero_column_mask);
    EXPECT_EQ(t.sparse, g.tile.sparse);
    EXPECT_EQ(std::tie(t.ab, t.b_type, t.d, t.n),
              std::tie(g.tile.ab, g.tile.b_type, g.tile.d, g.tile.n));
    EXPECT_EQ(back.value().observed, d.value());
    EXPECT_EQ(TileReference(t).value(), d.value());
  }
}

// The image is written as its runs of bytes other than the fill, at most 64 to a line, each keyed
// by its offset: runs across and on 8-byte boundaries, one longer than a line, one at the end.
TEST(WgmmaTileText, ImageLinesAreTheRunsOfBytesOtherThanTheFill) {
  gen::RandomSource s(test::Seed());
  DescriptorTile t = gen::DrawWgmmaTile(s).tile;
  const uint8_t fill = 0x5a;
  t.image.assign(160, fill);
  t.image[7] = 0x01;  // across a word boundary
  t.image[8] = 0x02;
  for (int i = 16; i < 24; ++i) t.image[static_cast<size_t>(i)] = 0x5b;  // one whole word
  for (int i = 32; i < 102; ++i) t.image[static_cast<size_t>(i)] = static_cast<uint8_t>(i ^ 0x80);
  t.image[159] = 0x00;  // the last byte
  std::string long_run, tail;
  char two[3];
  for (int i = 32; i < 102; ++i) {
    std::snprintf(two, sizeof two, "%02x", i ^ 0x80);
    (i < 96 ? long_run : tail) += two;
  }
  const std::vector<std::pair<std::string, std::string>> want = {
      {"image.00007", "0102"},
      {"image.00010", "5b5b5b5b5b5b5b5b"},
      {"image.00020", long_run},
      {"image.00060", tail},
      {"image.0009f", "00"}};
  TextWriter w(kDescriptorTileKind);
  AppendDescriptorTile(w, t, fill, nullptr);
  const auto doc = TextDoc::Parse(w.str());
  ASSERT_TRUE(doc.ok()) << doc.error();
  std::vector<std::pair<std::string, std::string>> got;
  for (const TextEntry& e : doc.value().entries()) {
    if (e.key.starts_with("image.0")) got.emplace_back(e.key, e.value);
  }
  EXPECT_EQ(got, want);
  const auto back = Read(w.str());
  ASSERT_TRUE(back.ok()) << back.error();
  EXPECT_EQ(back.value().tile.image, t.image);
  // An image of fill alone has no lines.
  t.image.assign(160, fill);
  TextWriter empty(kDescriptorTileKind);
  AppendDescriptorTile(empty, t, fill, nullptr);
  EXPECT_EQ(empty.str().find("image.0"), std::string::npos) << empty.str();
}

TEST(WgmmaTileText, MalformedFilesAreOneLineErrorsNamingTheLine) {
  gen::RandomSource s(5);
  const gen::GeneratedTile g = gen::DrawWgmmaTile(s);
  TextWriter w(kDescriptorTileKind);
  AppendDescriptorTile(w, g.tile, g.fill);
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
  EXPECT_NE(error_with("observed.0 = 1 2 3\n").find("expected " + std::to_string(g.tile.n)),
            std::string::npos);
  for (const std::string& e : {error_with("image.0ffff = 0102\n"), error_with("bogus = 1\n")}) {
    EXPECT_EQ(e.rfind("line ", 0), 0u) << e;
    EXPECT_EQ(e.find('\n'), std::string::npos) << e;
  }
  // Shapes the kernels cannot run are refused by the parser, each with one line.
  const auto with_value = [&](const std::string& key, const std::string& value) {
    std::string text = good;
    const std::size_t at = text.find("\n" + key + " = ") + 1;
    text.replace(at, text.find('\n', at) - at, key + " = " + value);
    const auto r = Read(text);
    return r.ok() ? std::string("accepted") : r.error();
  };
  EXPECT_EQ(with_value("n", "6"), "n: must be a multiple of 8");
  EXPECT_EQ(with_value("a.rows", "128"), "a.rows: M is 64 for wgmma (sm_90a) and 128 for tcgen05");
  EXPECT_EQ(with_value("a.dtype", g.tile.ab == num::Format::kTF32 ? "f16" : "tf32"),
            "a.dtype: must be ab's type");
  EXPECT_EQ(with_value("image.bytes", "100"), "image.bytes: must be a multiple of 16");
  EXPECT_NE(with_value("image.bytes", "262144").find("exceeds the maximum"), std::string::npos);
  // A selector past what the sparse form's threads hold (a thread pair: 0 or 1; all four: 0).
  gen::GeneratedTile sp = gen::DrawWgmmaSpTile(s);
  TextWriter spw(kDescriptorTileKind);
  AppendDescriptorTile(spw, sp.tile, sp.fill);
  std::string sp_text = spw.str();
  const std::size_t sel = sp_text.find("sparse.selector = ");
  sp_text.replace(sel, sp_text.find('\n', sel) - sel, "sparse.selector = 3");
  EXPECT_NE(Read(sp_text).error().find("sparse.selector"), std::string::npos);
  // tcgen05.mma.sp tiles read back; with a zero-column mask (.ws.sp) there is no kernel.
  gen::GeneratedTile tsp = gen::DrawTcgen05SpTile(s);
  TextWriter tw(kDescriptorTileKind);
  AppendDescriptorTile(tw, tsp.tile, tsp.fill);
  ASSERT_TRUE(Read(tw.str()).ok()) << Read(tw.str()).error();
  EXPECT_NE(Read(tw.str() + "zero_column_mask = 0x0\n").error().find("no tcgen05.mma.ws.sp"),
            std::string::npos);
  std::string no_n = good;
  no_n.erase(no_n.find("n = "), no_n.find('\n', no_n.find("n = ")) - no_n.find("n = ") + 1);
  EXPECT_EQ(Read(no_n).error(), "missing required key 'n'");
}

TEST(WgmmaTileGen, BreakOneDescriptorBreaksExactlyOneRuleOfOneOperand) {
  gen::RandomSource s(test::Seed());
  for (int i = 0; i < 200; ++i) {
    gen::GeneratedTile g = i % 2 ? gen::DrawWgmmaTile(s) : gen::DrawTcgen05Tile(s, false);
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
}  // namespace tcfuzz::oracle::tile

namespace tcfuzz::oracle::tile {
namespace {

// A deciding file of corpus/<dir>: its name (stem), text form and tile.
struct DecidingFile {
  std::string name;
  TextDoc doc;
  DescriptorTileFile file;
};

// Every file of the corpus folder, read and parsed; one that does not parse fails the test.
std::vector<DecidingFile> DecidingFiles(const std::string& corpus_dir) {
  std::vector<DecidingFile> out;
  for (const auto& entry :
       std::filesystem::directory_iterator(std::string(TCFUZZ_SOURCE_DIR) + "/" + corpus_dir)) {
    std::ifstream in(entry.path());
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const auto doc = TextDoc::Parse(text);
    const auto f = doc.ok() ? DescriptorTileFromDoc(doc.value())
                            : Result<DescriptorTileFile>::Fail(doc.error());
    if (!f.ok()) {
      ADD_FAILURE() << entry.path() << ": " << f.error();
      continue;
    }
    out.push_back({entry.path().stem().string(), doc.value(), f.value()});
  }
  return out;
}

// The deciding cases of the descriptor rows of docs/doc-vs-hardware.md (corpus/smem_hw/deciding,
// run on a device by gpu_tests' SmemHwDeciding): each file reads, is legal, is a probe tile the
// oracle computes, and has the layout its name claims (checked here from the descriptor bits).
TEST(SmemHwDeciding, EachFileHasTheLayoutItsNameClaims) {
  int files = 0;
  for (const DecidingFile& d : DecidingFiles("corpus/smem_hw/deciding")) {
    const std::string& name = d.name;
    const DescriptorTile& t = d.file.tile;
    EXPECT_TRUE(smem::Validate(t.a).legal() && smem::Validate(t.b).legal()) << name;
    EXPECT_TRUE(TileReference(t).ok()) << name;
    EXPECT_EQ(d.doc.String("origin.mode").value(), "probe") << name;
    const smem::SmemCase& c = name.find("_a_") != std::string::npos ? t.a : t.b;
    const auto m = smem::DecodeMatrix(c.arch, c.desc);
    ASSERT_TRUE(m.has_value()) << name;
    const auto has = [&name](const char* token) { return name.find(token) != std::string::npos; };
    if (has("_128b")) {
      EXPECT_EQ(m->swizzle, smem::Swizzle::k128B) << name;
    }
    if (has("_64b")) {
      EXPECT_EQ(m->swizzle, smem::Swizzle::k64B) << name;
    }
    if (has("_32b")) {
      EXPECT_EQ(m->swizzle, smem::Swizzle::k32B) << name;
    }
    if (has("_none")) {
      EXPECT_EQ(m->swizzle, smem::Swizzle::kNone) << name;
    }
    if (has("kmajor")) {
      EXPECT_EQ(c.view.major, smem::Major::kK) << name;
    }
    if (has("_mn")) {
      EXPECT_EQ(c.view.major, smem::Major::kMN) << name;
    }
    if (has("base_offset_nonzero")) {
      EXPECT_NE(m->base_offset, 0) << name;
    }
    if (const std::size_t at = name.find("base_offset_");
        at != std::string::npos && !has("nonzero")) {
      EXPECT_EQ(m->base_offset, std::stoi(name.substr(at + 12))) << name;
    }
    if (has("lbo_max")) {
      EXPECT_EQ(m->lbo, 0x3FFF0u) << name;
    }
    if (has("lbo_lt_sbo")) {
      EXPECT_LT(m->lbo, m->sbo) << name;
    }
    if (has("lbo_gt_sbo")) {
      EXPECT_GT(m->lbo, m->sbo) << name;
    }
    if (has("start_inside_row")) {
      EXPECT_NE(m->start, *c.pattern_start) << name;
    }
    ++files;
  }
  EXPECT_GE(files, 17);
}

// Our own H100 captures of the same files (observed.* rows, written by gpu_tests' SmemHwDeciding
// with TCFUZZ_CAPTURE_DIR): the oracle must reproduce the D the device returned for every one,
// so a change to the address maps that contradicts the hardware fails here without a GPU.
TEST(SmemHwDeciding, OracleReproducesTheH100Captures) {
  int captured = 0;
  for (const DecidingFile& d : DecidingFiles("corpus/smem_hw/deciding")) {
    if (!d.file.observed) continue;
    EXPECT_TRUE(d.doc.String("origin.device").value().starts_with("NVIDIA H100")) << d.name;
    EXPECT_EQ(TileReference(d.file.tile).value(), *d.file.observed) << d.name;
    ++captured;
  }
  EXPECT_GE(captured, 17);
}

}  // namespace
}  // namespace tcfuzz::oracle::tile

namespace tcfuzz::oracle::tile {
namespace {

// The deciding tiles of spec choice S7 (corpus/tcgen05_hw/deciding, run on a CC 10.x device by
// gpu_tests' Tcgen05Deciding): probe tiles whose MN-major tf32 operand uses 128B swizzle with
// 32-byte atoms and an SBO other than 512, checked here from the descriptor bits; and each one
// decides: the 8-row reading reads other bytes for K rows 4..7, so its D differs from tcfuzz's.
TEST(Tcgen05Deciding, EachFileDecidesS7) {
  int files = 0;
  for (const DecidingFile& d : DecidingFiles("corpus/tcgen05_hw/deciding")) {
    const std::string& name = d.name;
    const DescriptorTile& t = d.file.tile;
    EXPECT_EQ(d.doc.String("origin.mode").value(), "probe") << name;
    EXPECT_EQ(d.doc.String("origin.question").value(), "S7") << name;
    EXPECT_TRUE(smem::Validate(t.a).legal() && smem::Validate(t.b).legal()) << name;
    EXPECT_EQ(t.a.arch, smem::Arch::kSm100a) << name;
    const smem::SmemCase& c = name.find("_a_") != std::string::npos ? t.a : t.b;
    const auto m = smem::DecodeMatrix(c.arch, c.desc);
    ASSERT_TRUE(m.has_value()) << name;
    EXPECT_EQ(m->swizzle, smem::Swizzle::k128B32BAtom) << name;
    EXPECT_EQ(c.view.major, smem::Major::kMN) << name;
    EXPECT_EQ(c.view.dtype, smem::DType::kTF32) << name;
    EXPECT_EQ(m->sbo, std::stoull(name.substr(name.find("sbo_") + 4))) << name;
    EXPECT_NE(m->sbo, 512u) << name;
    const auto ours = TileReference(t);
    const auto eight =
        TileReference(AsReadUnder(t, spec_choice::Base32BAtomKRows::kEightAsOtherModes));
    ASSERT_TRUE(ours.ok() && eight.ok()) << name;
    EXPECT_NE(ours.value(), eight.value()) << name << ": the two readings of S7 give the same D";
    EXPECT_EQ(TileReference(AsReadUnder(t, spec_choice::Base32BAtomKRows::kTable55Four)).value(),
              ours.value())
        << name;
    // Once a Blackwell has run the file (observed.* rows, TCFUZZ_CAPTURE_DIR), the oracle must
    // reproduce what it returned on every machine.
    if (d.file.observed) {
      EXPECT_EQ(ours.value(), *d.file.observed)
          << name << " (" << d.doc.String("origin.device").value() << ")";
    }
    ++files;
  }
  EXPECT_GE(files, 3);
}

}  // namespace
}  // namespace tcfuzz::oracle::tile
