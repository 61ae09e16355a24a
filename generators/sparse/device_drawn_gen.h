// The cases of the `sparse-mma-exact` suite as the host rebuilds them: each is drawn from its
// case seed alone through oracle/sparse/device_drawn_sparse.h, element by element, exactly as the
// kernel that runs them draws them on the device (harness/sparse_mma_exact.h). Small-integer values
// (exact sums), a defined metadata nibble per (row, chunk), one instruction variant per case.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "generators/sparse/sparse_mma_gen.h"
#include "oracle/core/span.h"
#include "oracle/mma/device_drawn_dense.h"

namespace tcfuzz::gen {

// One instruction a device-drawn case may be: a form, a spelling and a selector.
struct DrawnVariant {
  const oracle::sparse::SparseForm* form;
  oracle::sparse::Variant variant;
  int selector;
};

// f16 and bf16, m16n8k16 and m16n8k32, f32 accumulators, mma.sp and ::ordered_metadata, every
// selector the oracle calls legal; case i is variant Pick(case seed, kVariant) of this list.
oracle::Span<const DrawnVariant> DrawnVariants();
// The variants of one form ("m16n8k32.f16"): a suite that measures or hunts in one form.
std::vector<DrawnVariant> DrawnVariantsOf(std::string_view form_name);
// Which of `count` variants a case seed draws.
std::size_t DrawnVariantIndex(uint64_t case_seed, std::size_t count);

GeneratedSparse DrawDeviceDrawn(uint64_t case_seed,
                                oracle::Span<const DrawnVariant> variants = DrawnVariants());

// A case of the `sparse-mma-judged` suite: the same variant, metadata and unselected lanes as
// DrawDeviceDrawn's, float values in one of the dense recipe's modes.
struct DeviceDrawnSparseFloat {
  GeneratedSparse sparse;  // mode kRandom (kEdge for kNonFinite): sums not exact
  oracle::mma::drawn::Mode mode;
};
DeviceDrawnSparseFloat DrawDeviceDrawnFloat(
    uint64_t case_seed, oracle::Span<const DrawnVariant> variants = DrawnVariants());

}  // namespace tcfuzz::gen
