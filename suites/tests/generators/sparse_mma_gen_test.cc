// The sparse MMA generator: legal cases pass every check, break-one cases break exactly their
// rule, and the lanes the selector does not pick hold garbage the oracle ignores.
#include "generators/sparse/sparse_mma_gen.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "generators/core/rc_source.h"
#include "oracle/sparse/sparse_metadata.h"
#include "suites/checks/sparse_mma_checks.h"

namespace tcfuzz::oracle::sparse {
namespace {

RC_GTEST_PROP(SparseProps, LegalCasesPassEveryCheck, ()) {
  gen::RcSource s;
  const auto failures = suites::CheckSparse(gen::DrawSparse(s, gen::Intent::kLegal));
  for (const auto& f : failures) RC_LOG() << f.check << ": " << f.message << "\n";
  RC_ASSERT(failures.empty());
}

RC_GTEST_PROP(SparseProps, BreakOneBreaksExactlyOneRule, ()) {
  gen::RcSource s;
  RC_ASSERT(suites::CheckSparse(gen::DrawSparse(s, gen::Intent::kBreakOne)).empty());
}

// Metadata in lanes the selector does not pick is ignored: rewriting it changes neither the
// verdict nor any nibble, and the generator does fill it with garbage.
RC_GTEST_PROP(SparseProps, NonSelectedLanesAreIgnored, ()) {
  gen::RcSource s;
  auto g = gen::DrawSparse(s, gen::Intent::kLegal);
  const SparseForm& f = *g.op.form;
  SparseOp other = g.op;
  int garbage = 0;
  for (int lane = 0; lane < 32; ++lane) {
    if (MetaAt(f, g.op.selector, lane, 0)) continue;
    garbage += g.op.meta[static_cast<std::size_t>(lane)] != 0;
    other.meta[static_cast<std::size_t>(lane)] = ~other.meta[static_cast<std::size_t>(lane)];
  }
  RC_ASSERT(Validate(other).legal());
  for (int row = 0; row < 16; ++row) {
    for (int c = 0; c < f.chunks_per_row(); ++c)
      RC_ASSERT(NibbleOf(other, row, c) == NibbleOf(g.op, row, c));
  }
  if (f.meta_threads() < 4) RC_ASSERT(garbage > 0);
}

}  // namespace
}  // namespace tcfuzz::oracle::sparse
