// Sparse MMA metadata: its rules, compressing a dense chunk and expanding it back, and the
// whole-instruction reference D = A*B + C of a sparse tile through the bit-exact dot product.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "oracle/core/rule.h"
#include "oracle/core/span.h"
#include "oracle/core/verdict.h"
#include "oracle/numerics/dot_product.h"
#include "oracle/sparse/sparse_form.h"

namespace tcfuzz::oracle::sparse {

enum class Variant { kSp, kOrdered };  // mma.sp, mma.sp::ordered_metadata

namespace sp_rule {
inline constexpr Rule kSelector{
    "mma_sp.selector", "PTX 9.1 §9.7.14.6.1 (sparsity selector)",
    "the selector is 0..3 (one metadata lane per quad), 0..1 (two) or 0 (four)"};
inline constexpr Rule kRepeatedIndex{
    "mma_sp.meta_repeated_index", "PTX 9.1 §9.7.14.6.1",
    "a metadata nibble names two different positions (0x0, 0x5, 0xA, 0xF are undefined)"};
inline constexpr Rule kUnordered{"mma_sp.meta_unordered",
                                 "PTX 9.1 §9.7.14.6.1 (::ordered_metadata)",
                                 "with ::ordered_metadata the lower 2-bit index is the smaller"};
inline constexpr Rule kTf32Nibble{
    "mma_sp.meta_tf32", "PTX 9.1 §9.7.14.6.1",
    "tf32 (1:2) nibbles are 0b0100 (element 0) or 0b1110 (element 1)"};
inline constexpr Rule kOrderedOnly{"mma_sp.ordered_only", "PTX 9.1 §9.7.14.6.3 (kind::f8f6f4)",
                                   "the PTX 8.7 forms (kind::f8f6f4, e3m2/e2m3/e2m1, fp8 with f16 "
                                   "D) exist only as .sp::ordered_metadata"};
}  // namespace sp_rule

Span<const Rule* const> SparseRules();

// One instruction's sparse operands: the form, the spelling, the selector, and the metadata
// register of every lane (only the selected lanes' registers are read).
struct SparseOp {
  const SparseForm* form = nullptr;
  Variant variant = Variant::kOrdered;
  int selector = 0;
  std::array<uint32_t, 32> meta{};
};

// Which rule a nibble breaks for a form and spelling (nullptr: defined).
const Rule* NibbleRule(const SparseForm& f, Variant v, uint8_t nibble);
// The nibbles NibbleRule accepts for a form and spelling: tf32 0x4, 0xE; else the six ascending
// index pairs, then (plain .sp) the six descending ones.
Span<const uint8_t> DefinedNibbles(const SparseForm& f, Variant v);

Verdict Validate(const SparseOp& op);

// The nibble of (row, chunk) as the selected lanes hold it (0 when the selector is past the
// form's range: no lane holds it).
uint8_t NibbleOf(const SparseOp& op, int row, int chunk);
// Writes it (nothing, past the selector range).
void SetNibble(SparseOp& op, int row, int chunk, uint8_t nibble);

// The dense positions (inside the chunk) of its kept elements, slot order.
std::vector<int> KeptPositions(const SparseForm& f, uint8_t nibble);
// For rows of nibbles (each row chunks_per_row() of them), the K (dense column, so B's row) that
// each stored element of A meets, in A's stored order: rows x K/2.
std::vector<int> KeptK(const SparseForm& f, Span<const uint8_t> nibbles);

// Compress one dense chunk (bits in the form's type) to its kept values and nibble: the
// non-zero elements (+0 and -0 count as zero) fill the slots in ascending position; a chunk
// with fewer non-zeros keeps the lowest free positions too, so the nibble is ascending (valid
// for ::ordered_metadata). nullopt when the chunk has too many non-zeros.
struct CompressedChunk {
  std::vector<uint64_t> values;
  uint8_t nibble = 0;
};
std::optional<CompressedChunk> Compress(const SparseForm& f, Format type,
                                        Span<const uint64_t> dense);
// Back to dense: kept values at their positions, every other position +0.
std::vector<uint64_t> Expand(const SparseForm& f, Span<const uint64_t> values, uint8_t nibble);

// Which K positions one fused block covers for sparse products (numerics reference §7, open).
enum class SparseBlocking {
  kCompressed,  // the kept products in ascending k, L at a time (tcfuzz's working hypothesis)
  kDense,       // the dense K with pruned positions as zero terms, L dense positions at a time
};

// A sparse tile: compressed A [16][K/2] (row, chunk, slot order), nibbles [16][K/chunk],
// B [K][8] and C [16][8] (row-major), in bit patterns.
struct SparseTile {
  const SparseForm* form = nullptr;
  Format a_type = Format::kF16;
  Format b_type = Format::kF16;
  Format cd = Format::kF32;  // f32, f16 or s32
  bool satfinite = false;    // integer forms
  std::vector<uint64_t> a;
  std::vector<uint8_t> nibbles;
  std::vector<uint64_t> b;
  std::vector<uint32_t> c;
};

// D [16][8] through the bit-exact model (floats) or exact integers.
// `general_only`: through the general model alone (num::TileMmaSpec::general_only).
std::vector<uint32_t> Reference(const SparseTile& t, const num::DotParams& p,
                                SparseBlocking blocking = SparseBlocking::kCompressed,
                                bool general_only = false);

// The readings of oracle/core/backing.h a form's lane maps rest on (SP0 the spec's formulas, SP1
// metadata bits, SP2 B of the sparse-only K shapes, SP3 kept-element order, SP5 plain .sp with
// descending pairs). The arithmetic adds the numerics row and N1 (kept products, L at a time).
std::vector<std::string_view> ReadingsOf(const SparseForm& f, Variant v);

}  // namespace tcfuzz::oracle::sparse
