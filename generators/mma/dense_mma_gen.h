// Generator for dense mma.sync cases (the shapes sparse MMA reuses): a form, the B and C/D types
// the instruction takes with it, and values in one of the MMA value modes
// (generators/core/mma_values.h). Probe cases: A(r, k) holds 1 + (16r... no: r * K + k) mod the

// the device read.
#pragma once

#include "generators/core/mma_values.h"
#include "generators/core/source.h"
#include "oracle/mma/dense_mma.h"

namespace tcfuzz::gen {

struct GeneratedDense {
  oracle::mma::DenseTile tile;
  ValueMode mode = ValueMode::kRandom;
};

GeneratedDense DrawDense(Source& s);

}  // namespace tcfuzz::gen
