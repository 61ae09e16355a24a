// Every invariant of a sparse MMA case: rules and intent, the metadata map, compress/expand,
// and the whole-instruction reference against exact arithmetic (exactly for integers and for
// exactly-summable values, within the model's rigorous error bound otherwise).
#pragma once

#include "generators/sparse/sparse_mma_gen.h"
#include "oracle/numerics/dot_product.h"
#include "suites/checks/check_failure.h"

namespace tcfuzz::suites {

// The target whose parameters the sparse reference uses for a form (sm_90 mma, or sm_89 for
// fp8 where sm_90's mma.sync fp8 row is still open).
std::optional<oracle::num::DotParams> SparseParams(const oracle::sparse::SparseTile& t);

CheckFailures CheckSparse(const gen::GeneratedSparse& g);

}  // namespace tcfuzz::suites
