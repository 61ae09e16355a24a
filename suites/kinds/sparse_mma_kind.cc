// The sparse_mma kind: one mma.sp / mma.sp::ordered_metadata case (oracle/sparse/
// sparse_case_text.h). Two kinds of file hold it: a host case (sparse-oracle: origin.intent and
// expect.rules say what it is for) and a GPU case (sparse-mma, sparse-mma-exact, corpus captures:
// the device's D, and the device it ran on). Host reproducers of tcfuzz 0.1.0 held only
// origin.case_seed; those are still read, and regenerated from the seed.
#include "generators/core/random_source.h"
#include "oracle/sparse/sparse_case_text.h"
#include "suites/checks/sparse_mma_checks.h"
#include "suites/cli/repro_cu.h"
#include "suites/engine/device_campaign.h"
#include "suites/engine/device_workers.h"
#include "suites/engine/worker_protocol.h"
#include "suites/kinds/case_kind.h"
#include "suites/kinds/host_reproducers.h"
#include "suites/kinds/sparse_mma_device.h"
#include "suites/reduce/sparse_minimize.h"

namespace tcfuzz::suites {
namespace {

using oracle::sparse::SparseCaseFile;
using R = oracle::Result<Replayed>;

// The intent the sparse-oracle suite draws with for a case seed (its RunCase does the same).
gen::Intent IntentOf(gen::RandomSource& s) {
  const uint64_t roll = s.Below(10);
  return roll < 6 ? gen::Intent::kLegal : roll < 9 ? gen::Intent::kBreakOne : gen::Intent::kRawBits;
}

// tcfuzz 0.1.0's host reproducer: the case regenerated from origin.case_seed.
R ReplaySeedOnly(const oracle::TextDoc& doc) {
  auto seed = doc.Uint("origin.case_seed", ~uint64_t{0});
  auto intent_name = doc.String("origin.intent");
  if (!seed.ok()) return R::Fail(seed.error() + " (nor a case: no 'form')");
  if (!intent_name.ok()) return R::Fail(intent_name.error());
  gen::RandomSource s(seed.value());
  const gen::Intent intent = IntentOf(s);
  if (gen::IntentName(intent) != intent_name.value()) return R::Fail("origin.intent does not match the case seed");
  return R::Ok({CheckSparse(gen::DrawSparse(s, intent)), {}});
}

// A host case held in the file: the generated case rebuilt from it and every check re-run.
R ReplayHostCase(const oracle::TextDoc& doc, const SparseCaseFile& c) {
  gen::GeneratedSparse g;
  g.op = c.op;
  g.tile = c.tile;
  const auto intent = gen::ParseIntent(doc.String("origin.intent").value());
  if (!intent) return R::Fail("origin.intent: not legal, break_one or raw_bits");
  g.intent = *intent;
  if (doc.Has("origin.mode")) {
    const auto mode = gen::ParseValueMode(doc.String("origin.mode").value());
    if (!mode) return R::Fail("origin.mode: not random, small_int, edge or probe");
    g.mode = *mode;
  }
  if (g.intent == gen::Intent::kBreakOne) {
    const auto rules = oracle::ParseRuleIds(doc.Has("expect.rules") ? doc.String("expect.rules").value() : "");
    if (!rules.ok() || rules.value().size() != 1) return R::Fail("expect.rules: a break_one case names the one rule it breaks");
    g.broken = oracle::FindRule(rules.value()[0]);
    if (g.broken == nullptr) return R::Fail("expect.rules: no rule '" + rules.value()[0] + "'");
  }
  return R::Ok({CheckSparse(g), {}});
}

// A GPU case: without a GPU, whether the oracle (the numerics row of the device the file names)
// still disagrees with the D recorded in it.
R ReplayDeviceCase(const oracle::TextDoc& doc, const SparseCaseFile& c) {
  if (!c.observed) return R::Ok(UnobservedDeviceCase(doc, "sparse"));
  const auto gpu = RecordedGpuRow(doc);
  if (!gpu) return R::Fail("origin.gpu: missing, and origin.device names no compute capability");
  const bool exact = doc.Has("origin.mode") && gen::IsExact(doc.String("origin.mode").value());
  const auto params = SparseParams(c.tile, *gpu);
  if (!params && !exact && oracle::num::IsFloat(c.tile.a_type)) {
    return R::Ok({{}, "not compared: the oracle has no arithmetic model for " + c.op.form->Name() + " on " +
                          std::string(oracle::num::Name(*gpu))});
  }
  const auto want = oracle::sparse::Reference(c.tile, params.value_or(oracle::num::ExactParams(c.tile.cd)));
  Replayed out;
  if (const std::string what = MismatchDetail(want, *c.observed); !what.empty()) {
    out.failures.push_back({"sparse.device_mismatch", what});
  }
  return R::Ok(out);
}

R Replay(const oracle::TextDoc& doc) {
  if (!doc.Has("form")) return ReplaySeedOnly(doc);
  const auto c = oracle::sparse::SparseCaseFromDoc(doc);
  if (!c.ok()) return R::Fail(c.error());
  return doc.Has("origin.intent") ? ReplayHostCase(doc, c.value()) : ReplayDeviceCase(doc, c.value());
}

std::string Text(const SparseCaseFile& k, const Origin& origin = {}) {
  oracle::TextWriter w(oracle::sparse::kSparseKind);
  oracle::sparse::AppendSparseCase(w, k.op, k.tile, k.observed ? &*k.observed : nullptr);
  for (const auto& [key, value] : origin) w.Add(key, value);
  return w.str();
}

oracle::Result<std::string> Reprint(const oracle::TextDoc& doc) {
  const auto c = oracle::sparse::SparseCaseFromDoc(doc);
  if (!c.ok()) return oracle::Result<std::string>::Fail(c.error());
  (void)oracle::sparse::Reference(c.value().tile, oracle::num::ExactParams(c.value().tile.cd));
  return oracle::Result<std::string>::Ok(Text(c.value()));
}

std::string Draw(gen::Source& s) {
  const uint64_t roll = s.Below(3);
  const gen::Intent intent = roll == 0 ? gen::Intent::kLegal : roll == 1 ? gen::Intent::kBreakOne : gen::Intent::kRawBits;
  return SparseReproducer(gen::DrawSparse(s, intent), 0);
}

int RunOnDevice(const std::string& file, const oracle::TextDoc& doc, std::ostream& out) {
  const auto k = oracle::sparse::SparseCaseFromDoc(doc);
  return k.ok() ? RunSparseCaseWorker(k.value(), out) : CaseFileError(file + ": " + k.error(), out);
}

oracle::Result<MinimizeJob> Minimize(const std::string& file, const oracle::TextDoc& doc, int budget) {
  auto read = oracle::sparse::SparseCaseFromDoc(doc);
  if (!read.ok()) return oracle::Result<MinimizeJob>::Fail(file + ": " + read.error());
  SparseCaseFile start = std::move(read).value();
  MinimizeJob job;
  job.start_text = Text(start);
  job.minimize = [start, budget](const FailureSignature& sig, const auto& observed, const auto& eval, const Origin& origin) mutable {
    start.observed = observed;  // what this device returns, not what the file recorded
    const MinimizeResult r = MinimizeSparse(start, sig, [&](const SparseCaseFile& k) { return eval(Text(k)); }, budget);
    return std::pair{Text(r.minimized, origin), std::to_string(r.accepted) + " steps kept of " + std::to_string(r.tries) +
                                                    " tried; " + std::to_string(NonZeroValues(start)) + " -> " +
                                                    std::to_string(NonZeroValues(r.minimized)) + " non-zero values"};
  };
  return oracle::Result<MinimizeJob>::Ok(std::move(job));
}

}  // namespace

const CaseKind& SparseMmaKind() {
  static const CaseKind kind{oracle::sparse::kSparseKind,
                             "mma.sp case: operands, metadata, what it is for or the D a device returned",
                             Replay,
                             Reprint,
                             Draw,
                             RunOnDevice,
                             EmitSparseCu,
                             Minimize};
  return kind;
}

}  // namespace tcfuzz::suites
