// The tcgen05 descriptor kernels: assembled for sm_100a and sm_103a by nvJitLink here (no GPU),
// holding the intended forms, rejected where tcgen05 does not exist (the device run is
// gpu/tcgen05_hw_test.cc).
#include <gtest/gtest.h>

#include "harness/nvjitlink.h"
#include "harness/tcgen05_exec.h"
#include "oracle/ptx/instruction_form.h"

namespace tcfuzz::harness {
namespace {

using oracle::num::Format;

TEST(Tcgen05Kernel, AssemblesForBlackwellWithTheIntendedForms) {
  const auto link = NvJitLink::Load();
  if (!link.ok()) GTEST_SKIP() << link.error();
  for (bool ws : {false, true}) {
    for (Format t : {Format::kF16, Format::kBF16, Format::kTF32, Format::kE4M3, Format::kS8}) {
      for (int n : {8, 64, 128}) {
        Tcgen05Spec s{t, t, t == Format::kS8 ? Format::kS32 : Format::kF32, n, ws, 64 * 1024};
        const std::string ptx = Tcgen05Module(s);  // sm_100a
        for (const std::string& form :
             {std::string("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32"), std::string(ws ? "tcgen05.mma.ws" : "tcgen05.mma") +
                                                                              ".cta_group::1.kind::" + Tcgen05Kind(t),
              std::string("tcgen05.commit.cta_group::1.mbarrier::arrive::one"), "tcgen05.ld.sync.aligned.32x32b.x" + std::to_string(n),
              std::string("tcgen05.dealloc.cta_group::1")}) {
          EXPECT_NE(ptx.find(form), std::string::npos) << form;
        }
        EXPECT_EQ(ptx.find("%sd, %mask;") != std::string::npos, ws);  // the zero-column mask operand on .ws only
        // Accepted where the oracle's form model says the form exists (kind::i8 is not on sm_103a).
        oracle::ptx::PtxForm form;
        form.family = ws ? oracle::ptx::Family::kTcgen05Ws : oracle::ptx::Family::kTcgen05;
        form.kind = t == Format::kS8 ? oracle::ptx::Kind::kI8 : t == Format::kTF32 ? oracle::ptx::Kind::kTf32
                  : t == Format::kE4M3 ? oracle::ptx::Kind::kF8f6f4 : oracle::ptx::Kind::kF16;
        form.zero_column_mask = ws;
        form.ptx = 88;
        for (const char* target : {"sm_100a", "sm_103a"}) {
          const auto r = link.value()->Assemble(Tcgen05Module(s, target), target);
          EXPECT_EQ(r.accepted, oracle::ptx::ValidateForm(form, target).legal())
              << Tcgen05Instruction(s) << " on " << target << ": " << r.diagnostic;
        }
      }
    }
  }
  // §9.7.16.10.9: no tcgen05 before Blackwell.
  EXPECT_FALSE(link.value()->Assemble(Tcgen05Module({}, "sm_90a"), "sm_90a").accepted);
}

}  // namespace
}  // namespace tcfuzz::harness
