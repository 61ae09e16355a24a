// The smem_descriptor kind: a wgmma or tcgen05 shared-memory descriptor with the operand view it
// is read under and what it expects (oracle/smem/smem_case_text.h), and its host campaign suite:
// legal layouts, single-rule breaks and raw bits through decode, encode, validate, the address
// map and its invariants.
#include "generators/core/random_source.h"
#include "generators/smem/smem_descriptor_gen.h"
#include "oracle/smem/smem_case_text.h"
#include "suites/checks/smem_descriptor_checks.h"
#include "suites/kinds/case_kind.h"
#include "suites/kinds/operand_probes.h"

namespace tcfuzz::suites {
namespace {

using gen::Intent;
using namespace oracle::smem;

// The reproducer: the case and, from its intent, what it expects, so the file replays alone.
std::string Reproducer(const gen::GeneratedSmem& g) {
  oracle::TextWriter w(oracle::smem::kSmemKind);
  w.Add("origin.intent", gen::IntentName(g.intent));
  std::optional<std::vector<std::string>> expect;
  if (g.intent == gen::Intent::kLegal) expect.emplace();
  if (g.intent == gen::Intent::kBreakOne)
    expect = std::vector<std::string>{std::string(g.broken->id)};
  oracle::smem::AppendSmemCase(w, g.c, expect);
  return w.str();
}

class SmemDescriptorSuite final : public HostSuite {
 public:
  std::string_view name() const override { return "smem"; }
  std::string_view description() const override {
    return "wgmma/tcgen05 shared-memory descriptors: validate, address map and its invariants";
  }
  std::string_view text_kind() const override { return kSmemKind; }
  uint64_t default_cases() const override { return 380'000; }
  std::vector<std::string> families() const override {
    std::vector<std::string> out;
    for (Arch a : {Arch::kSm90a, Arch::kSm100a, Arch::kSm103a}) {
      for (Major m : {Major::kK, Major::kMN})
        out.push_back("smem.legal." + std::string(Name(a)) + "." + std::string(Name(m)));
    }
    for (const oracle::Rule* r : gen::SmemBreakableRules())
      out.push_back("smem.break_one." + std::string(r->id));
    out.push_back("smem.raw_bits");
    return out;
  }

  CaseResult RunCase(uint64_t, uint64_t case_seed) override {
    gen::RandomSource s(case_seed);
    const uint64_t roll = s.Below(10);
    const Intent intent = roll < 5   ? Intent::kLegal
                          : roll < 8 ? Intent::kBreakOne
                                     : Intent::kRawBits;
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
      static constexpr std::string_view kBase[8] = {
          "base_offset=0", "base_offset=1", "base_offset=2", "base_offset=3",
          "base_offset=4", "base_offset=5", "base_offset=6", "base_offset=7"};
      r.tags.push_back(kBase[m->base_offset & 7]);
      if (m->lbo_absolute) r.tags.push_back("lbo_absolute");
      if (g.k_advance) r.tags.push_back("k_advance");
      if (ProbesMutants(case_seed)) {
        if (const auto map = Map(g.c); map.ok()) SmemProbes(g.c, map.value(), r.probes);
      }
    }
    r.tags.push_back(Name(g.c.arch));
    if (!r.failures.empty()) r.reproducer = Reproducer(g);
    return r;
  }
};

oracle::Result<Replayed> Replay(const oracle::TextDoc& doc) {
  auto f = oracle::smem::SmemCaseFromDoc(doc);
  if (!f.ok()) return oracle::Result<Replayed>::Fail(f.error());
  return oracle::Result<Replayed>::Ok({CheckSmemFile(f.value()), {}});
}

oracle::Result<std::string> Reprint(const oracle::TextDoc& doc) {
  auto f = oracle::smem::SmemCaseFromDoc(doc);
  if (!f.ok()) return oracle::Result<std::string>::Fail(f.error());
  (void)oracle::smem::Validate(f.value().c);
  (void)oracle::smem::Map(f.value().c);
  oracle::TextWriter w(oracle::smem::kSmemKind);
  oracle::smem::AppendSmemCase(w, f.value().c, f.value().expect_rules);
  return oracle::Result<std::string>::Ok(w.str());
}

std::string Draw(gen::Source& s) {
  const uint64_t roll = s.Below(3);
  return Reproducer(gen::DrawSmem(s, roll == 0   ? gen::Intent::kLegal
                                     : roll == 1 ? gen::Intent::kBreakOne
                                                 : gen::Intent::kRawBits));
}

}  // namespace

const CaseKind& SmemDescriptorKind() {
  static const CaseKind kind{
      oracle::smem::kSmemKind,
      "wgmma / tcgen05 shared-memory descriptor, the operand view it is read under, its "
      "expectation",
      Replay,
      Reprint,
      Draw,
      nullptr,
      nullptr,
      nullptr,
      [] { return std::unique_ptr<HostSuite>(std::make_unique<SmemDescriptorSuite>()); },
      {}};
  return kind;
}

}  // namespace tcfuzz::suites
