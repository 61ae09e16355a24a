// The oracle against results tcfuzz captured itself on an H100 (TCFUZZ_CAPTURE_DIR): sparse MMA
// (corpus/sparse_mma/h100, SparseMmaHw), dense fp8 mma.sync with a nonzero C
// (corpus/dense_mma/h100, Fp8MmaHw) and fp8 wgmma with a nonzero C (corpus/smem_hw/h100,
// WgmmaFp8Hw). Every element must match the sm_90 row bit for bit (docs/doc-vs-hardware.md N2,
// R90-mma-fp8, R90-wgmma-fp8-f16).
#include <gtest/gtest.h>

#include <filesystem>

#include "generators/core/mma_values.h"
#include "oracle/mma/dense_case_text.h"
#include "oracle/sparse/sparse_case_text.h"
#include "oracle/tile/descriptor_tile_text.h"
#include "suites/checks/sparse_mma_checks.h"
#include "suites/engine/atomic_file.h"

namespace tcfuzz {
namespace {

using namespace oracle::sparse;

// The parsed text of every file in corpus/<folder>.
std::vector<std::pair<std::string, oracle::TextDoc>> Captures(const std::string& folder) {
  std::vector<std::pair<std::string, oracle::TextDoc>> out;
  for (const auto& entry :
       std::filesystem::directory_iterator(std::string(TCFUZZ_SOURCE_DIR) + "/corpus/" + folder)) {
    const std::string path = entry.path().string();
    auto text = suites::ReadFile(path);
    EXPECT_TRUE(text.ok()) << text.error();
    auto doc = oracle::TextDoc::Parse(text.ok() ? text.value() : "");
    EXPECT_TRUE(doc.ok()) << path << ": " << doc.error();
    if (doc.ok()) out.emplace_back(path, doc.value());
  }
  return out;
}

TEST(OwnCaptures, DenseFp8MmaWithCOnH100) {
  int files = 0;
  for (const auto& [path, doc] : Captures("dense_mma/h100")) {
    auto f = oracle::mma::DenseCaseFromDoc(doc);
    ASSERT_TRUE(f.ok()) << path << ": " << f.error();
    ASSERT_TRUE(f.value().observed.has_value()) << path;
    const auto& t = f.value().tile;
    const auto row =
        oracle::num::ParamsFor(oracle::num::Gpu::kSm90, oracle::num::Instr::kMma, t.a_type, t.cd);
    ASSERT_TRUE(row.has_value()) << path;
    EXPECT_EQ(oracle::mma::DenseReference(t, *row), *f.value().observed) << path;
    ++files;
  }
  EXPECT_EQ(files, 16);  // random and narrow, 4 type pairs, f16 and f32 D
}

TEST(OwnCaptures, WgmmaFp8WithCOnH100) {
  int files = 0;
  for (const auto& [path, doc] : Captures("smem_hw/h100")) {
    auto f = oracle::tile::DescriptorTileFromDoc(doc);
    ASSERT_TRUE(f.ok()) << path << ": " << f.error();
    ASSERT_TRUE(f.value().observed.has_value()) << path;
    ASSERT_FALSE(f.value().tile.c.empty()) << path << ": a capture with C";
    const auto want = oracle::tile::TileReference(f.value().tile);
    ASSERT_TRUE(want.ok()) << path << ": " << want.error();
    EXPECT_EQ(want.value(), *f.value().observed) << path;
    ++files;
  }
  EXPECT_EQ(files, 12);  // random and narrow, 3 type pairs, f16 and f32 D
}

TEST(OwnCaptures, SparseMmaOnH100) {
  const std::string dir = std::string(TCFUZZ_SOURCE_DIR) + "/corpus/sparse_mma/h100";
  int files = 0, compared = 0, not_modelled = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const std::string path = entry.path().string();
    auto text = suites::ReadFile(path);
    ASSERT_TRUE(text.ok()) << text.error();
    auto doc = oracle::TextDoc::Parse(text.value());
    ASSERT_TRUE(doc.ok()) << path << ": " << doc.error();
    auto file = SparseCaseFromDoc(doc.value());
    ASSERT_TRUE(file.ok()) << path << ": " << file.error();
    ASSERT_TRUE(file.value().observed.has_value()) << path;
    ++files;
    const SparseCaseFile& f = file.value();
    EXPECT_TRUE(Validate(f.op).legal()) << path;
    const bool exact =
        doc.value().Has("origin.mode") && gen::IsExact(doc.value().String("origin.mode").value());
    auto params = suites::SparseParams(f.tile, oracle::num::Gpu::kSm90);
    if (!params && oracle::num::IsFloat(f.tile.a_type)) {
      if (!exact) {
        ++not_modelled;
        continue;
      }
      params = suites::SparseParams(f.tile);  // exact sums: any fp8 row gives the same D
    }
    ++compared;
    EXPECT_EQ(Reference(f.tile, params.value_or(oracle::num::ExactParams(f.tile.cd))), *f.observed)
        << path;
  }
  std::printf("%d captured cases, %d compared, %d fp8 cases not modelled\n", files, compared,
              not_modelled);
  EXPECT_GT(files, 100);
}

}  // namespace
}  // namespace tcfuzz
