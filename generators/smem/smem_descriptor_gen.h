// Generator for shared-memory descriptor cases (wgmma and tcgen05 encodings).
//
// Legal cases are built from a canonical layout in dependency order (target -> element type ->
// major -> swizzle -> extent -> strides -> placement), so shrinking simplifies the outer
// choices first; the descriptor is then encoded from the layout. Covers the edge cases of
// anchors-descriptors.md "Edge cases our generators must hit" 1-12: every swizzle x major x
// width, several atoms along M/N and K, both LBO/SBO orders for no-swizzle, LBO varied where it
// is ignored, K-advance inside a swizzle row, all eight base offsets, absolute LBO mode, field
// limits.
#pragma once

#include <optional>

#include "generators/core/intent.h"
#include "generators/core/source.h"
#include "oracle/core/span.h"
#include "oracle/smem/canonical_layout.h"
#include "oracle/smem/smem_case.h"

namespace tcfuzz::gen {

struct GeneratedSmem {
  oracle::smem::SmemCase c;
  // The layout the descriptor was encoded from (legal and break-one cases).
  std::optional<oracle::smem::CanonicalLayout> layout;
  uint64_t k_advance = 0;  // bytes the start address sits past the pattern start
  Intent intent = Intent::kLegal;
  const oracle::Rule* broken = nullptr;
};

oracle::Span<const oracle::Rule* const> SmemBreakableRules();

GeneratedSmem DrawSmem(Source& s, Intent intent);

// c's descriptor with the one field `rule` is about broken (reserved and fixed bits, swizzle
// code, LBO mode, base offset); unchanged for a rule that is not about one field (smem.extent,
// type and major rules). The base-offset rules assume c is legal.
uint64_t BreakDescriptorField(Source& s, const oracle::smem::SmemCase& c, const oracle::Rule& rule);
GeneratedSmem DrawSmemBreaking(Source& s, const oracle::Rule& rule);

}  // namespace tcfuzz::gen
