#include "suites/kinds/host_reproducers.h"

#include "oracle/smem/smem_case_text.h"
#include "oracle/sparse/sparse_case_text.h"
#include "oracle/tcgen05/zero_column_mask_text.h"

namespace tcfuzz::suites {

std::string ZcmReproducer(const gen::GeneratedZcm& g) {
  oracle::TextWriter w(oracle::tcgen05::kZcmKind);
  w.Add("origin.intent", gen::IntentName(g.intent));
  // The intent becomes an expectation, so replaying the file alone re-runs every check.
  oracle::tcgen05::ZcmExpectation expect;
  if (g.intent == gen::Intent::kLegal) expect.rules.emplace();
  if (g.intent == gen::Intent::kBreakOne) expect.rules = {std::string(g.broken->id)};
  oracle::tcgen05::AppendZcmCase(w, g.c, expect);
  return w.str();
}

std::string SmemReproducer(const gen::GeneratedSmem& g) {
  oracle::TextWriter w(oracle::smem::kSmemKind);
  w.Add("origin.intent", gen::IntentName(g.intent));
  std::optional<std::vector<std::string>> expect;
  if (g.intent == gen::Intent::kLegal) expect.emplace();
  if (g.intent == gen::Intent::kBreakOne) expect = std::vector<std::string>{std::string(g.broken->id)};
  oracle::smem::AppendSmemCase(w, g.c, expect);
  return w.str();
}

std::string SparseReproducer(const gen::GeneratedSparse& g, uint64_t case_seed) {
  oracle::TextWriter w(oracle::sparse::kSparseKind);
  oracle::sparse::AppendSparseCase(w, g.op, g.tile);
  w.Add("origin.intent", gen::IntentName(g.intent));
  w.Add("origin.mode", gen::Name(g.mode));
  if (g.intent == gen::Intent::kLegal) w.Add("expect.rules", "");
  if (g.intent == gen::Intent::kBreakOne) w.Add("expect.rules", g.broken->id);
  if (case_seed != 0) w.AddHex("origin.case_seed", case_seed, 16);  // provenance: the case is in the file
  return w.str();
}

}  // namespace tcfuzz::suites
