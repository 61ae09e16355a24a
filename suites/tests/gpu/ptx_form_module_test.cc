// Rendering of instruction forms (operand classes and counts derived from the shapes by hand),
// and nvJitLink loaded at run time (skips visibly without the library).
#include "harness/ptx_form_module.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "harness/nvjitlink.h"

namespace tcfuzz::harness {
namespace {

using oracle::num::Format;
using oracle::ptx::Family;
using oracle::ptx::PtxForm;

int Count(const std::string& s, const std::string& what) {
  int n = 0;
  for (size_t at = s.find(what); at != std::string::npos; at = s.find(what, at + 1)) ++n;
  return n;
}

PtxForm WgmmaF16(int n, Format d) {
  PtxForm f;
  f.family = Family::kWgmma;
  f.shape = "m64n" + std::to_string(n) + "k16";
  f.d = f.c = d;
  f.trans_a = f.trans_b = 0;
  f.ptx = 80;
  return f;
}

TEST(PtxFormModule, WgmmaAccumulatorsPerThread) {
  // 64 x 256 f32 over 128 threads: 128 registers; f16 packs two a register: 64.
  const std::string f32 = FormInstruction(WgmmaF16(256, Format::kF32));
  EXPECT_EQ(Count(f32.substr(0, f32.find('}')), " f") + 1, 128) << f32.substr(0, 200);
  const std::string f16 = FormInstruction(WgmmaF16(256, Format::kF16));
  EXPECT_EQ(Count(f16.substr(0, f16.find('}')), " r") + 1, 64);
  // descriptors, scale-d, imm-scale-a/b, imm-trans-a/b
  EXPECT_NE(f16.find("}, rd0, rd1, p0, 1, 1, 0, 0;"), std::string::npos) << f16;
}

TEST(PtxFormModule, WarpSparseOperands) {
  PtxForm f;
  f.family = Family::kMmaSp;
  f.shape = "m16n8k32";
  f.d = f.c = Format::kF32;
  f.selector = 1;
  const std::string s = FormInstruction(f);
  // A: 16 x 16 kept halves over 32 lanes = 4 registers; B: 32 x 8 halves = 4 registers.
  EXPECT_EQ(s,
            "mma.sp.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32 {f0, f1, f2, f3}, {r100, r101, "
            "r102, r103}, "
            "{r120, r121, r122, r123}, {f8, f9, f10, f11}, r140, 0x1;");
}

TEST(PtxFormModule, Tcgen05OptionalOperandsInOrder) {
  PtxForm f;
  f.family = Family::kTcgen05Ws;
  f.kind = oracle::ptx::Kind::kI8;
  f.zero_column_mask = true;
  EXPECT_EQ(FormInstruction(f),
            "tcgen05.mma.ws.cta_group::1.kind::i8 [r0], rd0, rd1, r3, p0, rd2;");
  PtxForm g;
  g.family = Family::kTcgen05Sp;
  g.cta_group = 2;
  g.a_tmem = true;
  g.disable_lanes = 8;
  g.scale_input_d = 3;
  EXPECT_EQ(FormInstruction(g),
            "tcgen05.mma.sp.cta_group::2.kind::f16 [r0], [r1], rd1, [r2], r3, {r10, r11, r12, r13, "
            "r14, r15, r16, r17}, p0, 3;");
}

TEST(PtxFormModule, MalformationsChangeTheText) {
  const PtxForm f = WgmmaF16(8, Format::kF32);
  const std::string clean = FormModule(f, "sm_90a");
  EXPECT_NE(clean.find(".version 8.0\n.target sm_90a\n"), std::string::npos);
  for (int m = 1; m < kMalformationCount; ++m) {
    EXPECT_NE(FormModule(f, "sm_90a", static_cast<Malformation>(m), 17), clean)
        << Name(static_cast<Malformation>(m));
  }
  EXPECT_EQ(FormInstruction(f, Malformation::kTruncated, 5), "wgmma;");
}

TEST(NvJitLink, AcceptsALegalFormAndExplainsARejection) {
  const auto link = NvJitLink::Load();
  if (!link.ok()) GTEST_SKIP() << link.error();
  const PtxForm f = WgmmaF16(64, Format::kF32);
  const auto ok = link.value()->Assemble(FormModule(f, "sm_90a"), "sm_90a");
  EXPECT_TRUE(ok.accepted) << ok.diagnostic;
  // PTX 9.1 §9.7.15.5.2: wgmma needs sm_90a; without the suffix it is rejected, with a reason.
  const auto no = link.value()->Assemble(FormModule(f, "sm_90"), "sm_90");
  EXPECT_FALSE(no.accepted);
  EXPECT_FALSE(no.diagnostic.empty());
  EXPECT_FALSE(link.value()->Version().empty());
}

}  // namespace
}  // namespace tcfuzz::harness
