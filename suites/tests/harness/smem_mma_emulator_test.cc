// The built-in emulator (harness/emulator/smem_mma_emulator.h) executing wgmma and tcgen05.mma
// from a shared-memory image and raw descriptors. Golden values come from elsewhere than the
// emulator: tiles whose descriptors, image bytes and D registers are derived by hand here from
// the PTX ISA's field tables, canonical layouts and fragment figures; the H100's own D for every
// wgmma capture in corpus/ (hardware); and the oracle's TileReference over drawn tiles (a second
// derivation that shares building blocks, not the steps).
#include "harness/emulator/smem_mma_emulator.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "harness/tcgen05_exec.h"
#include "harness/wgmma_exec.h"
#include "oracle/core/text_format.h"
#include "oracle/numerics/formats.h"
#include "oracle/tile/descriptor_tile_text.h"
#include "suites/engine/atomic_file.h"
#include "suites/kinds/descriptor_tile_cases.h"

namespace tcfuzz::harness {
namespace {

using oracle::num::Format;

void PutF16(std::vector<uint8_t>& image, std::size_t at, double v) {
  const auto bits = static_cast<uint16_t>(oracle::num::FromDouble(Format::kF16, v));
  image[at] = static_cast<uint8_t>(bits);
  image[at + 1] = static_cast<uint8_t>(bits >> 8);
}

uint32_t F32(double v) { return static_cast<uint32_t>(oracle::num::FromDouble(Format::kF32, v)); }

// A matrix descriptor by hand. wgmma (PTX 9.1 §9.7.15.5.1.2.2): start >> 4 in bits 0-13, LBO >> 4
// in 16-29, SBO >> 4 in 32-45, base offset 49-51, swizzle 62-63 (1: 128B, 2: 64B, 3: 32B).
// tcgen05 (§9.7.16.4.1 Table 40): the same offsets, bits 46-48 = 0b001, swizzle 61-63 (0 none).
uint64_t WgmmaDesc(uint64_t start, uint64_t lbo, uint64_t sbo, uint64_t swizzle) {
  return (start >> 4) | (lbo >> 4) << 16 | (sbo >> 4) << 32 | swizzle << 62;
}
uint64_t Tcgen05Desc(uint64_t start, uint64_t lbo, uint64_t sbo) {
  return (start >> 4) | (lbo >> 4) << 16 | (sbo >> 4) << 32 | uint64_t{1} << 46;
}

// wgmma D fragment (§9.7.15.5.1.1, figure "WGMMA .m64nNk16 register fragment layout for
// accumulator matrix D"), written out: thread 32w + l, index i holds row 16w + l/4 + 8*((i/2)%2),
// column 8*(i/4) + 2*(l%4) + i%2. The (thread, index) of one element:
std::pair<int, int> WgmmaThreadIndexOf(int row, int col) {
  const int w = row / 16, r = row % 16;
  const int lane = 4 * (r % 8) + (col % 8) / 2;
  const int i = 4 * (col / 8) + 2 * (r / 8) + col % 2;
  return {32 * w + lane, i};
}

// One f16 wgmma m64n8k16 tile, f32 D: A K-major in 128B swizzle at 0 (SBO 1024, the 8-row atom),
// B K-major without swizzle at 4096 (LBO 128, SBO 256). A(13, 5) = A(13, 13) = 1, B(6, 5) = 2,
// B(6, 13) = 4: D[13][6] = 6, every other element 0. Byte addresses by hand:
//   A(13, k): (13 % 8) * 128 + (13 / 8) * 1024 + 2k, then XOR ((addr >> 7) & 7) << 4 (row 5):
//     k = 5: 1674 ^ 0x50 = 1754; k = 13: 1690 ^ 0x50 = 1738.
//   B(6, k): 4096 + 6 * 16 + (k % 8) * 2 + (k / 8) * 128: k = 5: 4202; k = 13: 4330.
// A map that skips the swizzle reads zeros (D 0); LBO and SBO swapped reads B(6, 13) from 4458
// (D 2); a D fragment of other rows puts 6 elsewhere.
struct HandTile {
  std::vector<uint8_t> image = std::vector<uint8_t>(8192, 0);
  std::vector<uint64_t> a_desc, b_desc;
  std::vector<uint32_t> idesc, d;
  tcfuzz_smem_mma call{};
  int Run(std::string* error, const char* target, const emulator::Mutant& m = {}) {
    call.image = image.data();
    call.image_bytes = static_cast<uint32_t>(image.size());
    call.a_desc = a_desc.data();
    call.b_desc = b_desc.data();
    call.idesc = idesc.empty() ? nullptr : idesc.data();
    d.assign(std::size_t{128} * call.d_words, 0xDEADBEEF);
    call.d = d.data();
    return emulator::ExecuteSmemMma(call, target, error, m);
  }
};

HandTile WgmmaHandTile() {
  HandTile t;
  PutF16(t.image, 1754, 1);
  PutF16(t.image, 1738, 1);
  PutF16(t.image, 4202, 2);
  PutF16(t.image, 4330, 4);
  t.a_desc = {WgmmaDesc(0, 16, 1024, 1)};
  t.b_desc = {WgmmaDesc(4096, 128, 256, 0)};
  t.call = {.instruction = "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16",
            .family = "wgmma",
            .shape = "m64n8k16",
            .a_type = "f16",
            .b_type = "f16",
            .d_type = "f32",
            .tiles = 1,
            .d_words = 4};
  return t;
}

TEST(SmemMmaEmulator, WgmmaTileDerivedByHand) {
  HandTile t = WgmmaHandTile();
  std::string error;
  ASSERT_EQ(t.Run(&error, "sm_90a"), TCFUZZ_OK) << error;
  const auto [thread, index] = WgmmaThreadIndexOf(13, 6);
  EXPECT_EQ(thread, 23);
  EXPECT_EQ(index, 2);
  for (int th = 0; th < 128; ++th) {
    for (int i = 0; i < 4; ++i) {
      const uint32_t want = th == thread && i == index ? F32(6) : 0u;
      EXPECT_EQ(t.d[static_cast<std::size_t>(th * 4 + i)], want) << th << " " << i;
    }
  }
  // Each planted defect moves or changes that one element.
  for (const char* text : {"swizzle.xor_bits=-1", "descriptor.lbo_sbo_swapped=1",
                           "fragment.d_row_halves=1", "layout.transpose_b=1"}) {
    const auto m = emulator::ParseMutant(text);
    ASSERT_TRUE(m.ok()) << m.error();
    HandTile x = WgmmaHandTile();
    ASSERT_EQ(x.Run(&error, "sm_90a", m.value()), TCFUZZ_OK) << error;
    EXPECT_NE(x.d, t.d) << text;
  }
  // wgmma is an instruction of sm_90a alone.
  HandTile other = WgmmaHandTile();
  EXPECT_EQ(other.Run(&error, "sm_100a"), TCFUZZ_UNSUPPORTED);
  EXPECT_NE(error.find("sm_90a"), std::string::npos) << error;
}

// One f16 tcgen05.mma tile (M = 128, N = 16, f32 D), both operands K-major without swizzle (LBO
// 128, SBO 256): A at 0, B at 8192. The instruction descriptor by hand (Table 42): D f32 = 1 in
// bits 4-5, A and B f16 = 0, N >> 3 = 2 in bits 17-22, M >> 4 = 8 in bits 24-28. A(100, 9) = 3 at
// (100 % 8) * 16 + (100 / 8) * 256 + (9 % 8) * 2 + (9 / 8) * 128 = 3266; B(11, 9) = 0.5 at
// 8192 + 3 * 16 + 256 + 2 + 128 = 8626. D[100][11] = 1.5 in tensor-memory lane 100, column 11.
TEST(SmemMmaEmulator, Tcgen05TileDerivedByHand) {
  const auto make = [] {
    HandTile t;
    t.image.assign(16384, 0);
    PutF16(t.image, 3266, 3);
    PutF16(t.image, 8626, 0.5);
    t.a_desc = {Tcgen05Desc(0, 128, 256)};
    t.b_desc = {Tcgen05Desc(8192, 128, 256)};
    t.idesc = {1u << 4 | 2u << 17 | 8u << 24};
    t.call = {.instruction = "tcgen05.mma.cta_group::1.kind::f16 [%taddr], %da, %db, %idesc, %sd;",
              .family = "tcgen05",
              .shape = "m128n16",
              .a_type = "f16",
              .b_type = "f16",
              .d_type = "f32",
              .tiles = 1,
              .d_words = 16};
    return t;
  };
  HandTile t = make();
  std::string error;
  ASSERT_EQ(t.Run(&error, "sm_100a"), TCFUZZ_OK) << error;
  for (int lane = 0; lane < 128; ++lane) {
    for (int col = 0; col < 16; ++col) {
      EXPECT_EQ(t.d[static_cast<std::size_t>(lane * 16 + col)],
                lane == 100 && col == 11 ? F32(1.5) : 0u)
          << lane << " " << col;
    }
  }
  // The instruction descriptor decides the types: A and B as bf16 (code 1) read other values.
  HandTile bf16 = make();
  bf16.idesc = {1u << 4 | 1u << 7 | 1u << 10 | 2u << 17 | 8u << 24};
  ASSERT_EQ(bf16.Run(&error, "sm_100a"), TCFUZZ_OK) << error;
  EXPECT_NE(bf16.d, t.d);
  HandTile old = make();
  EXPECT_EQ(old.Run(&error, "sm_90a"), TCFUZZ_UNSUPPORTED);
}

// D of one tile through the harness's own packing (the inputs the CUDA kernel loads).
std::vector<uint32_t> Emulate(const oracle::tile::DescriptorTile& t, std::string* error,
                              const emulator::Mutant& m = {}) {
  const oracle::tile::DescriptorTile* one[] = {&t};
  const bool tcgen05 = t.a.arch != oracle::smem::Arch::kSm90a;
  auto call = tcgen05 ? SmemMmaCallOf(Tcgen05SpecOf(t), one) : SmemMmaCallOf(SpecOf(t), one);
  if (!call.ok()) {
    *error = call.error();
    return {};
  }
  std::vector<uint32_t> d(call.value().DWords(), 0);
  tcfuzz_smem_mma c = call.value().Call();
  c.d = d.data();
  if (emulator::ExecuteSmemMma(c, tcgen05 ? "sm_100a" : "sm_90a", error, m) != TCFUZZ_OK) return {};
  return tcgen05 ? d : DOfRegisters(SpecOf(t), d);
}

// Hardware: the H100's D for every wgmma capture tcfuzz holds (fp8 with C, and the deciding
// tiles of the descriptor rows S1, S2, S6), bit for bit.
TEST(SmemMmaEmulator, ReturnsTheH100sDForEveryWgmmaCapture) {
  int files = 0;
  for (const char* dir : {"corpus/smem_hw/h100", "corpus/smem_hw/deciding"}) {
    for (const auto& entry :
         std::filesystem::directory_iterator(std::string(TCFUZZ_SOURCE_DIR) + "/" + dir)) {
      const auto text = suites::ReadFile(entry.path().string());
      ASSERT_TRUE(text.ok()) << text.error();
      const auto doc = oracle::TextDoc::Parse(text.value());
      ASSERT_TRUE(doc.ok()) << doc.error();
      const auto f = oracle::tile::DescriptorTileFromDoc(doc.value());
      ASSERT_TRUE(f.ok()) << entry.path() << ": " << f.error();
      ASSERT_TRUE(f.value().observed.has_value()) << entry.path();
      std::string error;
      EXPECT_EQ(Emulate(f.value().tile, &error), *f.value().observed) << entry.path() << error;
      ++files;
    }
  }
  EXPECT_GE(files, 29);
}

// A second derivation: drawn legal tiles of both suites (every type, major, swizzle, N, sparse
// and .ws mask the generators draw) equal the oracle's reference.
TEST(SmemMmaEmulator, EqualsTheOracleOnDrawnTiles) {
  int compared = 0, ws = 0, sparse = 0;
  for (const bool tcgen05 : {false, true}) {
    for (uint64_t i = 0; i < 48; ++i) {
      const auto g =
          tcgen05 ? suites::DrawTcgen05Case(20261126, i) : suites::DrawSmemHwCase(20261126, i);
      if (!suites::BrokenRules(g.tile).empty()) continue;
      const auto want = oracle::tile::TileReference(g.tile);
      if (!want.ok()) continue;
      std::string error;
      EXPECT_EQ(Emulate(g.tile, &error), want.value())
          << (tcgen05 ? "tcgen05 " : "wgmma ") << i << " " << suites::TileFamily(g.tile) << error;
      ++compared;
      ws += g.tile.zero_column_mask.has_value();
      sparse += g.tile.sparse.has_value();
    }
  }
  EXPECT_GE(compared, 60);
  EXPECT_GE(ws, 1);
  EXPECT_GE(sparse, 1);
}

}  // namespace
}  // namespace tcfuzz::harness
