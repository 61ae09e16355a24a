// The descriptor-tile minimizer against stand-in devices: a misread that does not depend on the
// layout shrinks to the simplest legal layout, N = 8 and the two values that meet at the element;
// a misread that needs A's 128-byte swizzle keeps it. Never a step that fails elsewhere.
#include "suites/reduce/tile_minimize.h"

#include <gtest/gtest.h>

#include <sstream>

#include "generators/core/random_source.h"
#include "generators/smem/descriptor_tile_gen.h"
#include "oracle/smem/smem_case.h"
#include "suites/cli/minimize_command.h"
#include "suites/engine/atomic_file.h"
#include "suites/kinds/descriptor_tile_cases.h"
#include "suites/tests/support/temp_dir.h"

namespace tcfuzz::suites {
namespace {

using oracle::smem::Operand;
using oracle::smem::Swizzle;
using oracle::tile::DescriptorTile;
using oracle::tile::DescriptorTileFile;

constexpr int kRow = 3, kCol = 5, kK = 2;

Swizzle SwizzleOf(const oracle::smem::SmemCase& c) {
  return oracle::smem::DecodeMatrix(c.arch, c.desc)->swizzle;
}

// The oracle's D with one bit of D[kRow][kCol] flipped when A(kRow, kK) and B(kCol, kK) are both
// non-zero and `needs` holds for the tile.
template <typename Needs>
Evaluation Planted(const DescriptorTileFile& f, Needs needs) {
  const DescriptorTile& t = f.tile;
  const std::vector<uint32_t> want = oracle::tile::TileReference(t).value();
  std::vector<uint32_t> got = want;
  const auto a = oracle::tile::ReadOperand(t, Operand::kA),
             b = oracle::tile::ReadOperand(t, Operand::kB);
  const int k = oracle::tile::TileK(t);
  if ((*a)[kRow * k + kK] != 0 && (*b)[kCol * k + kK] != 0 && needs(t))
    got[static_cast<std::size_t>(kRow * t.n + kCol)] ^= 1;
  return {MismatchSignature(want, got, static_cast<std::size_t>(t.n)), got};
}

// A small-integer f16 wgmma tile with A 128B-swizzled, N >= 32, and both trigger values non-zero.
DescriptorTileFile StartTile() {
  gen::RandomSource s(11);
  for (;;) {
    gen::GeneratedTile g = gen::DrawWgmmaTile(s);
    const DescriptorTile& t = g.tile;
    if (g.values != gen::TileValues::kSmallInt || t.ab != oracle::num::Format::kF16 || t.n < 32 ||
        SwizzleOf(t.a) != Swizzle::k128B || SwizzleOf(t.b) == Swizzle::kNone) {
      continue;
    }
    const int k = oracle::tile::TileK(t);
    auto a = *oracle::tile::ReadOperand(t, Operand::kA),
         b = *oracle::tile::ReadOperand(t, Operand::kB);
    a[kRow * k + kK] = b[kCol * k + kK] = 0x4000;  // 2.0
    const auto placed = Replace(t, t.a, t.b, a, b, g.fill);
    if (placed) return {*placed, g.fill, std::nullopt};
  }
}

int NonZero(const DescriptorTile& t) {
  int n = 0;
  for (const Operand o : {Operand::kA, Operand::kB}) {
    const auto values = oracle::tile::ReadOperand(t, o);
    for (const uint64_t v : *values) n += v != 0;
  }
  return n;
}

TEST(TileMinimize, ALayoutFreeMisreadShrinksToTheSimplestLayoutAndTwoValues) {
  const DescriptorTileFile start = StartTile();
  const auto device = [](const DescriptorTileFile& f) {
    return Planted(f, [](const DescriptorTile&) { return true; });
  };
  const Evaluation e = device(start);
  ASSERT_TRUE(e.failure);
  ASSERT_EQ(e.failure->where, "D[3][5]");
  const TileMinimizeResult r = MinimizeTile(start, *e.failure, device, 2000);
  const DescriptorTile& t = r.minimized.tile;
  EXPECT_EQ(t.n, 8);
  for (const auto* c : {&t.a, &t.b}) {
    EXPECT_TRUE(oracle::smem::Validate(*c).legal());
    EXPECT_EQ(c->view.major, oracle::smem::Major::kK);
    EXPECT_EQ(SwizzleOf(*c), Swizzle::kNone);
    EXPECT_EQ(oracle::smem::DecodeMatrix(c->arch, c->desc)->start, *c->pattern_start);
  }
  EXPECT_EQ(NonZero(t), 2);
  EXPECT_LT(r.tries, 200);  // each try is a device run
  EXPECT_EQ(device(r.minimized).failure, e.failure);
  ASSERT_TRUE(r.minimized.observed);
  EXPECT_EQ(*r.minimized.observed, *device(r.minimized).observed);
}

TEST(TileMinimize, AMisreadThatNeedsTheSwizzleKeepsIt) {
  const DescriptorTileFile start = StartTile();
  const auto device = [](const DescriptorTileFile& f) {
    return Planted(f, [](const DescriptorTile& t) { return SwizzleOf(t.a) == Swizzle::k128B; });
  };
  const Evaluation e = device(start);
  ASSERT_TRUE(e.failure);
  const TileMinimizeResult r = MinimizeTile(start, *e.failure, device, 2000);
  EXPECT_EQ(SwizzleOf(r.minimized.tile.a), Swizzle::k128B);
  EXPECT_EQ(SwizzleOf(r.minimized.tile.b), Swizzle::kNone);
  EXPECT_EQ(NonZero(r.minimized.tile), 2);
  EXPECT_EQ(device(r.minimized).failure, e.failure);
}

TEST(TileMinimize, KeepsNothingThatFailsElsewhereAndHonoursTheBudget) {
  const DescriptorTileFile start = StartTile();
  const auto elsewhere = [](const DescriptorTileFile& f) {
    std::vector<uint32_t> want = oracle::tile::TileReference(f.tile).value(), got = want;
    got[0] ^= 1;
    return Evaluation{MismatchSignature(want, got, static_cast<std::size_t>(f.tile.n)), got};
  };
  const TileMinimizeResult r =
      MinimizeTile(start, FailureSignature{"mismatch", "D[3][5]"}, elsewhere, 20);
  EXPECT_EQ(r.accepted, 0);
  EXPECT_EQ(r.tries, 20);
  EXPECT_EQ(r.minimized.tile.image, start.tile.image);
}

// `tcfuzz minimize` end to end on a wgmma_tile reproducer: every candidate through a worker
// process (the fake worker's planted misread), the result written with its observed D, and the
// written file replays as the same mismatch without a device.
TEST(TileMinimize, TheCommandShrinksAReproducerThroughWorkerProcesses) {
  const std::string dir = test::TempDir("tile_minimize_cmd");
  DescriptorTileFile start = StartTile();
  oracle::TextWriter w(oracle::tile::kDescriptorTileKind);
  oracle::tile::AppendDescriptorTile(w, start.tile, start.fill);
  ASSERT_TRUE(WriteFileAtomic(dir + "/repro.txt", w.str()).ok());
  std::ostringstream log;
  ASSERT_EQ(RunMinimize(dir + "/repro.txt", dir + "/min.txt", 400, {FAKE_WORKER_BIN}, log), 0)
      << log.str();
  EXPECT_NE(log.str().find("(mismatch at D[3][5])"), std::string::npos) << log.str();
  const auto text = ReadFile(dir + "/min.txt");
  ASSERT_TRUE(text.ok());
  const auto doc = oracle::TextDoc::Parse(text.value());
  ASSERT_TRUE(doc.ok()) << doc.error();
  const auto min = oracle::tile::DescriptorTileFromDoc(doc.value());
  ASSERT_TRUE(min.ok()) << min.error();
  EXPECT_EQ(min.value().tile.n, 8);
  EXPECT_EQ(NonZero(min.value().tile), 2);
  EXPECT_EQ(doc.value().String("origin.gpu").value(), "sm_90");
  const auto replay = ReplayDescriptorTile(doc.value());
  ASSERT_TRUE(replay.ok()) << replay.error();
  ASSERT_EQ(replay.value().failures.size(), 1u);
  EXPECT_EQ(replay.value().failures[0].message.substr(0, 7), "D[3][5]");
  // A file of another kind is one clear error.
  std::ostringstream bad;
  EXPECT_EQ(RunMinimize(std::string(TCFUZZ_SOURCE_DIR) +
                            "/corpus/zero_column_mask/seed/spec_example_4_m32.txt",
                        dir + "/x.txt", 10, {FAKE_WORKER_BIN}, bad),
            2);
  EXPECT_NE(bad.str().find("minimize takes sparse_mma or wgmma_tile reproducers"),
            std::string::npos)
      << bad.str();
}

}  // namespace
}  // namespace tcfuzz::suites
