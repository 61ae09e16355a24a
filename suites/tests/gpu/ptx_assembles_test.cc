// Every PTX module the harness renders assembles with the toolkit's ptxas for the target the
// form needs: each sparse form, spelling, accumulator and a selector, each dense form and
// accumulator, the wgmma descriptor kernel for every type, D type, transpose and a range of N,
// the planted-fault kernels.
// Runs wherever ptxas is (CI has the toolkit); no GPU needed. Skips visibly without ptxas.
#include <gtest/gtest.h>

#include "harness/mma_dense.h"
#include "harness/planted_faults.h"
#include "harness/sparse_mma_ptx.h"
#include "harness/wgmma_exec.h"
#include "oracle/sparse/sparse_form.h"
#include "suites/engine/atomic_file.h"
#include "suites/engine/subprocess.h"
#include "suites/tests/support/temp_dir.h"
#include "suites/toolchain/toolchain_scan.h"

namespace tcfuzz::harness {
namespace {

using oracle::num::Format;
using namespace oracle::sparse;

// "" when ptxas accepts the module for `arch`, else its diagnostic.
std::string Assemble(const std::string& ptxas, const std::string& dir, const std::string& ptx,
                     const std::string& arch) {
  const std::string path = dir + "/m.ptx";
  if (!suites::WriteFileAtomic(path, ptx).ok()) return "cannot write " + path;
  suites::CommandOptions o;
  o.timeout = std::chrono::milliseconds(60000);
  const auto r = suites::RunArgv({ptxas, "-arch=" + arch, "-o", "/dev/null", path}, "", o);
  return r.ok() ? "" : r.Describe(o.timeout) + ": " + r.err;
}

TEST(PtxAssembles, EverySparseFormForItsTarget) {
  const std::string ptxas = suites::FindPtxas();
  if (ptxas.empty()) GTEST_SKIP() << "no ptxas (CUDA toolkit) on this machine";
  const std::string dir = test::TempDir("ptxas");
  int modules = 0;
  for (const SparseForm& f : AllForms()) {
    const std::string target = f.target == "sm_120a" ? "sm_120a" : "sm_90";
    const bool integer = !oracle::num::IsFloat(f.type);
    std::vector<Format> cds =
        integer ? std::vector<Format>{Format::kS32} : std::vector<Format>{Format::kF32};
    if (f.type == Format::kF16) cds.push_back(Format::kF16);
    for (const Variant v : {Variant::kOrdered, Variant::kSp}) {
      if (v == Variant::kSp && f.ordered_only) continue;
      for (const Format cd : cds) {
        const MmaSpSpec spec{&f, v, f.max_selector(), f.type, f.type, cd, integer};
        EXPECT_EQ(Assemble(ptxas, dir, MmaSpModule(spec, target), target), "")
            << MmaSpInstruction(spec);
        ++modules;
      }
    }
  }
  EXPECT_GE(modules, 30);
}

TEST(PtxAssembles, EveryDenseFormForItsTarget) {
  const std::string ptxas = suites::FindPtxas();
  if (ptxas.empty()) GTEST_SKIP() << "no ptxas (CUDA toolkit) on this machine";
  const std::string dir = test::TempDir("ptxas_dense");
  for (const oracle::mma::DenseForm& f : oracle::mma::AllDenseForms()) {
    const bool integer = !oracle::num::IsFloat(f.type);
    std::vector<Format> cds =
        integer ? std::vector<Format>{Format::kS32} : std::vector<Format>{Format::kF32};
    if (f.type == Format::kF16) cds.push_back(Format::kF16);
    for (const Format cd : cds) {
      const MmaDenseSpec spec{&f, f.type, f.type, cd, integer};
      EXPECT_EQ(Assemble(ptxas, dir, MmaDenseModule(spec, "sm_90"), "sm_90"), "")
          << MmaDenseInstruction(spec);
    }
  }
}

TEST(PtxAssembles, WgmmaDescriptorKernelForSm90a) {
  const std::string ptxas = suites::FindPtxas();
  if (ptxas.empty()) GTEST_SKIP() << "no ptxas (CUDA toolkit) on this machine";
  const std::string dir = test::TempDir("ptxas_wgmma");
  struct Types {
    Format ab, b, d;
  };
  for (const Types& t : {Types{Format::kF16, Format::kF16, Format::kF32},
                         Types{Format::kF16, Format::kF16, Format::kF16},
                         Types{Format::kBF16, Format::kBF16, Format::kF32},
                         Types{Format::kTF32, Format::kTF32, Format::kF32},
                         Types{Format::kE4M3, Format::kE5M2, Format::kF16},
                         Types{Format::kE5M2, Format::kE4M3, Format::kF32},
                         Types{Format::kS8, Format::kU8, Format::kS32},
                         Types{Format::kU8, Format::kU8, Format::kS32}}) {
    const bool trans = t.ab == Format::kF16 || t.ab == Format::kBF16;
    for (int n : {8, 24, 64, 256}) {
      for (bool with_c : {false, true}) {  // scale-d false, or C loaded into the accumulators
        WgmmaSpec s{t.ab, t.b, t.d, n, trans ? 1 : 0, 0, 64 * 1024};
        s.with_c = with_c;
        const std::string module = WgmmaModule(s);
        EXPECT_EQ(module.find("setp.eq.b32 %sd, 0, 0;") != std::string::npos, with_c);
        EXPECT_EQ(Assemble(ptxas, dir, module, "sm_90a"), "") << WgmmaInstruction(s);
      }
    }
  }
}

// The wgmma.mma_async.sp kernel (metadata register per thread, selector immediate) for every
// sparse type pair, each selector the form takes, a few N.
TEST(PtxAssembles, WgmmaSparseDescriptorKernelForSm90a) {
  const std::string ptxas = suites::FindPtxas();
  if (ptxas.empty()) GTEST_SKIP() << "no ptxas (CUDA toolkit) on this machine";
  const std::string dir = test::TempDir("ptxas_wgmma_sp");
  struct Types {
    Format ab, b, d;
    const char* shape;
  };
  int assembled = 0;
  for (const Types& t : {Types{Format::kF16, Format::kF16, Format::kF32, "m16n8k32"},
                         Types{Format::kF16, Format::kF16, Format::kF16, "m16n8k32"},
                         Types{Format::kBF16, Format::kBF16, Format::kF32, "m16n8k32"},
                         Types{Format::kTF32, Format::kTF32, Format::kF32, "m16n8k16"},
                         Types{Format::kE4M3, Format::kE5M2, Format::kF32, "m16n8k64"},
                         Types{Format::kS8, Format::kU8, Format::kS32, "m16n8k64"}}) {
    const oracle::sparse::SparseForm* form = oracle::sparse::FindForm(t.shape, t.ab);
    ASSERT_NE(form, nullptr) << t.shape;
    for (int sel = 0; sel <= form->max_selector(); ++sel) {
      for (int n : {8, 64, 256}) {
        WgmmaSpec s{t.ab, t.b, t.d, n, 0, 0, 64 * 1024, form, sel, n == 64};
        const std::string ins = WgmmaInstruction(s);
        EXPECT_EQ(ins.rfind("wgmma.mma_async.sp.sync.aligned.m64n" + std::to_string(n) + "k", 0),
                  0u)
            << ins;
        EXPECT_NE(ins.find(", %meta, " + std::to_string(sel) + ", %sd"), std::string::npos) << ins;
        EXPECT_EQ(Assemble(ptxas, dir, WgmmaModule(s), "sm_90a"), "") << ins;
        ++assembled;
      }
    }
  }
  EXPECT_EQ(assembled, 3 * (2 + 2 + 2 + 2 + 1 + 1));
}

TEST(PtxAssembles, PlantedFaultKernels) {
  const std::string ptxas = suites::FindPtxas();
  if (ptxas.empty()) GTEST_SKIP() << "no ptxas (CUDA toolkit) on this machine";
  const std::string dir = test::TempDir("ptxas_planted");
  for (const PlantedFault k : {PlantedFault::kIllegalAddress, PlantedFault::kHang}) {
    EXPECT_EQ(Assemble(ptxas, dir, PlantedFaultModule(k, "sm_90"), "sm_90"), "");
  }
}

}  // namespace
}  // namespace tcfuzz::harness
