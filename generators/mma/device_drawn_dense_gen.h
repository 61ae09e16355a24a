// The cases of the `dense-mma-judged` suite as the host rebuilds them: each drawn from its case
// seed alone through oracle/mma/device_drawn_dense.h, element by element, exactly as the kernel
// that draws and judges them on the device (harness/dense_judged.h): m16n8k16, f16 or bf16 A/B,
// f32 C/D, values in one of four modes (one with Inf and NaN).
#pragma once

#include <cstdint>
#include <string_view>

#include "generators/mma/dense_mma_gen.h"
#include "oracle/mma/device_drawn_dense.h"

namespace tcfuzz::gen {

struct DeviceDrawnDense {
  GeneratedDense dense;  // mode kRandom (kEdge for kNonFinite): sums not exact
  oracle::mma::drawn::Mode mode;
};

DeviceDrawnDense DrawDeviceDrawnDense(uint64_t case_seed);
// The form and types of a case whose recipe drew `bf16` (oracle::mma::drawn::Bf16), no values.
oracle::mma::DenseTile DeviceDrawnDenseShape(uint32_t bf16);

std::string_view Name(
    oracle::mma::drawn::Mode m);  // "anywhere" | "near_one" | "finite_edge" | "edge"

}  // namespace tcfuzz::gen
