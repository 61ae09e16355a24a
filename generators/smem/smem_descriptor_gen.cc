#include "generators/smem/smem_descriptor_gen.h"

#include <algorithm>
#include <array>
#include <vector>

#include "oracle/core/span.h"
#include "oracle/smem/swizzle.h"
#include "oracle/tcgen05/smem_descriptor.h"
#include "oracle/wgmma/smem_descriptor.h"

namespace tcfuzz::gen {
namespace {

using namespace oracle::smem;
using oracle::Rule;
namespace tf = oracle::tcgen05::smem_field;
namespace tr = oracle::tcgen05::desc_rule;
namespace wf = oracle::wgmma::smem_field;
namespace wr = oracle::wgmma::desc_rule;

constexpr std::array<Arch, 3> kArchs = {Arch::kSm90a, Arch::kSm100a, Arch::kSm103a};
constexpr std::array<Swizzle, 5> kSwizzles = {Swizzle::kNone, Swizzle::k32B, Swizzle::k64B,
                                              Swizzle::k128B, Swizzle::k128B32BAtom};
constexpr std::array<int, 8> kRows = {64, 8, 16, 24, 32, 128, 256, 40};

// What a caller pins; anything unset is drawn. `force` skips the legality tables for the pinned
// values (break-one cases pin illegal combinations).
struct Pins {
  std::optional<Arch> arch;
  std::vector<DType> dtypes;  // draw from these when set
  std::optional<Major> major;
  std::vector<Swizzle> swizzles;
  std::optional<bool> misaligned;  // pattern start off the repeat boundary
  bool absolute = false;           // tcgen05 absolute LBO mode
  bool force = false;
};

template <class T>
T PickFrom(Source& s, const std::vector<T>& v) {
  return v[s.Below(v.size())];
}

uint64_t CeilDiv(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

// Strides of a layout that holds `rows` x `kbytes` without overlap: the inner mode gets the
// atom (or core matrix) size, the outer one the inner extent, each padded by a few atoms.
void DrawStrides(Source& s, CanonicalLayout& l, int rows, int kbytes) {
  const uint64_t eb = static_cast<uint64_t>(StorageBits(l.dtype));
  const uint64_t t = 128 / eb;
  const uint64_t units = static_cast<uint64_t>(SwizzleRowBytes(l.swizzle)) / 16;
  // K rows of an MN-major atom: 8, or 4 for 128B with 32-byte atoms (spec choice S7).
  const uint64_t krows = l.major == Major::kK ? 8 : static_cast<uint64_t>(AtomKRows(l.swizzle));
  const uint64_t atom = krows * units * 16;  // bytes of one atom (a core matrix when no swizzle)
  const auto pad = [&s]() { return s.Below(4) == 0 ? s.Below(3) : 0; };
  const bool inner_first = s.Coin();  // which stride is the inner one (both orders are legal)
  uint64_t row_mode, k_mode;          // counts of atoms along rows and along K
  if (l.major == Major::kK) {
    row_mode = CeilDiv(static_cast<uint64_t>(rows), 8);
    k_mode = CeilDiv(static_cast<uint64_t>(kbytes) / 16, units);
  } else {
    row_mode = CeilDiv(static_cast<uint64_t>(rows), t * units);
    k_mode = CeilDiv(static_cast<uint64_t>(kbytes) * 8 / eb, krows);
  }
  // Which descriptor stride steps along rows: SBO for K-major and for MN-major without
  // swizzle, LBO for swizzled MN-major (the role swap of the canonical table).
  const bool rows_use_lbo = l.major == Major::kMN && l.swizzle != Swizzle::kNone;
  uint64_t row_stride, k_stride;
  if (inner_first) {
    row_stride = atom * (1 + pad());
    k_stride = row_mode * row_stride + atom * pad();
  } else {
    k_stride = atom * (1 + pad());
    row_stride = k_mode * k_stride + atom * pad();
  }
  if (l.major == Major::kK && l.swizzle != Swizzle::kNone && k_mode == 1) {
    // LBO is ignored inside one atom: vary it (0, the doc's "assumed 1", anything).
    const uint64_t choice = s.Below(3);
    k_stride = choice == 0 ? 16 : choice == 1 ? 0 : 16 * s.Bits(14);
    row_stride = atom * (1 + pad());
  }
  l.lbo = rows_use_lbo ? row_stride : k_stride;
  l.sbo = rows_use_lbo ? k_stride : row_stride;
  l.m = static_cast<int>(row_mode);
  l.k = l.major == Major::kK ? static_cast<int>(CeilDiv(static_cast<uint64_t>(kbytes), 32))
                             : static_cast<int>(k_mode);
}

uint64_t Footprint(const SmemMatrix& m, const OperandView& v) {
  auto map = MapAddresses(m, v);
  uint64_t last = 0;
  for (uint64_t bit : map.value().bits) last = std::max(last, bit / 8);
  return last + 1;
}

GeneratedSmem DrawLegal(Source& s, const Pins& p) {
  GeneratedSmem g;
  SmemCase& c = g.c;
  c.arch = p.arch ? *p.arch : s.Pick(oracle::Span<const Arch>(kArchs));
  c.operand = s.Coin() ? Operand::kB : Operand::kA;
  const auto types = DTypesFor(c.arch);
  c.view.dtype = p.dtypes.empty() ? s.Pick(types) : PickFrom(s, p.dtypes);
  if (p.major) {
    c.view.major = *p.major;
  } else {
    c.view.major =
        MajorAllowed(c.arch, Major::kMN, c.view.dtype) && s.Coin() ? Major::kMN : Major::kK;
  }
  // Pinned swizzles are taken as they are when forced, else filtered by the legality table;
  // when none survives for an MN-major draw, K-major (which takes every plain mode) is used.
  const auto allowed = [&](Major major) {
    std::vector<Swizzle> out;
    for (Swizzle z : p.swizzles.empty() ? std::vector<Swizzle>(kSwizzles.begin(), kSwizzles.end())
                                        : p.swizzles) {
      if (p.force || SwizzleAllowed(c.arch, major, c.view.dtype, z)) out.push_back(z);
    }
    return out;
  };
  std::vector<Swizzle> swizzles = allowed(c.view.major);
  if (swizzles.empty()) {
    c.view.major = Major::kK;
    swizzles = allowed(Major::kK);
  }
  CanonicalLayout l;
  l.major = c.view.major;
  l.dtype = c.view.dtype;
  l.swizzle = PickFrom(s, swizzles);
  const uint64_t row_bytes = static_cast<uint64_t>(SwizzleRowBytes(l.swizzle));
  c.view.rows = s.Pick(oracle::Span<const int>(kRows));
  c.view.kbytes = p.absolute ? 48 : (s.Below(4) == 0 ? 64 : 32);
  DrawStrides(s, l, c.view.rows, c.view.kbytes);
  // K-advance: a K-major swizzled start may sit inside the first swizzle row.
  if (p.absolute) {
    static constexpr std::array<uint64_t, 3> kAdvance = {0, 96, 48};
    g.k_advance = s.Pick(oracle::Span<const uint64_t>(kAdvance));
  } else if (l.major == Major::kK && l.swizzle != Swizzle::kNone &&
             static_cast<uint64_t>(c.view.kbytes) < row_bytes) {
    g.k_advance = 16 * s.Below((row_bytes - static_cast<uint64_t>(c.view.kbytes)) / 16 + 1);
  }
  SmemMatrix m = MatrixFor(l, 0);
  m.start = g.k_advance;
  m.lbo_absolute = p.absolute;
  if (p.absolute) m.lbo = 0;  // the second chunk's address is placed below, after the first
  const uint64_t repeat =
      std::max<uint64_t>(static_cast<uint64_t>(SwizzleRepeatBytes(l.swizzle)), 16);
  uint64_t footprint = Footprint(m, c.view);
  if (p.absolute) {
    // The second chunk of each row lives in its own 1024-aligned region (spec choice S4).
    const uint64_t second = (footprint + 1023) / 1024 * 1024;
    m.lbo = second;
    footprint = Footprint(m, c.view);
  }
  // Place the pattern: a repeat-aligned base, optionally moved off the boundary by whole
  // 128-byte rows (the base offset then says where the pattern starts).
  const bool misaligned =
      p.misaligned ? *p.misaligned : (l.swizzle != Swizzle::kNone && s.Below(3) == 0);
  const uint64_t rows128 = repeat / 128;
  const uint64_t shift = misaligned && rows128 > 1 ? 128 * (1 + s.Below(rows128 - 1)) : 0;
  const uint64_t room = kSmemWindowBytes - std::min(kSmemWindowBytes, footprint + shift + repeat);
  const uint64_t base = repeat * s.Below(room / repeat + 1);
  const uint64_t pattern = base + shift;
  m.start = pattern + g.k_advance;
  if (p.absolute) m.lbo += pattern;
  m.base_offset = BaseOffsetFor(l.swizzle, pattern);
  c.desc = EncodeMatrix(c.arch, m).desc;
  c.pattern_start = pattern;
  g.layout = l;
  return g;
}

std::vector<DType> Narrow() { return {DType::kE3M2, DType::kE2M3, DType::kE2M1}; }
std::vector<DType> Wide8And16() {
  return {DType::kF16, DType::kBF16, DType::kE4M3, DType::kE5M2, DType::kS8, DType::kU8};
}

uint64_t Put(const oracle::Field& f, uint64_t desc, uint64_t v) { return f.Put(desc, v); }

}  // namespace

// Every descriptor rule in the oracle's order but the encoding ones: smem.align16 and
// smem.field_range apply to byte values before encoding, and no wgmma bits can express the mode
// wgmma.smem.swizzle_mode forbids.
oracle::Span<const Rule* const> SmemBreakableRules() {
  static const std::vector<const Rule*> kBreakable = [] {
    std::vector<const Rule*> v;
    for (const Rule* r : SmemRules()) {
      if (r != &smem_rule::kAlign16 && r != &smem_rule::kFieldRange && r != &wr::kSwizzleMode)
        v.push_back(r);
    }
    return v;
  }();
  return kBreakable;
}

uint64_t BreakDescriptorField(Source& s, const SmemCase& c, const Rule& rule) {
  uint64_t d = c.desc;
  if (&rule == &tr::kFixed46) {
    static constexpr std::array<uint64_t, 7> kBad = {0, 2, 3, 4, 5, 6, 7};
    d = Put(tf::kFixed46, d, s.Pick(oracle::Span<const uint64_t>(kBad)));
  } else if (&rule == &tr::kReserved14) {
    d = Put(tf::kReserved14, d, s.InRange(1, 3));
  } else if (&rule == &tr::kReserved30) {
    d = Put(tf::kReserved30, d, s.InRange(1, 3));
  } else if (&rule == &tr::kFixed53) {
    d = Put(tf::kFixed53, d, s.InRange(1, 255));
  } else if (&rule == &tr::kSwizzleCode) {
    static constexpr std::array<uint64_t, 3> kBad = {3, 5, 7};
    d = Put(tf::kSwizzle, d, s.Pick(oracle::Span<const uint64_t>(kBad)));
  } else if (&rule == &tr::kLboModeTarget || &rule == &tr::kLboModeSwizzle ||
             &rule == &tr::kLboModeMajor || &rule == &tr::kLboModeBaseOffset) {
    d = Put(tf::kLboMode, d, 1);
  } else if (&rule == &wr::kReserved14) {
    d = Put(wf::kReserved14, d, s.InRange(1, 3));
  } else if (&rule == &wr::kReserved30) {
    d = Put(wf::kReserved30, d, s.InRange(1, 3));
  } else if (&rule == &wr::kReserved46) {
    d = Put(wf::kReserved46, d, s.InRange(1, 7));  // 1 is the tcgen05 constant: a classic slip
  } else if (&rule == &wr::kReserved52) {
    d = Put(wf::kReserved52, d, s.InRange(1, wf::kReserved52.max_value()));
  } else if (&rule == &smem_rule::kBaseOffsetNoSwizzle) {
    d = c.arch == Arch::kSm90a ? Put(wf::kBaseOffset, d, s.InRange(1, 7))
                               : Put(tf::kBaseOffset, d, s.InRange(1, 7));
  } else if (&rule == &smem_rule::kBaseOffsetValue) {
    const auto m = DecodeMatrix(c.arch, d);
    uint64_t bad = s.Below(7);
    if (bad >= static_cast<uint64_t>(m->base_offset)) ++bad;
    d = c.arch == Arch::kSm90a ? Put(wf::kBaseOffset, d, bad) : Put(tf::kBaseOffset, d, bad);
  }
  return d;
}

GeneratedSmem DrawSmemBreaking(Source& s, const Rule& rule) {
  const std::optional<Arch> tc = s.Coin() ? Arch::kSm103a : Arch::kSm100a;
  Pins p;
  // Pin what the rule needs, draw the case legal under those pins, then break the one field.
  if (&rule == &tr::kFixed46 || &rule == &tr::kReserved14 || &rule == &tr::kReserved30 ||
      &rule == &tr::kFixed53 || &rule == &tr::kSwizzleCode) {
    p.arch = tc;
  } else if (&rule == &wr::kReserved14 || &rule == &wr::kReserved30 || &rule == &wr::kReserved46 ||
             &rule == &wr::kReserved52) {
    p.arch = Arch::kSm90a;
  } else if (&rule == &tr::kLboModeTarget) {
    p = Pins{Arch::kSm100a, {}, Major::kK, {Swizzle::k128B}, false, false, false};
  } else if (&rule == &tr::kLboModeSwizzle) {
    p = Pins{Arch::kSm103a, {},    Major::kK, {Swizzle::kNone, Swizzle::k32B, Swizzle::k64B},
             false,         false, false};
  } else if (&rule == &tr::kLboModeMajor) {
    p = Pins{Arch::kSm103a, Wide8And16(), Major::kMN, {Swizzle::k128B}, false, false, false};
  } else if (&rule == &tr::kLboModeBaseOffset) {
    p = Pins{Arch::kSm103a, {}, Major::kK, {Swizzle::k128B}, true, false, false};
  } else if (&rule == &tr::kMnMajorDType) {
    p = Pins{
        tc, Narrow(), Major::kMN, {Swizzle::kNone, Swizzle::k32B, Swizzle::k64B, Swizzle::k128B},
        {}, false,    true};
  } else if (&rule == &tr::kTf32MnSwizzle) {
    p = Pins{tc,         {DType::kTF32},
             Major::kMN, {Swizzle::kNone, Swizzle::k32B, Swizzle::k64B, Swizzle::k128B},
             {},         false,
             true};
  } else if (&rule == &tr::kBase32BMajor) {
    p = Pins{tc, {DType::kTF32}, Major::kK, {Swizzle::k128B32BAtom}, {}, false, true};
  } else if (&rule == &tr::kBase32BDType) {
    p = Pins{tc, Wide8And16(), Major::kMN, {Swizzle::k128B32BAtom}, {}, false, true};
  } else if (&rule == &wr::kDType) {
    p = Pins{Arch::kSm90a, Narrow(),
             Major::kK,    {Swizzle::kNone, Swizzle::k32B, Swizzle::k64B, Swizzle::k128B},
             {},           false,
             true};
  } else if (&rule == &wr::kMnMajorDType) {
    p = Pins{Arch::kSm90a, {DType::kTF32, DType::kE4M3, DType::kE5M2, DType::kS8, DType::kU8},
             Major::kMN,   {Swizzle::kNone, Swizzle::k32B, Swizzle::k64B, Swizzle::k128B},
             {},           false,
             true};
  } else if (&rule == &smem_rule::kBaseOffsetNoSwizzle) {
    p.swizzles = {Swizzle::kNone};
  } else if (&rule == &smem_rule::kBaseOffsetValue) {
    p.swizzles = {Swizzle::k32B, Swizzle::k64B, Swizzle::k128B};
  }
  GeneratedSmem g = DrawLegal(s, p);
  g.intent = Intent::kBreakOne;
  g.broken = &rule;
  uint64_t& d = g.c.desc;
  if (&rule == &smem_rule::kExtent) {
    // Move the pattern to the top of the window, one 128-byte row below its end.
    auto m = *DecodeMatrix(g.c.arch, d);
    const uint64_t pattern = kSmemWindowBytes - 128;
    m.start = pattern + g.k_advance;
    m.base_offset = BaseOffsetFor(m.swizzle, pattern);
    g.c.pattern_start = pattern;
    d = EncodeMatrix(g.c.arch, m).desc;
  } else {
    d = BreakDescriptorField(s, g.c, rule);
  }
  return g;
}

GeneratedSmem DrawSmem(Source& s, Intent intent) {
  switch (intent) {
    case Intent::kLegal: {
      // One case in eight is tcgen05's absolute LBO mode (sm_103a, K-major, 128B, K = 48 bytes).
      if (s.Below(8) == 7) {
        return DrawLegal(s,
                         Pins{Arch::kSm103a, {}, Major::kK, {Swizzle::k128B}, false, true, false});
      }
      return DrawLegal(s, Pins{});
    }
    case Intent::kBreakOne:
      return DrawSmemBreaking(s, *s.Pick(SmemBreakableRules()));
    case Intent::kRawBits: {
      GeneratedSmem g;
      g.intent = Intent::kRawBits;
      g.c.arch = s.Pick(oracle::Span<const Arch>(kArchs));
      g.c.operand = s.Coin() ? Operand::kB : Operand::kA;
      static constexpr std::array<DType, 10> kAll = {
          DType::kF16,  DType::kBF16, DType::kTF32, DType::kE4M3, DType::kE5M2,
          DType::kE3M2, DType::kE2M3, DType::kE2M1, DType::kS8,   DType::kU8};
      g.c.view.dtype = s.Pick(oracle::Span<const DType>(kAll));
      g.c.view.major = s.Coin() ? Major::kMN : Major::kK;
      g.c.view.rows = static_cast<int>(s.InRange(1, 256));
      g.c.view.kbytes =
          static_cast<int>(16 * s.InRange(1, 4));  // up to 64 bytes, as instructions read
      g.c.desc = s.Bits(64);
      if (s.Coin()) g.c.pattern_start = s.Below(kSmemWindowBytes);
      return g;
    }
  }
  return DrawLegal(s, Pins{});
}

}  // namespace tcfuzz::gen
