// The zero_column_mask kind: the tcgen05 zero-column mask descriptor with the shape it is read
// under and what it expects (oracle/tcgen05/zero_column_mask_text.h), and its host campaign suite:
// legal, single-rule-breaking and raw-bit cases through decode/encode/validate/expand and every
// invariant of the checks.
#include <array>

#include "generators/core/random_source.h"
#include "generators/tcgen05/zero_column_mask_gen.h"
#include "oracle/tcgen05/zero_column_mask_text.h"
#include "suites/checks/zero_column_mask_checks.h"
#include "suites/kinds/case_kind.h"
#include "suites/kinds/operand_probes.h"

namespace tcfuzz::suites {
namespace {

using gen::GeneratedZcm;
using gen::Intent;

// The reproducer: the case and, from its intent, what it expects, so the file replays alone.
std::string Reproducer(const gen::GeneratedZcm& g) {
  oracle::TextWriter w(oracle::tcgen05::kZcmKind);
  w.Add("origin.intent", gen::IntentName(g.intent));
  // The intent becomes an expectation, so replaying the file alone re-runs every check.
  oracle::tcgen05::ZcmExpectation expect;
  if (g.intent == gen::Intent::kLegal) expect.rules.emplace();
  if (g.intent == gen::Intent::kBreakOne) expect.rules = {std::string(g.broken->id)};
  oracle::tcgen05::AppendZcmCase(w, g.c, expect);
  return w.str();
}

std::string_view ShapeTag(int m) {
  switch (m) {
    case 128:
      return "m=128";
    case 64:
      return "m=64";
    case 32:
      return "m=32";
    default:
      return "m=other";
  }
}

class ZeroColumnMaskSuite final : public HostSuite {
 public:
  std::vector<std::string> families() const override {
    std::vector<std::string> out;
    for (int m : {128, 64, 32, 0})
      out.push_back("zero_column_mask.legal." + std::string(ShapeTag(m)));
    for (const oracle::Rule* r : gen::ZcmBreakableRules())
      out.push_back("zero_column_mask.break_one." + std::string(r->id));
    out.push_back("zero_column_mask.raw_bits");
    return out;
  }
  std::string_view name() const override { return "zero-column-mask"; }
  std::string_view description() const override {
    return "tcgen05 zero-column mask: decode, encode, validate, expand and their invariants";
  }
  std::string_view text_kind() const override { return oracle::tcgen05::kZcmKind; }
  uint64_t default_cases() const override { return 9'000'000; }

  CaseResult RunCase(uint64_t index, uint64_t case_seed) override {
    gen::RandomSource s(case_seed);
    GeneratedZcm g;
    const auto special = gen::ZcmSpecialCases();
    if (index < special.size()) {
      g.c = special[index];  // the spec's worked examples come first
    } else {
      // Half legal, three in ten break one rule, the rest raw bits.
      const uint64_t roll = s.Below(10);
      g = gen::DrawZcm(s, roll < 5   ? Intent::kLegal
                          : roll < 8 ? Intent::kBreakOne
                                     : Intent::kRawBits);
    }
    CaseResult r;
    r.failures = CheckZcm(g);
    r.family = "zero_column_mask." + std::string(gen::IntentName(g.intent));
    if (g.intent == Intent::kBreakOne) {
      r.family += "." + std::string(g.broken->id);
      r.tags.push_back(g.broken->id);
    } else if (g.intent == Intent::kLegal) {
      r.family += "." + std::string(ShapeTag(g.c.shape.m));
      if (ProbesMutants(case_seed, 64)) ZcmProbes(g.c, r.probes);
    }
    r.tags.push_back(ShapeTag(g.c.shape.m));
    r.tags.push_back(g.c.shape.sparse ? "sparse" : "dense");
    if (g.c.shape.idesc) r.tags.push_back("idesc");
    if (!r.failures.empty()) r.reproducer = Reproducer(g);
    return r;
  }
};

oracle::Result<Replayed> Replay(const oracle::TextDoc& doc) {
  auto f = oracle::tcgen05::ZcmCaseFromDoc(doc);
  if (!f.ok()) return oracle::Result<Replayed>::Fail(f.error());
  return oracle::Result<Replayed>::Ok({CheckZcmFile(f.value()), {}});
}

oracle::Result<std::string> Reprint(const oracle::TextDoc& doc) {
  auto f = oracle::tcgen05::ZcmCaseFromDoc(doc);
  if (!f.ok()) return oracle::Result<std::string>::Fail(f.error());
  (void)oracle::tcgen05::Validate(f.value().c);
  (void)oracle::tcgen05::Expand(f.value().c.desc, f.value().c.shape.m, f.value().c.shape.n);
  return oracle::Result<std::string>::Ok(
      oracle::tcgen05::ZcmCaseToText(f.value().c, f.value().expect));
}

std::string Draw(gen::Source& s) {
  const uint64_t roll = s.Below(3);
  return Reproducer(gen::DrawZcm(s, roll == 0   ? gen::Intent::kLegal
                                    : roll == 1 ? gen::Intent::kBreakOne
                                                : gen::Intent::kRawBits));
}

}  // namespace

const CaseKind& ZeroColumnMaskKind() {
  static const CaseKind kind{
      oracle::tcgen05::kZcmKind,
      "tcgen05 zero-column mask descriptor, its shape and expectation",
      Replay,
      Reprint,
      Draw,
      nullptr,
      nullptr,
      nullptr,
      [] { return std::unique_ptr<HostSuite>(std::make_unique<ZeroColumnMaskSuite>()); },
      {}};
  return kind;
}

}  // namespace tcfuzz::suites
