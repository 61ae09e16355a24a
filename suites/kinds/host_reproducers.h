// The reproducer text of a generated case of each host kind: the case itself and what it expects,
// so the file replays alone. The host suites write it for a failing case, and each kind's `draw`
// (suites/kinds/case_kind.h) writes the same for a drawn one.
#pragma once

#include <cstdint>
#include <string>

#include "generators/smem/smem_descriptor_gen.h"
#include "generators/sparse/sparse_mma_gen.h"
#include "generators/tcgen05/zero_column_mask_gen.h"

namespace tcfuzz::suites {

std::string ZcmReproducer(const gen::GeneratedZcm& g);
std::string SmemReproducer(const gen::GeneratedSmem& g);
// `case_seed`: provenance only (the case is in the file).
std::string SparseReproducer(const gen::GeneratedSparse& g, uint64_t case_seed);

}  // namespace tcfuzz::suites
