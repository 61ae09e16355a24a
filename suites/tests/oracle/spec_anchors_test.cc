// Every rule that cites the PTX ISA names a section whose stable anchor tcfuzz knows, so a reader
// of a renumbered manual still lands on it (issue 29).
#include "oracle/core/spec_anchors.h"

#include <gtest/gtest.h>

#include <set>

#include "oracle/core/rule.h"

namespace tcfuzz::oracle {
namespace {

TEST(SpecAnchors, EveryPtxRuleHasAnAnchor) {
  int ptx = 0;
  for (const Rule* r : AllRules()) {
    if (r->section.find("PTX") == std::string_view::npos) continue;  // Ascend rules cite docs/
    ++ptx;
    EXPECT_FALSE(AnchorOf(r->section).empty()) << r->id << " cites " << r->section;
  }
  EXPECT_GT(ptx, 50);
}

TEST(SpecAnchors, TheSeedDocumentsAnchorAndTheTableIsWellFormed) {
  // ../shared/seeds: "9.7.16.4.3. Zero-Column Mask Descriptor" links
  // #tcgen05-zero-column-mask-descriptor.
  EXPECT_EQ(AnchorOf("PTX 9.1 §9.7.16.4.3 Table 45"), "tcgen05-zero-column-mask-descriptor");
  EXPECT_EQ(AnchorOf("PTX 9.1 §9.7.16.4.3."), "tcgen05-zero-column-mask-descriptor");
  EXPECT_EQ(AnchorOf("PTX 9.1 §9.7.16.4.31"), "");  // no prefix match
  EXPECT_EQ(AnchorOf("docs/ascend-tiling.md H3"), "");
  EXPECT_EQ(
      SpecUrl("tcgen05-instruction-descriptor"),
      "https://docs.nvidia.com/cuda/parallel-thread-execution/#tcgen05-instruction-descriptor");
  std::set<std::string_view> sections, anchors;
  for (const SpecAnchor& a : SpecAnchors()) {
    EXPECT_TRUE(sections.insert(a.section).second) << a.section;
    EXPECT_TRUE(anchors.insert(a.anchor).second) << a.anchor;
    for (char c : a.anchor)
      EXPECT_TRUE((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-');
  }
}

}  // namespace
}  // namespace tcfuzz::oracle
