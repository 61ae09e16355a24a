// Bit-field tables for operand layouts.
//
// A Field names an inclusive lsb..msb range exactly as the PTX / vendor tables print it, with
// the spec reference it comes from. Tables of fields are checked at compile time: no two fields
// overlap and, for a complete table, every bit of the word belongs to exactly one field
// (reserved ranges are fields too, so nothing in the word is unaccounted for).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace tcfuzz::oracle {

struct Field {
  std::string_view name;
  int lsb;  // inclusive, as the spec prints it
  int msb;  // inclusive
  std::string_view spec;

  constexpr int width() const { return msb - lsb + 1; }
  // Mask of the field's values, right-aligned (width 64 handled without UB).
  constexpr uint64_t value_mask() const {
    return width() >= 64 ? ~uint64_t{0} : (uint64_t{1} << width()) - 1;
  }
  constexpr uint64_t word_mask() const { return value_mask() << lsb; }
  constexpr uint64_t Get(uint64_t word) const { return (word >> lsb) & value_mask(); }
  // Writes the low `width()` bits of `value`; higher bits of `value` are dropped.
  constexpr uint64_t Put(uint64_t word, uint64_t value) const {
    return (word & ~word_mask()) | ((value & value_mask()) << lsb);
  }
  constexpr bool Fits(uint64_t value) const { return (value & ~value_mask()) == 0; }
  constexpr uint64_t max_value() const { return value_mask(); }
};

// Field F of `word`, for device code: F's range is read at compile time, so the host table is not
// referenced at run time (a kernel cannot touch a host variable).
template <const Field& F>
constexpr uint64_t Get(uint64_t word) {
  constexpr int lsb = F.lsb, width = F.msb - F.lsb + 1;
  return (word >> lsb) & (width >= 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1);
}

// True when every field lies inside a `word_bits`-wide word and no two fields share a bit.
template <std::size_t N>
constexpr bool FieldsDisjoint(const std::array<Field, N>& fields, int word_bits) {
  uint64_t seen = 0;
  for (const Field& f : fields) {
    if (f.lsb < 0 || f.msb < f.lsb || f.msb >= word_bits) return false;
    if ((seen & f.word_mask()) != 0) return false;
    seen |= f.word_mask();
  }
  return true;
}

// True when the fields together cover every bit of a `word_bits`-wide word.
template <std::size_t N>
constexpr bool FieldsCoverWord(const std::array<Field, N>& fields, int word_bits) {
  uint64_t seen = 0;
  for (const Field& f : fields) seen |= f.word_mask();
  const uint64_t all = word_bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << word_bits) - 1;
  return seen == all;
}

// Compile-time check used right below every field table.
template <std::size_t N>
constexpr bool IsCompleteLayout(const std::array<Field, N>& fields, int word_bits) {
  return FieldsDisjoint(fields, word_bits) && FieldsCoverWord(fields, word_bits);
}

}  // namespace tcfuzz::oracle
