// The oracle against sparse MMA results tcfuzz captured itself on an H100 (corpus/sparse_mma/h100,
// written by SparseMmaHw with TCFUZZ_CAPTURE_DIR): every case whose layout question is settled
// (small-integer and probe values, exact in any arithmetic) and every case whose arithmetic the
// model claims for sm_90 must match bit for bit. fp8 random cases (sm_90 mma.sync fp8 is not
// modelled, docs/doc-vs-hardware.md N2) are counted, not compared.
#include <gtest/gtest.h>

#include <filesystem>

#include "generators/core/mma_values.h"
#include "oracle/sparse/sparse_case_text.h"
#include "suites/checks/sparse_mma_checks.h"
#include "suites/engine/atomic_file.h"

namespace tcfuzz {
namespace {

using namespace oracle::sparse;

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
