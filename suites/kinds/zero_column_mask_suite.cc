// Host campaign for the tcgen05 zero-column mask: legal, single-rule-breaking and raw-bit
// cases through decode/encode/validate/expand and every invariant of the checks.
#include <array>

#include "generators/core/random_source.h"
#include "generators/tcgen05/zero_column_mask_gen.h"
#include "oracle/tcgen05/zero_column_mask_text.h"
#include "suites/checks/zero_column_mask_checks.h"
#include "suites/engine/host_suite.h"
#include "suites/kinds/host_reproducers.h"

namespace tcfuzz::suites {
namespace {

using gen::GeneratedZcm;
using gen::Intent;

std::string_view ShapeTag(int m) {
  switch (m) {
    case 128: return "m=128";
    case 64: return "m=64";
    case 32: return "m=32";
    default: return "m=other";
  }
}

class ZeroColumnMaskSuite final : public HostSuite {
 public:
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
      g = gen::DrawZcm(s, roll < 5 ? Intent::kLegal : roll < 8 ? Intent::kBreakOne : Intent::kRawBits);
    }
    CaseResult r;
    r.failures = CheckZcm(g);
    r.family = "zero_column_mask." + std::string(gen::IntentName(g.intent));
    if (g.intent == Intent::kBreakOne) {
      r.family += "." + std::string(g.broken->id);
      r.tags.push_back(g.broken->id);
    } else if (g.intent == Intent::kLegal) {
      r.family += "." + std::string(ShapeTag(g.c.shape.m));
    }
    r.tags.push_back(ShapeTag(g.c.shape.m));
    r.tags.push_back(g.c.shape.sparse ? "sparse" : "dense");
    if (g.c.shape.idesc) r.tags.push_back("idesc");
    if (!r.failures.empty()) r.reproducer = ZcmReproducer(g);
    return r;
  }
};

}  // namespace

std::unique_ptr<HostSuite> MakeZeroColumnMaskSuite() {
  return std::make_unique<ZeroColumnMaskSuite>();
}

}  // namespace tcfuzz::suites
