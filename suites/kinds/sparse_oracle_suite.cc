// Host campaign for sparse MMA operands: metadata rules, the lane maps, compress/expand and the
// whole-instruction reference against exact arithmetic.

#include "generators/core/random_source.h"
#include "oracle/sparse/sparse_case_text.h"
#include "suites/engine/worker_protocol.h"
#include "generators/sparse/sparse_mma_gen.h"
#include "suites/checks/sparse_mma_checks.h"
#include "suites/engine/host_suite.h"

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
    if (!r.failures.empty()) {
      // A sparse case is regenerated from its seed: the reproducer records where it came from.
      oracle::TextWriter w("sparse_mma");
      w.Add("origin.intent", gen::IntentName(intent));
      w.Add("origin.form", g.op.form->Name());
      w.AddHex("origin.case_seed", case_seed, 16);
      r.reproducer = w.str();
    }
    return r;
  }

  oracle::Result<CheckFailures> Replay(const oracle::TextDoc& doc) override {
    if (doc.Has("origin.gpu")) return ReplayDeviceCase(doc);
    auto seed = doc.Uint("origin.case_seed", ~uint64_t{0});
    auto intent_name = doc.String("origin.intent");
    if (!seed.ok()) return oracle::Result<CheckFailures>::Fail(seed.error());
    if (!intent_name.ok()) return oracle::Result<CheckFailures>::Fail(intent_name.error());
    // Regenerate exactly as RunCase did.
    gen::RandomSource s(seed.value());
    const uint64_t roll = s.Below(10);
    const Intent intent = roll < 6 ? Intent::kLegal : roll < 9 ? Intent::kBreakOne : Intent::kRawBits;
    if (gen::IntentName(intent) != intent_name.value()) {
      return oracle::Result<CheckFailures>::Fail("origin.intent does not match the case seed");
    }
    return oracle::Result<CheckFailures>::Ok(CheckSparse(gen::DrawSparse(s, intent)));
  }

 private:
  // A case of the sparse-mma GPU suite: the operands and what the device returned are in the
  // file, so without a GPU the replay asks whether the oracle still disagrees with that device.
  static oracle::Result<CheckFailures> ReplayDeviceCase(const oracle::TextDoc& doc) {
    using R = oracle::Result<CheckFailures>;
    auto c = oracle::sparse::SparseCaseFromDoc(doc);
    if (!c.ok()) return R::Fail(c.error());
    const auto gpu = oracle::num::ParseGpu(doc.String("origin.gpu").value());
    if (!gpu) return R::Fail("origin.gpu: not a GPU name");
    const auto text = [&doc](std::string_view key, const char* otherwise) {
      auto v = doc.String(key);
      return v.ok() ? v.value() : std::string(otherwise);
    };
    CheckFailures out;
    if (!c.value().observed) {
      out.push_back(UnobservedDeviceCase(doc, "sparse"));
      return R::Ok(out);
    }
    const std::string mode = text("origin.mode", "random");
    const bool exact = mode == gen::Name(gen::ValueMode::kSmallInt) || mode == gen::Name(gen::ValueMode::kProbe);
    const auto params = SparseParams(c.value().tile, *gpu);
    if (!params && !exact) return R::Fail("no arithmetic model for this form on " + std::string(oracle::num::Name(*gpu)));
    const auto want = oracle::sparse::Reference(c.value().tile, params.value_or(oracle::num::ExactParams(c.value().tile.cd)));
    if (const std::string what = MismatchDetail(want, *c.value().observed); !what.empty()) {
      out.push_back({"sparse.device_mismatch", what});
    }
    return R::Ok(out);
  }
};

}  // namespace

std::unique_ptr<HostSuite> MakeSparseOracleSuite() { return std::make_unique<SparseOracleSuite>(); }

}  // namespace tcfuzz::suites
