// tcgen05 zero-column mask descriptor (64-bit): which columns of B an MMA replaces by zeros.
// PTX ISA 9.1 §9.7.16.4.3, Table 45. Used by tcgen05.mma.ws / .ws.sp (cta_group::1) only.
//
// The mask has N bits; bit j = 1 means D column j gets zeros instead of B data. It is made of
// 1, 2 or 4 sub-masks (M = 128, 64, 32), each a periodic run pattern: it starts with value fs_i,
// runs of 1s and 0s alternate with lengths given by the skip/use spans, and the first sc_i
// positions are skipped. Readings where the spec contradicts itself: oracle/core/spec_choices.h.
#pragma once

#include <array>
#include <bitset>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "oracle/core/bits.h"
#include "oracle/core/rule.h"
#include "oracle/core/span.h"
#include "oracle/core/spec_choices.h"
#include "oracle/core/verdict.h"
#include "oracle/tcgen05/mma_ws_shape.h"

namespace tcfuzz::oracle::tcgen05 {

namespace zcm_field {
inline constexpr std::string_view kTable45 = "PTX 9.1 §9.7.16.4.3 Table 45";
// Start count i: leading positions sub-mask i skips (a phase offset into its pattern).
inline constexpr Field kStartCount0{"sc0", 0, 7, kTable45};
inline constexpr Field kStartCount1{"sc1", 8, 15, kTable45};
inline constexpr Field kStartCount2{"sc2", 16, 23, kTable45};
inline constexpr Field kStartCount3{"sc3", 24, 31, kTable45};
// First span i: the value sub-mask i's pattern starts with.
inline constexpr Field kFirstSpan0{"fs0", 32, 32, kTable45};
inline constexpr Field kFirstSpan1{"fs1", 33, 33, kTable45};
inline constexpr Field kFirstSpan2{"fs2", 34, 34, kTable45};
inline constexpr Field kFirstSpan3{"fs3", 35, 35, kTable45};
inline constexpr Field kReserved36{"reserved_36_38", 36, 38, kTable45};
// Non-zero mask: 0 = the mask is all zeros (every B column used), 1 = generate it.
inline constexpr Field kNonZeroMask{"non_zero_mask", 39, 39, kTable45};
// Span counts, encoded as count - 1; which run each one sizes is spec choice Z1.
inline constexpr Field kSkipSpan{"skip_span", 40, 47, kTable45};
inline constexpr Field kUseSpan{"use_span", 48, 55, kTable45};
// Column shift: B columns start at this offset (max 16 for M = 32, 32 otherwise).
inline constexpr Field kColumnShift{"column_shift", 56, 61, kTable45};
// Bits 62-63 are not in Table 45: treated as reserved.
inline constexpr Field kReserved62{"reserved_62_63", 62, 63, kTable45};

inline constexpr std::array<Field, 4> kStartCount = {kStartCount0, kStartCount1, kStartCount2,
                                                     kStartCount3};
inline constexpr std::array<Field, 4> kFirstSpan = {kFirstSpan0, kFirstSpan1, kFirstSpan2,
                                                    kFirstSpan3};
inline constexpr std::array kAll = {
    kStartCount0, kStartCount1, kStartCount2, kStartCount3, kFirstSpan0, kFirstSpan1,  kFirstSpan2,
    kFirstSpan3,  kReserved36,  kNonZeroMask, kSkipSpan,    kUseSpan,    kColumnShift, kReserved62};
static_assert(IsCompleteLayout(kAll, 64), "Table 45 fields must tile the 64-bit word");
}  // namespace zcm_field

namespace zcm_rule {
inline constexpr Rule kReserved36{"zcm.reserved_36_38", "PTX 9.1 §9.7.16.4.3 Table 45",
                                  "bits 36-38 are reserved and must be 0"};
inline constexpr Rule kReserved62{"zcm.reserved_62_63", "PTX 9.1 §9.7.16.4.3 Table 45",
                                  "bits 62-63 are not defined by Table 45 and must be 0"};
inline constexpr Rule kShiftMax{"zcm.shift_max", "PTX 9.1 §9.7.16.4.3 Table 45 (Column Shift)",
                                "column shift is at most 16 for M = 32 and at most 32 otherwise"};
inline constexpr Rule kShiftOverIdesc{
    "zcm.shift_over_idesc_max", "PTX 9.1 §9.7.16.4.2 Table 42 bits 30-31",
    "column shift is at most the instruction descriptor's max shift (0, 8, 16 or 32)"};
}  // namespace zcm_rule

Span<const Rule* const> ZeroColumnMaskRules();

// The descriptor's fields, holding the raw field contents (spans as encoded, count - 1).
struct ZeroColumnMask {
  std::array<uint8_t, 4> start_count{};
  std::array<uint8_t, 4> first_span{};
  uint8_t reserved_36_38 = 0;
  uint8_t non_zero_mask = 0;
  uint8_t skip_span = 0;
  uint8_t use_span = 0;
  uint8_t column_shift = 0;
  uint8_t reserved_62_63 = 0;
  // Defaulted in the .cc: a C++17 includer cannot default it (issue 35).
  friend bool operator==(const ZeroColumnMask&, const ZeroColumnMask&);
};

ZeroColumnMask DecodeZeroColumnMask(uint64_t desc);
// Writes each field's low bits (a value wider than its field loses its high bits).
uint64_t EncodeZeroColumnMask(const ZeroColumnMask& fields);

int SubMaskCount(int m);    // 1 for M = 128, 2 for 64, 4 for 32; 0 for any other M
int MaxColumnShift(int m);  // 16 for M = 32, 32 otherwise
// The instruction descriptor's max_shift code (Table 42: 0, 8, 16 or 32 columns) with the smallest
// limit that admits the mask's column shift (rule zcm.shift_over_idesc_max), or -1 when none
// does: what an instruction issuing the mask puts in its descriptor.
int IdescMaxShiftCodeFor(uint64_t desc);

// One zero-column mask as an instruction reads it.
struct ZcmCase {
  uint64_t desc = 0;
  MmaWsShape shape;
  // Defaulted in the .cc: a C++17 includer cannot default it (issue 35).
  friend bool operator==(const ZcmCase&, const ZcmCase&);
};

Verdict Validate(const ZcmCase& c);

inline constexpr int kMaxN = 256;

struct ZcmExpansion {
  int m = 0;
  int n = 0;
  int sub_masks = 0;
  std::array<int, 5> boundary{};  // sub-mask i covers columns [boundary[i], boundary[i+1])
  std::bitset<kMaxN> mask;        // bit j = 1: D column j gets zeros from B
  std::vector<int> b_column;      // per D column: the B column it reads, or -1 when zeroed

  std::string MaskHex() const;  // "0x..." with ceil(N/4) digits, bit j = column j
};

// The mask and column map for M (32, 64, 128) and N (1..256); nullopt for any other M or N.
// Field values outside the spec (reserved bits, too-large shifts) are still expanded as
// written: validation and expansion are separate questions.
std::optional<ZcmExpansion> Expand(uint64_t desc, int m, int n,
                                   spec_choice::ZcmSpanMeaning spans = spec_choice::kZcmSpans);

// The readings of oracle/core/backing.h this mask's expansion depends on: Z1 when it zeroes
// columns, Z2 for a start count past a period, Z3 for a run longer than a sub-mask, Z4 where N
// does not divide into the sub-masks, Z5 for a shift beside zeroed columns, Z6 for bits 62-63 set.
std::vector<std::string_view> ReadingsOf(const ZcmCase& c);

}  // namespace tcfuzz::oracle::tcgen05
