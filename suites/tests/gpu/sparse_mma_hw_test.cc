// mma.sp / mma.sp::ordered_metadata on the GPU against the oracle: every form the device runs,
// every selector, both spellings, each value mode. Operands are placed in registers only by the
// oracle's fragment maps, so a wrong map shows up as a wrong D.
//
// Layout (probe and small-integer cases, whose sums are exact) must agree on every case: that
// settles the fragment and metadata hypotheses (docs/doc-vs-hardware.md SP1-SP3). Random and
// edge-value cases also test the arithmetic model; their agreement is printed per form.
#include <gtest/gtest.h>

#include <map>
#include <tuple>

#include "generators/core/random_source.h"
#include "generators/sparse/sparse_mma_gen.h"
#include "harness/device.h"
#include "harness/ptx_kernel.h"
#include "harness/sparse_mma_exec.h"
#include "oracle/sparse/sparse_case_text.h"
#include "suites/checks/sparse_mma_checks.h"
#include "suites/engine/atomic_file.h"
#include "suites/engine/device_workers.h"
#include "suites/tests/support/gpu_skip.h"
#include "suites/tests/support/test_seed.h"

namespace tcfuzz {
namespace {

using namespace oracle::sparse;
using oracle::num::Format;

struct Tally {
  int layout_cases = 0, layout_ok = 0, arith_cases = 0, arith_ok = 0;
  std::string first_bad;
};

TEST(SparseMmaHw, EveryFormAgreesWithTheOracle) {
  TCFUZZ_SKIP_BELOW_SM(8, "mma.sp");
  const oracle::num::Gpu gpu = suites::GpuOf(info);  // the device's numerics row
  // Draw legal cases and group them by instruction form.
  gen::RandomSource s(test::Seed());
  using Key = std::tuple<std::string, int, int, int, int, int, bool>;
  std::map<Key, std::vector<gen::GeneratedSparse>> buckets;
  const int draws = std::getenv("TCFUZZ_SPARSE_HW_CASES")
                        ? std::atoi(std::getenv("TCFUZZ_SPARSE_HW_CASES"))
                        : 20000;
  for (int i = 0; i < draws; ++i) {
    gen::GeneratedSparse g = gen::DrawSparse(s, gen::Intent::kLegal);
    const bool fp8 = g.tile.a_type == Format::kE4M3 || g.tile.a_type == Format::kE5M2;
    if (fp8 && gpu == oracle::num::Gpu::kSm80) continue;
    const Key k{g.op.form->Name(),
                static_cast<int>(g.op.variant),
                g.op.selector,
                static_cast<int>(g.tile.b_type),
                static_cast<int>(g.tile.cd),
                static_cast<int>(g.mode),
                g.tile.satfinite};
    buckets[k].push_back(std::move(g));
  }
  std::map<std::string, Tally> per_form;
  // Candidate arithmetic parameters, scored per form over the non-layout cases: which row of
  // the numerics model the device follows (printed; the open rows are decided from this).
  struct Candidate {
    std::string name;
    oracle::num::DotParams p;
    SparseBlocking blocking;
  };
  std::vector<Candidate> candidates;
  for (int F : {13, 24, 25}) {
    for (int L : {16, 32}) {
      for (auto rho : {oracle::num::Rounding::kRzF32, oracle::num::Rounding::kRzE8M13}) {
        for (bool negzero : {true, false}) {
          for (auto blk : {SparseBlocking::kCompressed, SparseBlocking::kDense}) {
            char name[96];
            std::snprintf(name, sizeof name, "F=%d L=%d %s %s %s", F, L,
                          rho == oracle::num::Rounding::kRzF32 ? "RZ-f32" : "RZ-E8M13",
                          negzero ? "-0" : "+0",
                          blk == SparseBlocking::kCompressed ? "compressed" : "dense");
            candidates.push_back({name, oracle::num::DotParams{F, L, -133, rho, negzero}, blk});
          }
        }
      }
    }
  }
  std::map<std::string, std::map<std::string, int>> score;  // form -> candidate -> matches
  std::map<std::string, int> scored;
  for (const auto& [key, cases] : buckets) {
    const gen::GeneratedSparse& first = cases.front();
    harness::MmaSpSpec spec{first.op.form,       first.op.variant,  first.op.selector,
                            first.tile.a_type,   first.tile.b_type, first.tile.cd,
                            first.tile.satfinite};
    std::vector<harness::MmaSpCase> batch;
    for (const auto& g : cases) batch.push_back({g.op, g.tile});
    auto d = harness::RunMmaSp(spec, batch);
    ASSERT_TRUE(d.ok()) << harness::MmaSpInstruction(spec) << ": " << d.error();
    const auto params = suites::SparseParams(first.tile, gpu);
    // With TCFUZZ_CAPTURE_DIR set, the first case of every bucket is kept with what the device
    // returned: the corpus of own captures that checks the oracle without a GPU.
    if (const char* dir = std::getenv("TCFUZZ_CAPTURE_DIR")) {
      oracle::TextWriter w(oracle::sparse::kSparseKind);
      w.Add("origin.device", info.name + ", CC " + std::to_string(info.cc_major) + "." +
                                 std::to_string(info.cc_minor) + ", driver " +
                                 std::to_string(info.driver_version));
      w.Add("origin.mode", gen::Name(first.mode));
      AppendSparseCase(w, first.op, first.tile, &d.value()[0]);
      static int serial = 0;
      char name[160];
      std::snprintf(name, sizeof name, "%s/%s_%s_sel%d_%s_%s_%03d.txt", dir,
                    first.op.form->Name().c_str(),
                    first.op.variant == Variant::kOrdered ? "ordered" : "sp", first.op.selector,
                    std::string(oracle::num::Name(first.tile.cd)).c_str(),
                    std::string(gen::Name(first.mode)).c_str(), serial++);
      ASSERT_TRUE(suites::WriteFileAtomic(name, w.str()).ok());
    }
    for (std::size_t i = 0; i < cases.size(); ++i) {
      const auto& g = cases[i];
      const bool layout = g.mode == gen::ValueMode::kSmallInt || g.mode == gen::ValueMode::kProbe;
      const auto want = Reference(g.tile, params.value_or(oracle::num::DotParams{}));
      const bool ok = want == d.value()[i];
      const std::string form_name =
          g.op.form->Name() + (g.tile.cd == Format::kF16 ? ".f16acc" : "");
      if (!layout && oracle::num::IsFloat(g.tile.a_type) && g.tile.cd == Format::kF32) {
        ++scored[form_name];
        for (const Candidate& c : candidates) {
          score[form_name][c.name] += Reference(g.tile, c.p, c.blocking) == d.value()[i];
        }
      }
      Tally& t = per_form[form_name];
      (layout ? t.layout_cases : t.arith_cases)++;
      (layout ? t.layout_ok : t.arith_ok) += ok;
      if (!ok && t.first_bad.empty()) {
        for (int e = 0; e < 128; ++e) {
          if (want[static_cast<std::size_t>(e)] != d.value()[i][static_cast<std::size_t>(e)]) {
            char buf[200];
            std::snprintf(buf, sizeof buf, "%s sel %d %s mode %s: D[%d][%d] oracle %08x gpu %08x",
                          harness::MmaSpInstruction(spec).substr(0, 60).c_str(), g.op.selector,
                          g.op.variant == Variant::kOrdered ? "ordered" : "plain",
                          std::string(gen::Name(g.mode)).c_str(), e / 8, e % 8,
                          want[static_cast<std::size_t>(e)],
                          d.value()[i][static_cast<std::size_t>(e)]);
            t.first_bad = buf;
            break;
          }
        }
      }
    }
  }
  std::printf("%-22s %16s %16s\n", "form", "layout (exact)", "arithmetic");
  for (const auto& [form, t] : per_form) {
    std::printf("%-22s %7d / %6d %7d / %6d  %s\n", form.c_str(), t.layout_ok, t.layout_cases,
                t.arith_ok, t.arith_cases, t.first_bad.c_str());
  }
  for (const auto& [form, cands] : score) {
    int best = 0;
    for (const auto& [name, n] : cands) best = std::max(best, n);
    std::printf("%s: best candidates (%d / %d):", form.c_str(), best, scored[form]);
    for (const auto& [name, n] : cands) {
      if (n == best) std::printf(" [%s]", name.c_str());
    }
    std::printf("\n");
  }
  for (const auto& [form, t] : per_form) {
    EXPECT_EQ(t.layout_ok, t.layout_cases) << form << ": " << t.first_bad;
  }
}

}  // namespace
}  // namespace tcfuzz
