// Dense mma.sync on the host side: the instruction's spelling, and packing that puts every A, B
// and C element in the register and bit field the oracle's fragment maps name.
#include "harness/mma_dense.h"

#include <gtest/gtest.h>

#include <span>

namespace tcfuzz::harness {
namespace {

using oracle::mma::DenseTile;
using oracle::mma::FindDenseForm;
using oracle::num::Format;

TEST(MmaDense, InstructionSpelling) {
  EXPECT_EQ(MmaDenseInstruction({FindDenseForm("m16n8k16", Format::kBF16), Format::kBF16,
                                 Format::kBF16, Format::kF32, false}),
            "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%d0, %d1, %d2, %d3}, {%a0, %a1, "
            "%a2, %a3}, {%b0, %b1}, "
            "{%c0, %c1, %c2, %c3};");
  EXPECT_EQ(MmaDenseInstruction({FindDenseForm("m16n8k32", Format::kS8), Format::kS8, Format::kU8,
                                 Format::kS32, true}),
            "mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.u8.s32 {%d0, %d1, %d2, %d3}, {%a0, "
            "%a1, %a2, %a3}, "
            "{%b0, %b1}, {%c0, %c1, %c2, %c3};");
}

TEST(MmaDense, PackingPutsEveryElementWhereTheMapsSay) {
  for (const auto& f : oracle::mma::AllDenseForms()) {
    const int eb = f.elem_bits();
    const uint64_t mask = eb == 32 ? 0xFFFFFFFFull : (uint64_t{1} << eb) - 1;
    DenseTile t{&f, f.type, f.type, Format::kF32, false, {}, {}, {}};
    // Element values that name their own position (cut to the element width).
    for (int i = 0; i < 16 * f.k; ++i) t.a.push_back(static_cast<uint64_t>(i * 7 + 3) & mask);
    for (int i = 0; i < f.k * 8; ++i) t.b.push_back(static_cast<uint64_t>(i * 5 + 1) & mask);
    for (int i = 0; i < 128; ++i) t.c.push_back(0x1000u + static_cast<uint32_t>(i));
    const MmaDenseSpec spec{&f, f.type, f.type, Format::kF32, false};
    const PackedMmaDense p = PackMmaDense(spec, std::span<const DenseTile>(&t, 1));
    for (int lane = 0; lane < 32; ++lane) {
      for (int reg = 0; reg < f.a_regs(); ++reg) {
        for (int pos = 0; pos < f.per_reg(); ++pos) {
          const auto x = oracle::mma::MapDenseA(f, lane, reg, pos);
          const uint32_t word = p.a[static_cast<std::size_t>(lane * f.a_regs() + reg)];
          EXPECT_EQ((word >> (pos * eb)) & mask, t.a[static_cast<std::size_t>(x.row * f.k + x.col)])
              << f.Name();
        }
      }
      for (int reg = 0; reg < f.b_regs(); ++reg) {
        for (int pos = 0; pos < f.per_reg(); ++pos) {
          const auto x = oracle::mma::MapDenseB(f, lane, reg, pos);
          const uint32_t word = p.b[static_cast<std::size_t>(lane * f.b_regs() + reg)];
          EXPECT_EQ((word >> (pos * eb)) & mask, t.b[static_cast<std::size_t>(x.row * 8 + x.col)])
              << f.Name();
        }
      }
      for (int k = 0; k < 4; ++k) {
        // The m16n8 accumulator figure, written out here: row g (+8 for k >= 2), column 2t + k % 2.
        const int row = lane / 4 + 8 * (k / 2), col = 2 * (lane % 4) + k % 2;
        EXPECT_EQ(p.c[static_cast<std::size_t>(lane * 4 + k)],
                  t.c[static_cast<std::size_t>(row * 8 + col)]);
      }
    }
  }
}

}  // namespace
}  // namespace tcfuzz::harness
