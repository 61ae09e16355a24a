// The sparse_mma kind: one mma.sp / mma.sp::ordered_metadata case (oracle/sparse/
// sparse_case_text.h). Two kinds of file hold it: a host case (sparse-oracle: origin.intent and
// expect.rules say what it is for) and a GPU case (sparse-mma, sparse-mma-exact, corpus captures:
// the device's D, and the device it ran on). Host reproducers of tcfuzz 0.1.0 held only
// origin.case_seed; those are still read, and regenerated from the seed.
#include <cmath>

#include "generators/core/random_source.h"
#include "generators/mma/device_drawn_dense_gen.h"
#include "generators/sparse/sparse_mma_gen.h"
#include "oracle/numerics/formats.h"
#include "oracle/sparse/sparse_case_text.h"
#include "suites/checks/sparse_mma_checks.h"
#include "suites/engine/device_campaign.h"
#include "suites/engine/device_workers.h"
#include "suites/engine/host_suite.h"
#include "suites/engine/worker_protocol.h"
#include "suites/kinds/case_kind.h"
#include "suites/kinds/emit_cu.h"
#include "suites/kinds/judged_device.h"
#include "suites/kinds/operand_probes.h"
#include "suites/kinds/sparse_mma_device.h"
#include "suites/reduce/sparse_mma_minimize.h"

namespace tcfuzz::suites {
namespace {

using gen::Intent;
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
  if (gen::IntentName(intent) != intent_name.value())
    return R::Fail("origin.intent does not match the case seed");
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
    const auto rules =
        oracle::ParseRuleIds(doc.Has("expect.rules") ? doc.String("expect.rules").value() : "");
    if (!rules.ok() || rules.value().size() != 1)
      return R::Fail("expect.rules: a break_one case names the one rule it breaks");
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
    return R::Ok({{},
                  "not compared: the oracle has no arithmetic model for " + c.op.form->Name() +
                      " on " + std::string(oracle::num::Name(*gpu))});
  }
  const auto want =
      oracle::sparse::Reference(c.tile, params.value_or(oracle::num::ExactParams(c.tile.cd)));
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
  return doc.Has("origin.intent") ? ReplayHostCase(doc, c.value())
                                  : ReplayDeviceCase(doc, c.value());
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

// The reproducer of a host case: the case itself and what it is for (intent, value mode, the rule
// it breaks), so the file replays alone; `case_seed` is provenance only.
std::string Reproducer(const gen::GeneratedSparse& g, uint64_t case_seed) {
  oracle::TextWriter w(oracle::sparse::kSparseKind);
  oracle::sparse::AppendSparseCase(w, g.op, g.tile);
  w.Add("origin.intent", gen::IntentName(g.intent));
  w.Add("origin.mode", gen::Name(g.mode));
  if (g.intent == gen::Intent::kLegal) w.Add("expect.rules", "");
  if (g.intent == gen::Intent::kBreakOne) w.Add("expect.rules", g.broken->id);
  if (case_seed != 0)
    w.AddHex("origin.case_seed", case_seed, 16);  // provenance: the case is in the file
  return w.str();
}

class SparseOracleSuite final : public HostSuite {
 public:
  std::string_view name() const override { return "sparse-oracle"; }
  std::string_view description() const override {
    return "mma.sp operands: metadata rules, lane maps, compress/expand, reference vs exact";
  }
  std::string_view text_kind() const override { return "sparse_mma"; }
  uint64_t default_cases() const override { return 90'000; }
  std::vector<std::string> families() const override {
    std::vector<std::string> out;
    for (Intent i : {Intent::kLegal, Intent::kBreakOne, Intent::kRawBits}) {
      for (const oracle::sparse::SparseForm& f : oracle::sparse::AllForms()) {
        std::string name = "sparse." + std::string(gen::IntentName(i)) + "." + f.Name();
        if (std::find(out.begin(), out.end(), name) == out.end()) out.push_back(std::move(name));
      }
    }
    return out;
  }

  CaseResult RunCase(uint64_t, uint64_t case_seed) override {
    gen::RandomSource s(case_seed);
    const uint64_t roll = s.Below(10);
    const Intent intent = roll < 6   ? Intent::kLegal
                          : roll < 9 ? Intent::kBreakOne
                                     : Intent::kRawBits;
    const gen::GeneratedSparse g = gen::DrawSparse(s, intent);
    CaseResult r;
    std::vector<uint32_t> want;
    r.failures = CheckSparse(g, &want);
    r.family = "sparse." + std::string(gen::IntentName(intent)) + "." + g.op.form->Name();
    if (intent == Intent::kBreakOne) r.tags.push_back(g.broken->id);
    r.tags.push_back(gen::Name(g.mode));
    if (intent == Intent::kLegal) {
      for (const std::string_view tag : ChunkClasses(g.tile)) r.tags.push_back(tag);
    }
    if (!want.empty()) {  // a legal case with a D
      SparseProbes(g.tile, SparseParams(g.tile).value_or(oracle::num::ExactParams(g.tile.cd)), want,
                   ProbesMutants(case_seed), r.probes);
    }
    if (!r.failures.empty())
      r.reproducer = Reproducer(g, case_seed);  // the case itself: it replays alone
    return r;
  }
};

std::string Draw(gen::Source& s) {
  const uint64_t roll = s.Below(3);
  const gen::Intent intent = roll == 0   ? gen::Intent::kLegal
                             : roll == 1 ? gen::Intent::kBreakOne
                                         : gen::Intent::kRawBits;
  return Reproducer(gen::DrawSparse(s, intent), 0);
}

int RunOnDevice(const std::string& file, const oracle::TextDoc& doc, std::ostream& out) {
  const auto k = oracle::sparse::SparseCaseFromDoc(doc);
  return k.ok() ? RunSparseCaseWorker(k.value(), out) : CaseFileError(file + ": " + k.error(), out);
}

oracle::Result<MinimizeJob> Minimize(const std::string& file, const oracle::TextDoc& doc,
                                     int budget) {
  auto read = oracle::sparse::SparseCaseFromDoc(doc);
  if (!read.ok()) return oracle::Result<MinimizeJob>::Fail(file + ": " + read.error());
  SparseCaseFile start = std::move(read).value();
  MinimizeJob job;
  job.start_text = Text(start);
  job.minimize = [start, budget](const FailureSignature& sig, const auto& observed,
                                 const auto& eval, const Origin& origin) mutable {
    start.observed = observed;  // what this device returns, not what the file recorded
    const MinimizeResult r = MinimizeSparse(
        start, sig, [&](const SparseCaseFile& k) { return eval(Text(k)); }, budget);
    return std::pair{Text(r.minimized, origin),
                     std::to_string(r.accepted) + " steps kept of " + std::to_string(r.tries) +
                         " tried; " + std::to_string(NonZeroValues(start)) + " -> " +
                         std::to_string(NonZeroValues(r.minimized)) + " non-zero values"};
  };
  return oracle::Result<MinimizeJob>::Ok(std::move(job));
}

// For a sparse probe case (A holds 1 + its column mod 8, B is one-hot per column), which A
// element the device read for the first differing element of D, next to the one the oracle reads.
std::string SparseProbeExplanation(const gen::GeneratedSparse& g,
                                   const std::vector<uint32_t>& observed) {
  if (g.mode != gen::ValueMode::kProbe || observed.size() != 128) return {};
  const std::vector<uint32_t> want = oracle::sparse::Reference(
      g.tile, oracle::num::ExactParams(g.tile.cd));  // probe sums are exact in any row
  const auto first = FirstDifference(want, observed);
  if (!first) return {};
  const std::size_t e = *first;
  const int row = static_cast<int>(e / 8), col = static_cast<int>(e % 8);
  int hot = -1;
  for (int k = 0; k < g.op.form->k; ++k) {
    if (g.tile.b[static_cast<std::size_t>(k * 8 + col)] != 0) hot = k;
  }
  const auto value = [&](uint32_t bits) { return oracle::num::ToDouble(g.tile.cd, bits); };
  const double c = value(g.tile.c[e]);
  const auto read = [&](double v) {
    const double a = v - c;
    if (a == 0) return std::string("no A element (0)");
    if (!(a >= 1 && a <= 8) || a != std::floor(a))
      return "the value " + std::to_string(a) + " (not a probe value)";
    return "an A element of column = " + std::to_string(static_cast<int>(a) - 1) + " (mod " +
           (g.tile.cd == oracle::num::Format::kS32 ? "7" : "8") + ")";
  };
  return "probe: D[" + std::to_string(row) + "][" + std::to_string(col) +
         "] meets B's one hot row " + std::to_string(hot) + "; the oracle reads " +
         read(value(want[e])) + ", the device read " + read(value(observed[e]));
}

gen::GeneratedSparse DrawExact(uint64_t seed, uint64_t index) {
  return DrawSparseExactCase(kSparseMmaExactSuite, seed, index);
}
gen::GeneratedSparse DrawExactF16K32(uint64_t seed, uint64_t index) {
  return DrawSparseExactCase(kSparseMmaExactF16K32Suite, seed, index);
}

// A drawn case with the device's D (empty when the worker sent none), its value mode named `mode`.
DescribedCase DescribeSparseCase(const gen::GeneratedSparse& g, std::string mode,
                                 const std::vector<uint32_t>& observed, oracle::num::Gpu gpu) {
  oracle::TextWriter w(oracle::sparse::kSparseKind);
  oracle::sparse::AppendSparseCase(w, g.op, g.tile, observed.size() == 128 ? &observed : nullptr);
  DescribedCase d{SparseFamily(g),
                  SparseProbeExplanation(g, observed),
                  std::move(mode),
                  w.str(),
                  {},
                  oracle::sparse::ReadingsOf(*g.op.form, g.op.variant)};
  const auto params = SparseParams(g.tile, gpu);
  if (params && !gen::IsExact(g.mode)) d.rests_on.push_back("N1");
  if (observed.size() == 128) {
    const std::vector<uint32_t> want =
        oracle::sparse::Reference(g.tile, params.value_or(oracle::num::DotParams{}));
    AddArithmetic(d.rests_on, params, gen::IsExact(g.mode), want, observed,
                  gpu == oracle::num::Gpu::kSm90);
    d.expected = want;
    d.cols = 8;
    d.d_format = std::string(oracle::num::Name(g.tile.cd));
  }
  return d;
}

template <gen::GeneratedSparse (*Draw)(uint64_t, uint64_t)>
DescribedCase DescribeSparse(uint64_t seed, uint64_t index, const std::vector<uint32_t>& observed,
                             oracle::num::Gpu gpu) {
  const gen::GeneratedSparse g = Draw(seed, index);
  return DescribeSparseCase(g, std::string(gen::Name(g.mode)), observed, gpu);
}

DescribedCase DescribeSparseJudged(uint64_t seed, uint64_t index,
                                   const std::vector<uint32_t>& observed, oracle::num::Gpu gpu) {
  const gen::DeviceDrawnSparseFloat g = DrawSparseJudgedCase(seed, index);
  return DescribeSparseCase(g.sparse, std::string(gen::Name(g.mode)), observed, gpu);
}

// A sparse case is one warp and about 2 us of oracle. The exact suites draw and check on the
// device: a worker takes up to 1,024 launches (64M cases by default, about 3 s on an H100, so
// start-up stays a small share).
const DeviceSuite kDeviceSuites[] = {
    {.name = kSparseMmaDeviceSuite,
     .text_kind = oracle::sparse::kSparseKind,
     .description = "every mma.sp / mma.sp::ordered_metadata form the device runs, bit for bit "
                    "against the oracle",
     .worker_batch = uint64_t{1} << 16,
     .watchdog_per_case = std::chrono::microseconds(50),
     .describe = DescribeSparse<DrawSparseMmaCase>,
     .run_worker = RunSparseMmaWorker},
    {.name = kSparseMmaExactSuite,
     .text_kind = oracle::sparse::kSparseKind,
     .description = "small-integer mma.sp cases (f16/bf16, k16/k32, both spellings, every "
                    "selector) drawn and checked on "
                    "the device, one in 4096 and every failure judged by the oracle on the host",
     .worker_batch = uint64_t{1} << 26,
     .watchdog_per_case = std::chrono::microseconds(1),
     .describe = DescribeSparse<DrawExact>,
     .run_worker = RunSparseExactWorker,
     .unsupported = SparseExactUnsupported},
    {.name = kSparseMmaExactF16K32Suite,
     .text_kind = oracle::sparse::kSparseKind,
     .description = "sparse-mma-exact restricted to m16n8k32.f16 (both spellings, selectors 0 and "
                    "1): the form "
                    "performance is measured on",
     .worker_batch = uint64_t{1} << 26,
     .watchdog_per_case = std::chrono::microseconds(1),
     .describe = DescribeSparse<DrawExactF16K32>,
     .run_worker = RunSparseExactWorker,
     .unsupported = SparseExactUnsupported,
     .in_default_campaign = false},
    {.name = kSparseMmaJudgedSuite,
     .text_kind = oracle::sparse::kSparseKind,
     .description = "the sparse-mma-exact variants in float value modes (every exponent range, "
                    "Inf and NaN), drawn and judged on the device by the bit-exact model, one in "
                    "4096 and every failure judged again by the oracle on the host",
     .worker_batch = uint64_t{1} << 26,
     .watchdog_per_case = std::chrono::microseconds(2),
     .describe = DescribeSparseJudged,
     .run_worker = RunSparseJudgedWorker,
     .unsupported = SparseJudgedUnsupported},
};

}  // namespace

const CaseKind& SparseMmaKind() {
  static const CaseKind kind{
      oracle::sparse::kSparseKind,
      "mma.sp case: operands, metadata, what it is for or the D a device returned",
      Replay,
      Reprint,
      Draw,
      RunOnDevice,
      EmitSparseCu,
      Minimize,
      [] { return std::unique_ptr<HostSuite>(std::make_unique<SparseOracleSuite>()); },
      kDeviceSuites};
  return kind;
}

}  // namespace tcfuzz::suites
