#include "generators/tcgen05/zero_column_mask_gen.h"

#include <algorithm>
#include <array>
#include <vector>

#include "generators/core/field_values.h"
#include "oracle/core/span.h"
#include "oracle/tcgen05/instr_descriptor.h"
#include "oracle/tcgen05/mma_ws_shape.h"

namespace tcfuzz::gen {
namespace {

using oracle::Rule;
using oracle::tcgen05::EncodeZeroColumnMask;
using oracle::tcgen05::MakeWsIdesc;
using oracle::tcgen05::MaxColumnShift;
using oracle::tcgen05::MmaWsShape;
using oracle::tcgen05::ZcmCase;
using oracle::tcgen05::ZeroColumnMask;
namespace zf = oracle::tcgen05::zcm_field;
namespace zr = oracle::tcgen05::zcm_rule;
namespace wr = oracle::tcgen05::ws_rule;
namespace idf = oracle::tcgen05::idesc_field;

constexpr std::array<const Rule*, 10> kBreakable = {
    &zr::kReserved36, &zr::kReserved62, &zr::kShiftMax, &zr::kShiftOverIdesc, &wr::kM,
    &wr::kNDense,     &wr::kNSparse,    &wr::kIdescM,   &wr::kIdescN,         &wr::kIdescSparsity};

// Spec worked examples (fields as the tables print them; N = 128 for all).
ZcmCase Example(int m, std::array<uint8_t, 4> sc, std::array<uint8_t, 4> fs, uint8_t nzm,
                uint8_t skip, uint8_t use, uint8_t shift) {
  ZeroColumnMask z;
  z.start_count = sc;
  z.first_span = fs;
  z.non_zero_mask = nzm;
  z.skip_span = skip;
  z.use_span = use;
  z.column_shift = shift;
  return ZcmCase{EncodeZeroColumnMask(z), MmaWsShape{m, 128, false, std::nullopt}};
}

const std::array<ZcmCase, 4> kSpecial = {
    Example(128, {0, 0, 0, 0}, {0, 0, 0, 0}, 0, 4, 3, 0),  // Example 1
    Example(128, {0, 0, 0, 0}, {0, 0, 0, 0}, 1, 2, 3, 0),  // Example 2
    Example(64, {0, 0, 0, 0}, {1, 0, 0, 0}, 1, 2, 3, 0),   // Example 3
    Example(32, {0, 1, 2, 1}, {1, 1, 0, 0}, 1, 2, 3, 2),   // Example 4
};

constexpr std::array<int, 4> kShiftLimits = {0, 8, 16, 32};  // idesc max-shift columns

// An idesc for `shape` whose max shift admits `shift`, or none; drawn in that order so that
// shrinking drops the idesc first.
std::optional<uint32_t> DrawIdesc(Source& s, const MmaWsShape& shape, int shift) {
  if (s.Below(2) == 0) return std::nullopt;
  std::vector<int> allowed;
  for (int lim : kShiftLimits) {
    if (lim >= shift) allowed.push_back(lim);
  }
  return MakeWsIdesc(shape, s.Pick(oracle::Span<const int>(allowed)));
}

// Whether the mask zeroes every column: its D is C whatever A and B hold, so the case cannot
// tell an instruction that does nothing (or writes zeros) from a right one.
bool ZeroesEveryColumn(const ZcmCase& c) {
  // Only a run of zeroed columns as wide as a sub-mask can: most masks are ruled out without
  // expanding them (whichever span sizes that run, it is at most the longer one).
  const ZeroColumnMask z = oracle::tcgen05::DecodeZeroColumnMask(c.desc);
  const int k = oracle::tcgen05::SubMaskCount(c.shape.m);
  if (z.non_zero_mask == 0 || k == 0 || std::max(z.skip_span, z.use_span) + 1 < c.shape.n / k)
    return false;
  const auto e = oracle::tcgen05::Expand(c.desc, c.shape.m, c.shape.n);
  return e && e->mask.count() == static_cast<std::size_t>(c.shape.n);
}

ZcmCase DrawLegalMask(Source& s) {
  MmaWsShape shape;
  static constexpr std::array<int, 3> kM = {128, 64, 32};
  shape.m = s.Pick(oracle::Span<const int>(kM));
  shape.sparse = s.Coin();
  shape.n = s.Pick(oracle::tcgen05::LegalWsN(shape.sparse));
  ZeroColumnMask z;
  z.non_zero_mask = s.Below(4) != 0 ? 1 : 0;
  z.skip_span = static_cast<uint8_t>(FieldValue(s, zf::kSkipSpan));
  z.use_span = static_cast<uint8_t>(FieldValue(s, zf::kUseSpan));
  for (int i = 0; i < 4; ++i) {
    z.start_count[i] = static_cast<uint8_t>(FieldValue(s, zf::kStartCount[i]));
    z.first_span[i] = static_cast<uint8_t>(s.Below(2));
  }
  z.column_shift =
      static_cast<uint8_t>(s.InRange(0, static_cast<uint64_t>(MaxColumnShift(shape.m))));
  shape.idesc = DrawIdesc(s, shape, z.column_shift);
  return ZcmCase{EncodeZeroColumnMask(z), shape};
}

GeneratedZcm DrawLegal(Source& s) {
  if (s.Below(8) == 0) {
    return GeneratedZcm{s.Pick(oracle::Span<const ZcmCase>(kSpecial)), Intent::kLegal, nullptr};
  }
  // Long spans zero every column of one case in ten; one in 32 of those is kept (an edge worth
  // a few cases, not a tenth of the family: issue 31's discrimination against an all-zero D).
  ZcmCase c = DrawLegalMask(s);
  for (int tries = 0; tries < 8 && ZeroesEveryColumn(c) && s.Below(32) != 0; ++tries)
    c = DrawLegalMask(s);
  return GeneratedZcm{c, Intent::kLegal, nullptr};
}

}  // namespace

oracle::Span<const Rule* const> ZcmBreakableRules() { return kBreakable; }
oracle::Span<const ZcmCase> ZcmSpecialCases() { return kSpecial; }

GeneratedZcm DrawZcmBreaking(Source& s, const Rule& rule) {
  GeneratedZcm g = DrawLegal(s);
  g.intent = Intent::kBreakOne;
  g.broken = &rule;
  ZcmCase& c = g.c;
  ZeroColumnMask z = oracle::tcgen05::DecodeZeroColumnMask(c.desc);
  MmaWsShape& shape = c.shape;
  const auto rebuild_idesc = [&](int limit) { shape.idesc = MakeWsIdesc(shape, limit); };
  const int current_limit =
      shape.idesc ? oracle::tcgen05::InstrDescriptor{*shape.idesc}.max_shift_columns() : 32;

  if (&rule == &zr::kReserved36) {
    z.reserved_36_38 = static_cast<uint8_t>(s.InRange(1, zf::kReserved36.max_value()));
  } else if (&rule == &zr::kReserved62) {
    z.reserved_62_63 = static_cast<uint8_t>(s.InRange(1, zf::kReserved62.max_value()));
  } else if (&rule == &zr::kShiftMax) {
    // Past the M limit; an idesc would add a second violation unless its limit still admits it.
    z.column_shift = static_cast<uint8_t>(s.InRange(
        static_cast<uint64_t>(MaxColumnShift(shape.m)) + 1, zf::kColumnShift.max_value()));
    if (z.column_shift > 32) {
      shape.idesc.reset();
    } else if (shape.idesc) {
      rebuild_idesc(32);
    }
  } else if (&rule == &zr::kShiftOverIdesc) {
    // An idesc limit below the M limit, and a shift between the two.
    std::vector<int> limits;
    for (int lim : kShiftLimits) {
      if (lim < MaxColumnShift(shape.m)) limits.push_back(lim);
    }
    const int limit = s.Pick(oracle::Span<const int>(limits));
    rebuild_idesc(limit);
    z.column_shift = static_cast<uint8_t>(s.InRange(
        static_cast<uint64_t>(limit) + 1, static_cast<uint64_t>(MaxColumnShift(shape.m))));
  } else if (&rule == &wr::kM) {
    // Multiples of 16 so an idesc can still encode M (M >> 4 fits 5 bits); the shift limit for
    // any M other than 32 is 32, which every legal shift already meets.
    static constexpr std::array<int, 7> kBadM = {16, 48, 80, 96, 112, 256, 496};
    shape.m = s.Pick(oracle::Span<const int>(kBadM));
    if (shape.idesc) rebuild_idesc(current_limit);
  } else if (&rule == &wr::kNDense) {
    static constexpr std::array<int, 8> kBadN = {8, 16, 32, 48, 72, 136, 192, 248};
    shape.sparse = false;
    shape.n = s.Pick(oracle::Span<const int>(kBadN));
    if (shape.idesc) rebuild_idesc(current_limit);
  } else if (&rule == &wr::kNSparse) {
    static constexpr std::array<int, 5> kBadN = {256, 8, 32, 96, 192};
    shape.sparse = true;
    shape.n = s.Pick(oracle::Span<const int>(kBadN));
    if (shape.idesc) rebuild_idesc(current_limit);
  } else if (&rule == &wr::kIdescM) {
    rebuild_idesc(current_limit);
    const uint64_t good = static_cast<uint64_t>(shape.m) >> 4;
    uint64_t bad = s.Below(idf::kMDim.max_value());  // 0..30, then skip the good value
    if (bad >= good) ++bad;
    shape.idesc = static_cast<uint32_t>(idf::kMDim.Put(*shape.idesc, bad));
  } else if (&rule == &wr::kIdescN) {
    rebuild_idesc(current_limit);
    const uint64_t good = static_cast<uint64_t>(shape.n) >> 3;
    uint64_t bad = s.Below(idf::kNDim.max_value());
    if (bad >= good) ++bad;
    shape.idesc = static_cast<uint32_t>(idf::kNDim.Put(*shape.idesc, bad));
  } else if (&rule == &wr::kIdescSparsity) {
    rebuild_idesc(current_limit);
    shape.idesc = static_cast<uint32_t>(idf::kSparsity.Put(*shape.idesc, shape.sparse ? 0 : 1));
  }
  c.desc = EncodeZeroColumnMask(z);
  return g;
}

GeneratedZcm DrawZcm(Source& s, Intent intent) {
  switch (intent) {
    case Intent::kLegal:
      return DrawLegal(s);
    case Intent::kBreakOne:
      return DrawZcmBreaking(s, *s.Pick(ZcmBreakableRules()));
    case Intent::kRawBits: {
      GeneratedZcm g;
      g.intent = Intent::kRawBits;
      static constexpr std::array<int, 8> kAnyM = {128, 64, 32, 0, 16, 96, 256, 1};
      g.c.shape.m = s.Pick(oracle::Span<const int>(kAnyM));
      g.c.shape.n = static_cast<int>(s.InRange(0, 320));
      g.c.shape.sparse = s.Coin();
      g.c.desc = s.Bits(64);
      if (s.Coin()) g.c.shape.idesc = static_cast<uint32_t>(s.Bits(32));
      return g;
    }
  }
  return DrawLegal(s);
}

}  // namespace tcfuzz::gen
