#include "oracle/smem/smem_case.h"

#include <algorithm>
#include <array>
#include <string>

#include "oracle/core/span.h"
#include "oracle/core/text_format.h"
#include "oracle/smem/canonical_layout.h"
#include "oracle/tcgen05/smem_descriptor.h"
#include "oracle/wgmma/smem_descriptor.h"

namespace tcfuzz::oracle::smem {
namespace {

namespace tf = tcgen05::smem_field;
namespace tr = tcgen05::desc_rule;
namespace wf = wgmma::smem_field;
namespace wr = wgmma::desc_rule;

constexpr std::array<const Rule*, 25> kRules = {&smem_rule::kBaseOffsetNoSwizzle,
                                                &smem_rule::kBaseOffsetValue,
                                                &smem_rule::kExtent,
                                                &smem_rule::kAlign16,
                                                &smem_rule::kFieldRange,
                                                &tr::kFixed46,
                                                &tr::kReserved14,
                                                &tr::kReserved30,
                                                &tr::kFixed53,
                                                &tr::kSwizzleCode,
                                                &tr::kLboModeTarget,
                                                &tr::kLboModeSwizzle,
                                                &tr::kLboModeMajor,
                                                &tr::kLboModeBaseOffset,
                                                &tr::kMnMajorDType,
                                                &tr::kTf32MnSwizzle,
                                                &tr::kBase32BMajor,
                                                &tr::kBase32BDType,
                                                &wr::kReserved14,
                                                &wr::kReserved30,
                                                &wr::kReserved46,
                                                &wr::kReserved52,
                                                &wr::kSwizzleMode,
                                                &wr::kDType,
                                                &wr::kMnMajorDType};

constexpr std::array<DType, 7> kWgmmaTypes = {
    DType::kF16, DType::kBF16, DType::kTF32, DType::kE4M3, DType::kE5M2, DType::kS8, DType::kU8};
constexpr std::array<DType, 10> kTcgen05Types = {
    DType::kF16,  DType::kBF16, DType::kTF32, DType::kE4M3, DType::kE5M2,
    DType::kE3M2, DType::kE2M3, DType::kE2M1, DType::kS8,   DType::kU8};

bool IsTcgen05(Arch a) { return a != Arch::kSm90a; }

uint64_t Enc(uint64_t bytes) { return (bytes & 0x3FFFF) >> 4; }  // PTX enc()

// The highest byte any element occupies. The swizzle only permutes bytes inside a 128-byte
// row, so the last row is found unswizzled; and a relative-mode offset is a row part plus a K
// part, so their maxima add up (O(rows + cols) instead of the whole map).
uint64_t LastByte(const SmemMatrix& m, const OperandView& v) {
  const int eb = StorageBits(v.dtype);
  const int cols = v.kbytes * 8 / eb;
  if (m.lbo_absolute) {
    uint64_t last = 0;
    const AddressMap map = MapAddresses(m, v).value();
    for (uint64_t bit : map.bits) last = std::max(last, bit / 8);
    return last + static_cast<uint64_t>(eb - 1) / 8;
  }
  uint64_t row_max = 0, k_max = 0;
  for (int r = 0; r < v.rows; ++r) row_max = std::max(row_max, CanonicalOffsetBits(m, v, r, 0));
  for (int k = 0; k < cols; ++k) k_max = std::max(k_max, CanonicalOffsetBits(m, v, 0, k));
  const uint64_t last_bit = m.start * 8 + row_max + k_max + static_cast<uint64_t>(eb) - 1;
  return last_bit / 8;
}

void CheckZero(Verdict& v, const Rule& rule, const Field& f, uint64_t desc) {
  if (f.Get(desc) != 0) {
    v.Add(rule, std::string(f.name), f.Get(desc),
          std::string(f.name) + " holds " + std::to_string(f.Get(desc)) + ", must be 0");
  }
}

}  // namespace

Span<const Rule* const> SmemRules() { return kRules; }

Span<const DType> DTypesFor(Arch arch) {
  return IsTcgen05(arch) ? Span<const DType>(kTcgen05Types) : Span<const DType>(kWgmmaTypes);
}

bool MajorAllowed(Arch arch, Major major, DType dtype) {
  if (major == Major::kK) return true;
  if (!IsTcgen05(arch)) return dtype == DType::kF16 || dtype == DType::kBF16;
  return ValueBits(dtype) >= 8;
}

bool SwizzleAllowed(Arch arch, Major major, DType dtype, Swizzle s) {
  if (!IsTcgen05(arch)) return s != Swizzle::k128B32BAtom;
  if (major == Major::kK) return s != Swizzle::k128B32BAtom;
  // MN-major: tf32 only with 128B/32B-atom, every other type anything but it.
  return (dtype == DType::kTF32) == (s == Swizzle::k128B32BAtom);
}

std::optional<SmemMatrix> DecodeMatrix(Arch arch, uint64_t desc) {
  if (IsTcgen05(arch)) {
    if (!tcgen05::SwizzleCodeValid(tf::kSwizzle.Get(desc))) return std::nullopt;
    return tcgen05::DecodeMatrix(desc);
  }
  return wgmma::DecodeMatrix(desc);
}

Encoded EncodeMatrix(Arch arch, const SmemMatrix& m) {
  Encoded e;
  for (const auto& [name, value] :
       {std::pair{"start_address", m.start}, std::pair{"lbo", m.lbo}, std::pair{"sbo", m.sbo}}) {
    if (value % 16 != 0) {
      e.verdict.Add(smem_rule::kAlign16, name, value,
                    std::string(name) + " " + std::to_string(value) + " is not a multiple of 16");
    }
    if (value >= kSmemWindowBytes) {
      e.verdict.Add(smem_rule::kFieldRange, name, value,
                    std::string(name) + " " + std::to_string(value) + " does not fit 18 bits");
    }
  }
  uint64_t d = 0;
  if (IsTcgen05(arch)) {
    d = tf::kStart.Put(d, Enc(m.start));
    d = tf::kLbo.Put(d, Enc(m.lbo));
    d = tf::kSbo.Put(d, Enc(m.sbo));
    d = tf::kFixed46.Put(d, 1);
    d = tf::kBaseOffset.Put(d, static_cast<uint64_t>(m.base_offset));
    d = tf::kLboMode.Put(d, m.lbo_absolute ? 1 : 0);
    d = tf::kSwizzle.Put(d, tcgen05::CodeOf(m.swizzle));
  } else {
    d = wf::kStart.Put(d, Enc(m.start));
    d = wf::kLbo.Put(d, Enc(m.lbo));
    d = wf::kSbo.Put(d, Enc(m.sbo));
    d = wf::kBaseOffset.Put(d, static_cast<uint64_t>(m.base_offset));
    const auto code = wgmma::CodeOf(m.swizzle);
    if (!code) {
      e.verdict.Add(wr::kSwizzleMode, "swizzle", 0,
                    "128B swizzle with 32B atomicity has no wgmma code");
    }
    d = wf::kSwizzle.Put(d, code.value_or(0));
  }
  e.desc = d;
  return e;
}

namespace {

Verdict ValidateDecoded(const SmemCase& c, const std::optional<SmemMatrix>& m) {
  Verdict v;
  const uint64_t d = c.desc;
  const DType t = c.view.dtype;
  const Major major = c.view.major;
  // Bits every descriptor of the target must hold.
  if (IsTcgen05(c.arch)) {
    if (tf::kFixed46.Get(d) != 1) {
      v.Add(tr::kFixed46, "fixed_46_48", tf::kFixed46.Get(d),
            "bits 46-48 hold " + std::to_string(tf::kFixed46.Get(d)) + ", must be 0b001");
    }
    CheckZero(v, tr::kReserved14, tf::kReserved14, d);
    CheckZero(v, tr::kReserved30, tf::kReserved30, d);
    CheckZero(v, tr::kFixed53, tf::kFixed53, d);
    if (!tcgen05::SwizzleOfCode(tf::kSwizzle.Get(d))) {
      v.Add(tr::kSwizzleCode, "swizzle", tf::kSwizzle.Get(d),
            "swizzle code " + std::to_string(tf::kSwizzle.Get(d)) + " is invalid");
    }
  } else {
    CheckZero(v, wr::kReserved14, wf::kReserved14, d);
    CheckZero(v, wr::kReserved30, wf::kReserved30, d);
    CheckZero(v, wr::kReserved46, wf::kReserved46, d);
    CheckZero(v, wr::kReserved52, wf::kReserved52, d);
  }
  // Element type and major-ness for the target.
  if (IsTcgen05(c.arch)) {
    if (major == Major::kMN && ValueBits(t) < 8) {
      v.Add(tr::kMnMajorDType, "major", 1, std::string(Name(t)) + " cannot be MN-major");
    }
  } else {
    if (std::find(kWgmmaTypes.begin(), kWgmmaTypes.end(), t) == kWgmmaTypes.end()) {
      v.Add(wr::kDType, "dtype", static_cast<uint64_t>(t),
            "wgmma does not take " + std::string(Name(t)));
    } else if (!MajorAllowed(c.arch, major, t)) {
      v.Add(wr::kMnMajorDType, "major", 1, std::string(Name(t)) + " cannot be MN-major on wgmma");
    }
  }
  if (!m) return v;  // no layout to reason about
  if (IsTcgen05(c.arch)) {
    if (m->swizzle == Swizzle::k128B32BAtom) {
      if (major == Major::kK) {
        v.Add(tr::kBase32BMajor, "swizzle", 1, "128B/32B-atom swizzle with a K-major operand");
      } else if (t != DType::kTF32 && ValueBits(t) >= 8) {
        v.Add(tr::kBase32BDType, "swizzle", 1,
              "128B/32B-atom swizzle with " + std::string(Name(t)) + " (tf32 only)");
      }
    } else if (major == Major::kMN && t == DType::kTF32) {
      v.Add(tr::kTf32MnSwizzle, "swizzle", tcgen05::CodeOf(m->swizzle),
            "MN-major tf32 with " + std::string(Name(m->swizzle)) + " swizzle");
    }
    if (m->lbo_absolute) {
      if (c.arch != Arch::kSm103a) {
        v.Add(tr::kLboModeTarget, "lbo_mode", 1,
              "absolute LBO mode on " + std::string(Name(c.arch)));
      }
      if (m->swizzle != Swizzle::k128B) {
        v.Add(tr::kLboModeSwizzle, "swizzle", tcgen05::CodeOf(m->swizzle),
              "absolute LBO mode with " + std::string(Name(m->swizzle)) + " swizzle");
      }
      if (major != Major::kK)
        v.Add(tr::kLboModeMajor, "lbo_mode", 1, "absolute LBO mode, MN-major");
      if (m->base_offset != 0) {
        v.Add(tr::kLboModeBaseOffset, "base_offset", static_cast<uint64_t>(m->base_offset),
              "absolute LBO mode with base offset " + std::to_string(m->base_offset));
      }
    }
  }
  // Base offset.
  if (m->swizzle == Swizzle::kNone) {
    if (m->base_offset != 0) {
      v.Add(smem_rule::kBaseOffsetNoSwizzle, "base_offset", static_cast<uint64_t>(m->base_offset),
            "base offset " + std::to_string(m->base_offset) + " without swizzle");
    }
  } else if (c.pattern_start) {
    const int want = BaseOffsetFor(m->swizzle, *c.pattern_start);
    if (m->base_offset != want) {
      v.Add(smem_rule::kBaseOffsetValue, "base_offset", static_cast<uint64_t>(m->base_offset),
            "base offset " + std::to_string(m->base_offset) + ", pattern starts at " +
                Hex(*c.pattern_start, 5) + " so it must be " + std::to_string(want));
    }
  }
  // Extent: the last byte any element occupies stays inside the 18-bit window.
  if (CheckView(c.view).ok()) {
    const uint64_t last = LastByte(*m, c.view);
    if (last >= kSmemWindowBytes) {
      v.Add(smem_rule::kExtent, "start_address", m->start,
            "the operand reaches byte " + Hex(last, 5) + ", past 256 KiB");
    }
  }
  return v;
}

std::vector<std::string_view> ReadingsOfDecoded(const SmemCase& c,
                                                const std::optional<SmemMatrix>& m) {
  std::vector<std::string_view> ids = {"S0"};
  if (!m) return ids;
  if (m->swizzle != Swizzle::kNone && m->base_offset != 0) ids.push_back("S1");
  if (m->swizzle == Swizzle::kNone) ids.push_back("S6");
  if (c.view.major == Major::kK && m->swizzle != Swizzle::kNone) ids.push_back("S2");
  if (m->swizzle == Swizzle::k128B32BAtom) ids.push_back(c.view.major == Major::kK ? "S3" : "S7");
  if (m->lbo_absolute) ids.push_back("S4");
  if (ValueBits(c.view.dtype) < 8) ids.push_back("S5");
  return ids;
}

Result<AddressMap> MapDecoded(const SmemCase& c, const std::optional<SmemMatrix>& m) {
  if (!m) return Result<AddressMap>::Fail("invalid swizzle code: the descriptor has no layout");
  return MapAddresses(*m, c.view);
}

}  // namespace

Verdict Validate(const SmemCase& c) { return ValidateDecoded(c, DecodeMatrix(c.arch, c.desc)); }

std::vector<std::string_view> ReadingsOf(const SmemCase& c) {
  return ReadingsOfDecoded(c, DecodeMatrix(c.arch, c.desc));
}

std::string_view BackingTarget(Arch a) {
  return a == Arch::kSm90a ? "sm_90" : a == Arch::kSm100a ? "sm_100" : "sm_103";
}

Result<AddressMap> Map(const SmemCase& c) { return MapDecoded(c, DecodeMatrix(c.arch, c.desc)); }

Explanation Explain(const SmemCase& c) {
  const std::optional<SmemMatrix> m = DecodeMatrix(c.arch, c.desc);
  return Explanation{m, ValidateDecoded(c, m), MapDecoded(c, m), ReadingsOfDecoded(c, m)};
}

bool operator==(const SmemCase&, const SmemCase&) = default;

}  // namespace tcfuzz::oracle::smem
