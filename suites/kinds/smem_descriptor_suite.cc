// Host campaign for shared-memory descriptors (wgmma and tcgen05): legal layouts, single-rule
// breaks and raw bits through decode, encode, validate, the address map and its invariants.
#include "generators/core/random_source.h"
#include "generators/smem/smem_descriptor_gen.h"
#include "oracle/smem/smem_case_text.h"
#include "suites/checks/smem_descriptor_checks.h"
#include "suites/engine/host_suite.h"
#include "suites/kinds/host_reproducers.h"

namespace tcfuzz::suites {
namespace {

using gen::Intent;
using namespace oracle::smem;

class SmemDescriptorSuite final : public HostSuite {
 public:
  std::string_view name() const override { return "smem"; }
  std::string_view description() const override {
    return "wgmma/tcgen05 shared-memory descriptors: validate, address map and its invariants";
  }
  std::string_view text_kind() const override { return kSmemKind; }
  uint64_t default_cases() const override { return 380'000; }

  CaseResult RunCase(uint64_t, uint64_t case_seed) override {
    gen::RandomSource s(case_seed);
    const uint64_t roll = s.Below(10);
    const Intent intent = roll < 5 ? Intent::kLegal : roll < 8 ? Intent::kBreakOne : Intent::kRawBits;
    const gen::GeneratedSmem g = gen::DrawSmem(s, intent);
    CaseResult r;
    r.failures = CheckSmem(g);
    r.family = "smem." + std::string(gen::IntentName(intent));
    if (intent == Intent::kBreakOne) {
      r.family += "." + std::string(g.broken->id);
      r.tags.push_back(g.broken->id);
    } else if (intent == Intent::kLegal) {
      r.family += "." + std::string(Name(g.c.arch)) + "." + std::string(Name(g.c.view.major));
      r.tags.push_back(Name(g.layout->swizzle));
      r.tags.push_back(Name(g.c.view.dtype));
      const auto m = DecodeMatrix(g.c.arch, g.c.desc);
      static constexpr std::string_view kBase[8] = {"base_offset=0", "base_offset=1", "base_offset=2",
                                                    "base_offset=3", "base_offset=4", "base_offset=5",
                                                    "base_offset=6", "base_offset=7"};
      r.tags.push_back(kBase[m->base_offset & 7]);
      if (m->lbo_absolute) r.tags.push_back("lbo_absolute");
      if (g.k_advance) r.tags.push_back("k_advance");
    }
    r.tags.push_back(Name(g.c.arch));
    if (!r.failures.empty()) r.reproducer = SmemReproducer(g);
    return r;
  }
};

}  // namespace

std::unique_ptr<HostSuite> MakeSmemDescriptorSuite() { return std::make_unique<SmemDescriptorSuite>(); }

}  // namespace tcfuzz::suites
