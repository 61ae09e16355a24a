#include "harness/emulator/mutant.h"

#include <cstdlib>

#include "oracle/core/span.h"
#include "oracle/core/text_format.h"

namespace tcfuzz::harness::emulator {
namespace {

// The steps of warp_mma_emulator.h and smem_mma_emulator.h, each with the ways implementations
// got it wrong.
constexpr MutationPoint kPoints[] = {
    {"decode.ignore_satfinite", "decode instruction", "1: .satfinite ignored (integer sums wrap)",
     0, 1},
    {"fragment.element_order", "unpack fragment",
     "1: the elements of each A and B register read in reverse order", 0, 1},
    {"fragment.a_row_halves", "unpack fragment",
     "1: A rows r and r + 8 swapped (the lanes' second row group)", 0, 1},
    {"fragment.b_column_shift", "unpack fragment", "k: B column j read from column (j + k) mod 8",
     0, 7},
    {"fragment.c_dropped", "unpack fragment", "1: C read as zeros (D = A·B)", 0, 1},
    {"fragment.c_rows_swapped", "unpack fragment", "1: C rows r and r + 8 swapped", 0, 1},
    {"idesc.transpose_swapped", "decode instruction",
     "1: tcgen05 instruction descriptor bits 15 and 16 (transpose A, B) read swapped", 0, 1},
    {"layout.transpose_a", "decode instruction", "1: A read with the other major-ness", 0, 1},
    {"layout.transpose_b", "decode instruction",
     "1: B read with the other major-ness (wgmma's imm-trans-b inverted)", 0, 1},
    {"descriptor.lbo_sbo_swapped", "decode descriptor",
     "1: the leading and stride byte offsets read as each other", 0, 1},
    {"descriptor.base_offset_ignored", "decode descriptor",
     "1: the base offset (bits 49-51) read as 0", 0, 1},
    {"descriptor.start_aligned", "decode descriptor",
     "b: the start address's low b bits dropped (the start assumed aligned to 2^b bytes)", 0, 10},
    {"descriptor.lbo_mode_inverted", "decode descriptor",
     "1: tcgen05's leading-byte-offset mode (bit 52) inverted: relative read as absolute", 0, 1},
    {"layout.atom_k_rows", "address of element",
     "1: 128B swizzle with 32-byte atoms takes 8 K rows per atom, not 4 (spec choice S7)", 0, 1},
    {"swizzle.xor_bits", "swizzle", "d: the swizzle XORs d more (or fewer) address bits", -2, 1},
    {"metadata.selector_offset", "read metadata",
     "k: metadata read from the lanes of selector + k (mod the quad)", 0, 3},
    {"metadata.nibble_order", "read metadata", "1: the two 2-bit indices of a nibble swapped", 0,
     1},
    {"metadata.row_halves", "read metadata", "1: rows r and r + 8 read each other's metadata", 0,
     1},
    {"metadata.warp0", "read metadata", "1: every warp reads warp 0's metadata registers", 0, 1},
    {"select.chunk_shift", "select element",
     "k: a kept element meets B row k positions further (mod its chunk)", 0, 3},
    {"zcm.ignored", "expand zero-column mask", "1: the zero-column mask ignored", 0, 1},
    {"zcm.inverted", "expand zero-column mask",
     "1: the zeroed and the kept columns swapped (the mask's sense inverted)", 0, 1},
    {"zcm.shift_ignored", "expand zero-column mask",
     "1: a kept column reads its own B column, not the shifted one", 0, 1},
    {"zcm.first_span_inverted", "expand zero-column mask",
     "1: each sub-mask's first-span bit read inverted (it starts with the other run)", 0, 1},
    {"zcm.spans_swapped", "expand zero-column mask",
     "1: skip and use spans read the other way round (Table 45's text, against its examples)", 0,
     1},
    {"numerics.alignment_bits", "align", "d: d more (or fewer) fraction bits kept in alignment", -8,
     8},
    {"numerics.block_size", "accumulate", "n: products per fused block (0: the row's)", 0, 64},
    {"numerics.e_zero", "align", "e: exponent given to zero terms (0: the row's)", -200, 0},
    {"numerics.negative_zero", "round", "1: the row's sign of an exact zero inverted", 0, 1},
    {"numerics.fp8_accumulator", "round",
     "1: f32 accumulation kept to 13 fraction bits (the fp8 accumulator) for every type", 0, 1},
    {"numerics.fp8_via_f16", "multiply",
     "1: the row's fp8 path inverted (native where it goes through f16, and back)", 0, 1},
    {"fragment.d_row_halves", "pack D", "1: D rows r and r + 8 swapped", 0, 1},
    {"result.zero", "pack D", "1: every D element +0", 0, 1},
    {"result.flip_bit", "pack D", "b + 1: bit b of D[0][0] flipped (0: none)", 0, 32},
    {"result.fault", "execute", "1: every batch faults, legal or not", 0, 1},
};

}  // namespace

oracle::Span<const MutationPoint> MutationPoints() { return kPoints; }

int64_t Mutant::At(std::string_view point, int64_t absent) const {
  for (const Change& c : changes)
    if (c.point == point) return c.value;
  return absent;
}

std::string Mutant::Text() const {
  std::string s;
  for (const Change& c : changes)
    s += (s.empty() ? "" : ",") + c.point + "=" + std::to_string(c.value);
  return s;
}

oracle::Result<Mutant> ParseMutant(std::string_view text) {
  using R = oracle::Result<Mutant>;
  Mutant m;
  while (!text.empty()) {
    const std::size_t comma = text.find(',');
    const std::string_view pair = text.substr(0, comma);
    text = comma == std::string_view::npos ? std::string_view{} : text.substr(comma + 1);
    const std::size_t eq = pair.find('=');
    const std::string shown = oracle::OneLine(std::string(pair), 200);
    if (eq == std::string_view::npos) return R::Fail("mutant: '" + shown + "' is not point=value");
    const std::string_view name = pair.substr(0, eq), value = pair.substr(eq + 1);
    const MutationPoint* p = nullptr;
    for (const MutationPoint& q : kPoints)
      if (q.name == name) p = &q;
    if (p == nullptr) {
      std::string known;
      for (const MutationPoint& q : kPoints)
        known += (known.empty() ? "" : ", ") + std::string(q.name);
      return R::Fail("mutant: no point '" + oracle::OneLine(std::string(name), 100) + "' (" +
                     known + ")");
    }
    const bool negative = value.starts_with('-');
    const auto magnitude = oracle::ParseUint(std::string(value.substr(negative ? 1 : 0)), 1u << 20);
    if (!magnitude.ok()) return R::Fail("mutant: " + shown + ": " + magnitude.error());
    const int64_t v = negative ? -static_cast<int64_t>(magnitude.value())
                               : static_cast<int64_t>(magnitude.value());
    if (v < p->min || v > p->max)
      return R::Fail("mutant: " + shown + ": " + std::string(p->name) + " takes " +
                     std::to_string(p->min) + ".." + std::to_string(p->max));
    if (m.At(p->name, INT64_MIN) != INT64_MIN)
      return R::Fail("mutant: " + std::string(p->name) + " given twice");
    m.changes.push_back({std::string(p->name), v});
  }
  if (m.changes.empty()) return R::Fail("mutant: no point=value pair");
  return R::Ok(std::move(m));
}

const oracle::Result<Mutant>& ProcessMutant() {
  static const oracle::Result<Mutant> m = [] {
    const char* text = std::getenv("TCFUZZ_MUTANT");
    if (text == nullptr || *text == '\0') return oracle::Result<Mutant>::Ok(Mutant{});
    return ParseMutant(text);
  }();
  return m;
}

}  // namespace tcfuzz::harness::emulator
