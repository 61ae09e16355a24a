#include "oracle/tcgen05/zero_column_mask.h"

#include <algorithm>
#include <string>

#include "oracle/core/span.h"
#include "oracle/tcgen05/instr_descriptor.h"

namespace tcfuzz::oracle::tcgen05 {
namespace {

constexpr std::array<const Rule*, 4> kZcmRules = {&zcm_rule::kReserved36, &zcm_rule::kReserved62,
                                                  &zcm_rule::kShiftMax, &zcm_rule::kShiftOverIdesc};

uint8_t Get8(const Field& f, uint64_t desc) { return static_cast<uint8_t>(f.Get(desc)); }

}  // namespace

Span<const Rule* const> ZeroColumnMaskRules() { return kZcmRules; }

ZeroColumnMask DecodeZeroColumnMask(uint64_t desc) {
  using namespace zcm_field;
  ZeroColumnMask z;
  for (int i = 0; i < 4; ++i) {
    z.start_count[i] = Get8(kStartCount[i], desc);
    z.first_span[i] = Get8(kFirstSpan[i], desc);
  }
  z.reserved_36_38 = Get8(kReserved36, desc);
  z.non_zero_mask = Get8(kNonZeroMask, desc);
  z.skip_span = Get8(kSkipSpan, desc);
  z.use_span = Get8(kUseSpan, desc);
  z.column_shift = Get8(kColumnShift, desc);
  z.reserved_62_63 = Get8(kReserved62, desc);
  return z;
}

uint64_t EncodeZeroColumnMask(const ZeroColumnMask& z) {
  using namespace zcm_field;
  uint64_t d = 0;
  for (int i = 0; i < 4; ++i) {
    d = kStartCount[i].Put(d, z.start_count[i]);
    d = kFirstSpan[i].Put(d, z.first_span[i]);
  }
  d = kReserved36.Put(d, z.reserved_36_38);
  d = kNonZeroMask.Put(d, z.non_zero_mask);
  d = kSkipSpan.Put(d, z.skip_span);
  d = kUseSpan.Put(d, z.use_span);
  d = kColumnShift.Put(d, z.column_shift);
  d = kReserved62.Put(d, z.reserved_62_63);
  return d;
}

int SubMaskCount(int m) {
  switch (m) {
    case 128:
      return 1;
    case 64:
      return 2;
    case 32:
      return 4;
    default:
      return 0;
  }
}

int MaxColumnShift(int m) { return m == 32 ? 16 : 32; }

int IdescMaxShiftCodeFor(uint64_t desc) {
  const int shift = DecodeZeroColumnMask(desc).column_shift;
  for (const int columns : {0, 8, 16, 32}) {
    if (shift <= columns) return MaxShiftCode(columns);
  }
  return -1;
}

Verdict Validate(const ZcmCase& c) {
  Verdict v;
  ValidateMmaWsShape(c.shape, v);
  const ZeroColumnMask z = DecodeZeroColumnMask(c.desc);
  if (z.reserved_36_38 != 0) {
    v.Add(zcm_rule::kReserved36, "reserved_36_38", z.reserved_36_38,
          "reserved bits 36-38 hold " + std::to_string(z.reserved_36_38));
  }
  if (z.reserved_62_63 != 0) {
    v.Add(zcm_rule::kReserved62, "reserved_62_63", z.reserved_62_63,
          "bits 62-63 hold " + std::to_string(z.reserved_62_63));
  }
  const int max_shift = MaxColumnShift(c.shape.m);
  if (z.column_shift > max_shift) {
    v.Add(zcm_rule::kShiftMax, "column_shift", z.column_shift,
          "column shift " + std::to_string(z.column_shift) + " exceeds " +
              std::to_string(max_shift) + " for M = " + std::to_string(c.shape.m));
  }
  if (c.shape.idesc) {
    const int idesc_max = InstrDescriptor{*c.shape.idesc}.max_shift_columns();
    if (z.column_shift > idesc_max) {
      v.Add(zcm_rule::kShiftOverIdesc, "column_shift", z.column_shift,
            "column shift " + std::to_string(z.column_shift) + " exceeds the idesc max shift " +
                std::to_string(idesc_max));
    }
  }
  return v;
}

std::optional<ZcmExpansion> Expand(uint64_t desc, int m, int n, spec_choice::ZcmSpanMeaning spans) {
  const int k = SubMaskCount(m);
  if (k == 0 || n < 1 || n > kMaxN) return std::nullopt;
  const ZeroColumnMask z = DecodeZeroColumnMask(desc);
  ZcmExpansion e;
  e.m = m;
  e.n = n;
  e.sub_masks = k;
  for (int i = 0; i <= k; ++i) e.boundary[i] = i * n / k;  // spec choice Z4
  for (int i = k + 1; i < 5; ++i) e.boundary[i] = n;
  if (z.non_zero_mask != 0) {
    // Spec choice Z1: which span sizes the runs of 1s (zeroed columns).
    const bool examples = spans == spec_choice::ZcmSpanMeaning::kWorkedExamples;
    const int ones = (examples ? z.skip_span : z.use_span) + 1;
    const int zeros = (examples ? z.use_span : z.skip_span) + 1;
    const int period = ones + zeros;
    for (int i = 0; i < k; ++i) {
      const bool first = z.first_span[i] != 0;
      const int first_len = first ? ones : zeros;
      for (int j = e.boundary[i]; j < e.boundary[i + 1]; ++j) {
        const int pos = (z.start_count[i] + (j - e.boundary[i])) % period;  // spec choice Z2
        e.mask[static_cast<std::size_t>(j)] = (pos < first_len) ? first : !first;
      }
    }
  }
  e.b_column.resize(static_cast<std::size_t>(n));
  for (int j = 0; j < n; ++j) {  // spec choice Z5
    e.b_column[static_cast<std::size_t>(j)] =
        e.mask[static_cast<std::size_t>(j)] ? -1 : j + z.column_shift;
  }
  return e;
}

std::string ZcmExpansion::MaskHex() const {
  static constexpr char kDigits[] = "0123456789abcdef";
  const int digits = (n + 3) / 4;
  std::string hex = "0x";
  for (int d = digits - 1; d >= 0; --d) {
    int nibble = 0;
    for (int b = 0; b < 4; ++b) {
      const int col = 4 * d + b;
      if (col < n && mask[static_cast<std::size_t>(col)]) nibble |= 1 << b;
    }
    hex += kDigits[nibble];
  }
  return hex;
}

std::vector<std::string_view> ReadingsOf(const ZcmCase& c) {
  // Only the readings this mask's expansion depends on: a mask without the non-zero flag zeroes
  // nothing, a start count inside one period and runs shorter than the sub-mask need neither
  // silent case, and without a shift (or without a zeroed column) D column j reads B column j
  // under either reading of which columns the mask indexes.
  const ZeroColumnMask z = DecodeZeroColumnMask(c.desc);
  const auto e = Expand(c.desc, c.shape.m, c.shape.n);
  std::vector<std::string_view> ids;
  if (z.non_zero_mask != 0) {
    ids.push_back("Z1");
    const int longest = std::max(z.skip_span, z.use_span) + 1;
    const int period = z.skip_span + z.use_span + 2;
    bool past_period = false, past_width = false;
    for (int i = 0; e && i < e->sub_masks; ++i) {
      const int width =
          e->boundary[static_cast<std::size_t>(i) + 1] - e->boundary[static_cast<std::size_t>(i)];
      past_period |= z.start_count[static_cast<std::size_t>(i)] >= period;
      past_width |= width > 0 && longest > width;
    }
    if (past_period) ids.push_back("Z2");
    if (past_width) ids.push_back("Z3");
  }
  if (e && e->sub_masks > 0 && c.shape.n % e->sub_masks != 0) ids.push_back("Z4");
  if (z.column_shift != 0 && e && e->mask.any()) ids.push_back("Z5");
  if (z.reserved_62_63 != 0) ids.push_back("Z6");
  return ids;
}

bool operator==(const ZeroColumnMask&, const ZeroColumnMask&) = default;
bool operator==(const ZcmCase&, const ZcmCase&) = default;

}  // namespace tcfuzz::oracle::tcgen05
