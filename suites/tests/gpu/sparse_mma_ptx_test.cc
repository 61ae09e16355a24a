// The PTX the harness renders for sparse MMA: the instruction spelling and the kernel around it
// (host-only; the assembler checks come with the toolchain suites).
#include "harness/sparse_mma_ptx.h"

#include <gtest/gtest.h>

namespace tcfuzz::harness {
namespace {

using oracle::num::Format;
using oracle::sparse::FindForm;
using oracle::sparse::Variant;

TEST(MmaSpPtx, InstructionSpelling) {
  MmaSpSpec s{FindForm("m16n8k32", Format::kF16),
              Variant::kOrdered,
              1,
              Format::kF16,
              Format::kF16,
              Format::kF32,
              false};
  EXPECT_EQ(MmaSpInstruction(s),
            "mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32 {%d0, %d1, "
            "%d2, %d3}, "
            "{%a0, %a1, %a2, %a3}, {%b0, %b1, %b2, %b3}, {%c0, %c1, %c2, %c3}, %e, 1;");
  MmaSpSpec i{FindForm("m16n8k64", Format::kS8),
              Variant::kSp,
              0,
              Format::kS8,
              Format::kU8,
              Format::kS32,
              true};
  EXPECT_EQ(MmaSpInstruction(i),
            "mma.sp.sync.aligned.m16n8k64.row.col.satfinite.s32.s8.u8.s32 {%d0, %d1, %d2, %d3}, "
            "{%a0, %a1, %a2, %a3}, {%b0, %b1, %b2, %b3}, {%c0, %c1, %c2, %c3}, %e, 0;");
  // The FP6/FP4 forms name their kind (ptx-spec-notes §9: ptxas requires .kind::f8f6f4).
  MmaSpSpec k{FindForm("m16n8k64", Format::kE2M1),
              Variant::kOrdered,
              0,
              Format::kE2M1,
              Format::kE3M2,
              Format::kF32,
              false};
  const std::string kind_head =
      "mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.kind::f8f6f4.f32.e2m1.e3m2.f32 ";
  EXPECT_EQ(MmaSpInstruction(k).substr(0, kind_head.size()), kind_head);
  MmaSpSpec h{FindForm("m16n8k16", Format::kF16),
              Variant::kOrdered,
              3,
              Format::kF16,
              Format::kF16,
              Format::kF16,
              false};
  EXPECT_EQ(MmaSpInstruction(h),
            "mma.sp::ordered_metadata.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%d0, %d1}, "
            "{%a0, %a1}, "
            "{%b0, %b1}, {%c0, %c1}, %e, 3;");
}

TEST(MmaSpPtx, ModuleLoadsEveryRegisterAndStoresD) {
  MmaSpSpec s{FindForm("m16n8k8", Format::kTF32),
              Variant::kSp,
              2,
              Format::kTF32,
              Format::kTF32,
              Format::kF32,
              false};
  const std::string m = MmaSpModule(s, "sm_90");
  EXPECT_NE(m.find(".version 8.5\n.target sm_90\n"), std::string::npos);
  EXPECT_NE(m.find("ld.global.b32 %a1, [%addr+4];"), std::string::npos);
  EXPECT_NE(m.find("ld.global.b32 %e, [%addr+0];"), std::string::npos);
  EXPECT_NE(m.find("st.global.b32 [%addr+12], %d3;"), std::string::npos);
  EXPECT_EQ(m.find("%a2"), std::string::npos);  // k8 tf32 has two A registers
}

}  // namespace
}  // namespace tcfuzz::harness
