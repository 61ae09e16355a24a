// The sparse minimizer against a stand-in device with one planted fault: it must shrink a real
// H100 capture to the two values that trigger the fault, at one each, with canonical metadata;
// and it must never return a case that fails differently.
#include "suites/reduce/sparse_mma_minimize.h"

#include <gtest/gtest.h>

#include "oracle/core/text_format.h"
#include "suites/checks/sparse_mma_checks.h"
#include "suites/engine/atomic_file.h"

namespace tcfuzz::suites {
namespace {

using namespace oracle::sparse;

SparseCaseFile Capture(const std::string& name) {
  const auto text = ReadFile(std::string(TCFUZZ_SOURCE_DIR) + "/corpus/sparse_mma/h100/" + name);
  const auto doc = oracle::TextDoc::Parse(text.value());
  return SparseCaseFromDoc(doc.value()).value();
}

// The oracle's D, except that D[1][1] is off by one ulp whenever A value 8 (row 1, chunk 0,
// slot 0 of an m16n8k16 tile) and B value 25 (K row 3, column 1) are both non-zero.
Evaluation PlantedDevice(const SparseCaseFile& k) {
  const auto params =
      SparseParams(k.tile, oracle::num::Gpu::kSm90).value_or(oracle::num::DotParams{});
  const std::vector<uint32_t> want = Reference(k.tile, params);
  std::vector<uint32_t> got = want;
  if (k.tile.a[8] != 0 && k.tile.b[25] != 0) got[1 * 8 + 1] ^= 1;
  return {MismatchSignature(want, got), got};
}

int NonZero(const SparseCaseFile& k) {
  int n = 0;
  for (auto v : k.tile.a) n += v != 0;
  for (auto v : k.tile.b) n += v != 0;
  for (auto v : k.tile.c) n += v != 0;
  return n;
}

TEST(SparseMinimize, ShrinksToTheTwoValuesThatTriggerThePlantedFault) {
  SparseCaseFile start = Capture("m16n8k16.bf16_ordered_sel1_f32_random_084.txt");
  start.tile.a[8] = 0x4040;   // bf16 3.0: both trigger values present and not yet one
  start.tile.b[25] = 0xc0a0;  // bf16 -5.0
  const Evaluation e = PlantedDevice(start);
  ASSERT_TRUE(e.failure);
  ASSERT_EQ(e.failure->where, "D[1][1]");
  const MinimizeResult r = MinimizeSparse(start, *e.failure, PlantedDevice, 5000);
  EXPECT_EQ(NonZero(r.minimized), 2);
  EXPECT_EQ(r.minimized.tile.a[8], 0x3f80u);   // bf16 1.0
  EXPECT_EQ(r.minimized.tile.b[25], 0xbf80u);  // bf16 -1.0: the sign is kept
  for (const uint8_t n : r.minimized.tile.nibbles) EXPECT_EQ(n, 0x4);
  EXPECT_TRUE(Validate(r.minimized.op).legal());
  // Still fails the same way, and the device's D of the last kept step came along.
  EXPECT_EQ(PlantedDevice(r.minimized).failure, e.failure);
  ASSERT_TRUE(r.minimized.observed);
  EXPECT_EQ(*r.minimized.observed, *PlantedDevice(r.minimized).observed);
}

TEST(SparseMinimize, KeepsNothingThatFailsElsewhereAndHonoursTheBudget) {
  const SparseCaseFile start = Capture("m16n8k16.bf16_ordered_sel1_f32_random_084.txt");
  // A device that is wrong at D[0][0] for every case: any candidate fails, but never at D[1][1].
  const auto elsewhere = [](const SparseCaseFile& k) {
    std::vector<uint32_t> want = Reference(k.tile,
                                           SparseParams(k.tile, oracle::num::Gpu::kSm90).value()),
                          got = want;
    got[0] ^= 1;
    return Evaluation{MismatchSignature(want, got), got};
  };
  const MinimizeResult r =
      MinimizeSparse(start, FailureSignature{"mismatch", "D[1][1]"}, elsewhere, 50);
  EXPECT_EQ(r.accepted, 0);
  EXPECT_EQ(r.tries, 50);
  EXPECT_EQ(r.minimized.tile.a, start.tile.a);
}

}  // namespace
}  // namespace tcfuzz::suites
