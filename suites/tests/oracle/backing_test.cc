// The one table of readings (oracle/core/backing.h): well formed, every id the oracle's
// ReadingsOf functions and numerics rows name is in it, and it agrees with the rows of
// docs/doc-vs-hardware.md.
#include "oracle/core/backing.h"

#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <set>
#include <string>

#include "generators/core/random_source.h"
#include "generators/smem/descriptor_tile_gen.h"
#include "generators/smem/smem_descriptor_gen.h"
#include "oracle/mma/dense_mma.h"
#include "oracle/numerics/dot_product.h"
#include "oracle/sparse/sparse_metadata.h"
#include "oracle/tile/descriptor_tile.h"
#include "suites/tests/support/test_seed.h"

namespace tcfuzz::oracle {
namespace {

TEST(Backing, TableIsWellFormed) {
  std::set<std::string_view> ids;
  for (const BackedReading& r : BackedReadings()) {
    EXPECT_TRUE(ids.insert(r.id).second) << "duplicate " << r.id;
    EXPECT_FALSE(r.reading.empty()) << r.id;
    EXPECT_FALSE(r.basis.empty()) << r.id;
    // Hardware names where it was seen; nothing else may claim a target.
    EXPECT_EQ(r.backing == Backing::kHardware, !r.seen_on.empty()) << r.id;
    EXPECT_EQ(FindReading(r.id), &r);
  }
  EXPECT_EQ(FindReading("no such reading"), nullptr);
}

TEST(Backing, HardwareHoldsWhereItWasSeenOnly) {
  EXPECT_EQ(BackingOf("N4", "sm_90"), Backing::kHardware);
  EXPECT_EQ(BackingOf("N4", "sm_80"), Backing::kHypothesis);
  EXPECT_EQ(BackingOf("N4"), Backing::kHardware);  // no target: as recorded
  EXPECT_EQ(BackingOf("S7", "sm_100"), Backing::kSpec);
  EXPECT_EQ(BackingOf("TM1", "sm_100"), Backing::kHypothesis);
  EXPECT_EQ(BackingOf("R80-mma", "sm_86"), Backing::kHypothesis);  // A100 captures, not an RTX 30
  EXPECT_EQ(BackingOf("unknown id", "sm_90"), Backing::kHypothesis);
}

// Every id the oracle hands out names a reading of the table.
TEST(Backing, EveryReadingTheOracleNamesIsInTheTable) {
  const auto known = [](std::string_view id) { return FindReading(id) != nullptr; };
  for (const num::NumericsRow& r : num::NumericsRows())
    EXPECT_TRUE(known(r.params.row)) << r.params.row;
  for (const sparse::SparseForm& f : sparse::AllForms()) {
    for (const sparse::Variant v : {sparse::Variant::kSp, sparse::Variant::kOrdered}) {
      for (std::string_view id : sparse::ReadingsOf(f, v)) EXPECT_TRUE(known(id)) << id;
    }
  }
  for (const mma::DenseForm& f : mma::AllDenseForms()) {
    for (std::string_view id : mma::ReadingsOf(f)) EXPECT_TRUE(known(id)) << id;
  }
  gen::RandomSource s(test::Seed());
  std::set<std::string_view> seen;
  for (int i = 0; i < 2000; ++i) {
    const gen::GeneratedSmem g =
        gen::DrawSmem(s, i % 2 ? gen::Intent::kLegal : gen::Intent::kRawBits);
    for (std::string_view id : smem::ReadingsOf(g.c)) {
      EXPECT_TRUE(known(id)) << id;
      seen.insert(id);
    }
  }
  for (const char* id : {"S0", "S1", "S2", "S4", "S5", "S6", "S7"})
    EXPECT_TRUE(seen.count(id)) << id << " never drawn";
  for (int i = 0; i < 40; ++i) {
    const gen::GeneratedTile g = i % 4 == 0   ? gen::DrawWgmmaTile(s)
                                 : i % 4 == 1 ? gen::DrawWgmmaSpTile(s)
                                 : i % 4 == 2 ? gen::DrawTcgen05Tile(s, true)
                                              : gen::DrawTcgen05SpTile(s);
    for (std::string_view id : tile::ReadingsOf(g.tile)) EXPECT_TRUE(known(id)) << id;
  }
}

// docs/doc-vs-hardware.md's rows are the table's spec choices: each row id is a reading, and each
// reading of a choice (not a numerics row, not the tables' own layouts S0/SP0/W1) has a row.
TEST(Backing, DocVsHardwareHasARowPerChoice) {
  std::ifstream in(std::string(TCFUZZ_SOURCE_DIR) + "/docs/doc-vs-hardware.md");
  ASSERT_TRUE(in) << "docs/doc-vs-hardware.md";
  std::set<std::string> rows;
  const std::regex row(R"(^\| ([A-Z][A-Z0-9]*[0-9]) \|)");
  for (std::string line; std::getline(in, line);) {
    std::smatch m;
    if (std::regex_search(line, m, row)) rows.insert(m[1]);
  }
  for (const std::string& id : rows)
    EXPECT_NE(FindReading(id), nullptr) << "doc row " << id << " is not in the table";
  for (const BackedReading& r : BackedReadings()) {
    const std::string id(r.id);
    if (id.starts_with("R") || id == "S0" || id == "SP0" || id == "W1") continue;
    EXPECT_TRUE(rows.count(id)) << id << " has no row in docs/doc-vs-hardware.md";
  }
}

}  // namespace
}  // namespace tcfuzz::oracle
