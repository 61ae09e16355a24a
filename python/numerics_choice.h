// What a numerics answer of the Python module is computed with: the target, the instruction, the
// formats and the row of readings (oracle/numerics/dot_product.h ParamsFor), each argument checked
// as `oracle dot` checks it, and how the row is backed (oracle/core/backing.h). numerics.dot and
// the tile-level mma (python/mma_module.h) both resolve their arguments here.
#pragma once

#include <string>

#include "oracle/core/backing.h"
#include "oracle/numerics/dot_product.h"
#include "oracle/numerics/formats.h"

struct NumericsChoice {
  std::string target;  // "sm_90"
  tcfuzz::oracle::num::Format ab, cd;
  tcfuzz::oracle::num::DotParams params;
  tcfuzz::oracle::Backing backing;
};

// Throws ValueError naming the argument at fault; a row not seen on hardware only with
// allow_unconfirmed (its backing then says spec or hypothesis).
NumericsChoice ChooseNumerics(const std::string& arch, const std::string& instr,
                              const std::string& ab, const std::string& cd, bool allow_unconfirmed);
