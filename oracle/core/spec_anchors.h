// The PTX ISA's stable HTML anchors for the sections tcfuzz's rules cite. Section numbers move
// between releases (the tcgen05 chapter is §9.7.16 in PTX 9.1, §9.7.17 and §9.7.18 later); the
// anchors on https://docs.nvidia.com/cuda/parallel-thread-execution/ do not. A rule names the
// section as its PTX version numbers it ("PTX 9.1 §9.7.16.4.3 Table 45"); this table adds the
// anchor, so `tcfuzz rules` prints both.
#pragma once

#include <string>
#include <string_view>

#include "oracle/core/span.h"

namespace tcfuzz::oracle {

struct SpecAnchor {
  std::string_view section;  // PTX ISA 9.1 numbering: "9.7.16.4.3"
  std::string_view title;    // "Zero-Column Mask Descriptor"
  std::string_view anchor;   // "tcgen05-zero-column-mask-descriptor"
};

Span<const SpecAnchor> SpecAnchors();

// The anchor of the first "§N" in a rule's section text when it cites the PTX ISA; empty when it
// cites something else (docs/ascend-tiling.md) or a section the table lacks.
std::string_view AnchorOf(std::string_view section_text);

// "https://docs.nvidia.com/cuda/parallel-thread-execution/#<anchor>"
std::string SpecUrl(std::string_view anchor);

}  // namespace tcfuzz::oracle
