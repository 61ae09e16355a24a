// Host campaign for sparse MMA operands: metadata rules, the lane maps, compress/expand and the
// whole-instruction reference against exact arithmetic.

#include "generators/core/random_source.h"
#include "oracle/sparse/sparse_case_text.h"
#include "suites/engine/worker_protocol.h"
#include "generators/sparse/sparse_mma_gen.h"
#include "suites/checks/sparse_mma_checks.h"
#include "suites/engine/host_suite.h"
#include "suites/kinds/host_reproducers.h"

namespace tcfuzz::suites {
namespace {

using gen::Intent;

class SparseOracleSuite final : public HostSuite {
 public:
  std::string_view name() const override { return "sparse-oracle"; }
  std::string_view description() const override {
    return "mma.sp operands: metadata rules, lane maps, compress/expand, reference vs exact";
  }
  std::string_view text_kind() const override { return "sparse_mma"; }
  uint64_t default_cases() const override { return 90'000; }

  CaseResult RunCase(uint64_t, uint64_t case_seed) override {
    gen::RandomSource s(case_seed);
    const uint64_t roll = s.Below(10);
    const Intent intent = roll < 6 ? Intent::kLegal : roll < 9 ? Intent::kBreakOne : Intent::kRawBits;
    const gen::GeneratedSparse g = gen::DrawSparse(s, intent);
    CaseResult r;
    r.failures = CheckSparse(g);
    r.family = "sparse." + std::string(gen::IntentName(intent)) + "." + g.op.form->Name();
    if (intent == Intent::kBreakOne) r.tags.push_back(g.broken->id);
    r.tags.push_back(gen::Name(g.mode));
    if (!r.failures.empty()) r.reproducer = SparseReproducer(g, case_seed);  // the case itself: it replays alone
    return r;
  }
};

}  // namespace

std::unique_ptr<HostSuite> MakeSparseOracleSuite() { return std::make_unique<SparseOracleSuite>(); }

}  // namespace tcfuzz::suites
