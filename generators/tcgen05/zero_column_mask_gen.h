// Generator for zero-column-mask cases (descriptor + the .ws shape it is read in).
#pragma once

#include "generators/core/intent.h"
#include "generators/core/source.h"
#include "oracle/core/rule.h"
#include "oracle/core/span.h"
#include "oracle/tcgen05/zero_column_mask.h"

namespace tcfuzz::gen {

struct GeneratedZcm {
  oracle::tcgen05::ZcmCase c;
  Intent intent = Intent::kLegal;
  const oracle::Rule* broken = nullptr;  // the one violated rule, for kBreakOne
};

// The rules a kBreakOne case can target (every rule Validate(ZcmCase) checks).
oracle::Span<const oracle::Rule* const> ZcmBreakableRules();

// The four worked examples of PTX 9.1 §9.7.16.4.3 as legal cases (N = 128), tried first.
oracle::Span<const oracle::tcgen05::ZcmCase> ZcmSpecialCases();

// Draws one case with the given intent; kBreakOne picks the rule to break from the source.
GeneratedZcm DrawZcm(Source& s, Intent intent);
// A legal case with exactly `rule` broken (rule must be one of ZcmBreakableRules()).
GeneratedZcm DrawZcmBreaking(Source& s, const oracle::Rule& rule);

}  // namespace tcfuzz::gen
