#include "oracle/core/spec_anchors.h"

#include <array>

#include "oracle/core/span.h"

namespace tcfuzz::oracle {
namespace {

// Each anchor read off the section's heading in PTX ISA 9.1 (and, for some, 9.0) mirrors.
constexpr std::array<SpecAnchor, 26> kAnchors = {{
    {"9.7.13.4", "membar / fence",
     "parallel-synchronization-and-communication-instructions-membar"},
    {"9.7.14.6", "Matrix multiply-accumulate using mma.sp with sparse matrix A",
     "warp-level-matrix-instructions-for-sparse-mma"},
    {"9.7.14.6.1", "Sparse matrix storage", "warp-level-sparse-matrix-storage"},
    {"9.7.14.6.3", "mma.sp / mma.sp::ordered_metadata",
     "warp-level-matrix-instructions-sparse-mma"},
    {"9.7.15.2", "Matrix Shape (wgmma)", "asynchronous-warpgroup-level-matrix-shape"},
    {"9.7.15.5.1", "Register Fragments and Shared Memory Matrix Layouts",
     "asynchronous-warpgroup-level-matrix-fragment"},
    {"9.7.15.5.1.2.1", "Major-ness supported by Strides",
     "asynchronous-warpgroup-level-majorness-supported-by-strides"},
    {"9.7.15.5.1.2.2", "Matrix Descriptor Format",
     "asynchronous-warpgroup-level-matrix-shared-memory-layout-matrix-descriptor"},
    {"9.7.15.5.2", "wgmma.mma_async", "asynchronous-warpgroup-level-matrix-instructions-wgmma-mma"},
    {"9.7.15.6.1", "Sparse matrix storage (wgmma.sp)",
     "asynchronous-warpgroup-level-sparse-matrix-storage"},
    {"9.7.16.2.1", "Matrix Shape (tcgen05)", "tcgen05-matrix-shape"},
    {"9.7.16.3.1.1", "Relative offset mode",
     "tcgen05-leading-dimension-byte-offset-relative-offset"},
    {"9.7.16.3.1.2", "Absolute address mode for K dimension being 48B",
     "tcgen05-leading-dimension-byte-offset-absolute-address"},
    {"9.7.16.3.1.2.1", "Restrictions on the Leading Dimension Absolute Address Stride",
     "tcgen05-leading-dimension-byte-offset-absolute-address-restriction"},
    {"9.7.16.3.2", "Stride Dimension Byte Offset", "tcgen05-stride-dimension-byte-offset"},
    {"9.7.16.3.3", "Canonical Layouts", "tcgen05-canonical-layouts"},
    {"9.7.16.4.1", "Shared memory descriptor", "tcgen05-shared-memory-descriptor"},
    {"9.7.16.4.1.1", "Target ISA Note", "tcgen05-shared-memory-descriptor-target-isa-note"},
    {"9.7.16.4.2", "Instruction descriptor", "tcgen05-instruction-descriptor"},
    {"9.7.16.4.3", "Zero-Column Mask Descriptor", "tcgen05-zero-column-mask-descriptor"},
    {"9.7.16.10.1", "Transpose and Negate operations", "tcgen05-transpose-and-negate-operations"},
    {"9.7.16.10.3", "Valid Combinations of Type-Size, Major-ness and Swizzling",
     "tcgen05-matrix-layout-organization-valid-comb-type-size-majorness-swizzle"},
    {"9.7.16.10.8", "Sparse Matrices", "tcgen05-sparse-matrices"},
    {"9.7.16.10.9", "TensorCore 5th Generation of MMA Instructions", "tcgen05-mma-instructions"},
    {"9.7.16.10.9.3", "tcgen05.mma.ws", "tcgen05-mma-instructions-mma-ws"},
    {"11.1.2", "PTX Module Directives: .target", "ptx-module-directives-target"},
}};

}  // namespace

Span<const SpecAnchor> SpecAnchors() { return kAnchors; }

std::string_view AnchorOf(std::string_view text) {
  if (text.find("PTX") == std::string_view::npos) return {};
  const std::size_t at = text.find("§");
  if (at == std::string_view::npos) return {};
  std::size_t end = at + std::string_view("§").size();
  const std::size_t begin = end;
  while (end < text.size() && ((text[end] >= '0' && text[end] <= '9') || text[end] == '.')) ++end;
  std::string_view section = text.substr(begin, end - begin);
  while (section.ends_with('.')) section.remove_suffix(1);
  for (const SpecAnchor& a : kAnchors) {
    if (a.section == section) return a.anchor;
  }
  return {};
}

std::string SpecUrl(std::string_view anchor) {
  return "https://docs.nvidia.com/cuda/parallel-thread-execution/#" + std::string(anchor);
}

}  // namespace tcfuzz::oracle
