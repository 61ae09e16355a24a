#include "generators/core/mma_values.h"

#include <array>
#include <cmath>
#include <cstdlib>

#include "oracle/core/span.h"

namespace tcfuzz::gen {

using oracle::num::Format;

uint64_t SmallInt(Source& s, oracle::num::Format f) {
  const int v = static_cast<int>(s.Below(7)) - 3;
  if (!oracle::num::IsFloat(f)) {
    if (!oracle::num::IsSigned(f)) return static_cast<uint64_t>(std::abs(v));
    return static_cast<uint64_t>(static_cast<int64_t>(v)) &
           ((uint64_t{1} << oracle::num::StorageBits(f)) - 1);
  }
  // The seven values per format, encoded once (FromDouble is most of a small-int draw's cost).
  static const auto kTable = [] {
    std::array<std::array<uint64_t, 7>, oracle::num::kFormatCount> t{};
    for (std::size_t k = 0; k < t.size(); ++k) {
      const auto g = static_cast<Format>(k);
      if (!oracle::num::IsFloat(g)) continue;
      for (int x = 0; x < 7; ++x)
        t[k][static_cast<std::size_t>(x)] = oracle::num::FromDouble(g, x - 3);
    }
    return t;
  }();
  return kTable[static_cast<std::size_t>(f)][static_cast<std::size_t>(v + 3)];
}

uint64_t RandomValue(Source& s, Format f) {
  if (!oracle::num::IsFloat(f)) return s.Bits(oracle::num::StorageBits(f));
  // A random finite pattern of the format: draw bits, redraw NaN/Inf.
  for (int i = 0; i < 8; ++i) {
    const uint64_t bits =
        f == Format::kTF32 ? s.Bits(19) << 13 : s.Bits(oracle::num::StorageBits(f));
    if (oracle::num::Decode(f, bits).kind == oracle::num::Decoded::Kind::kFinite) return bits;
  }
  return 0;
}

uint64_t EdgeValue(Source& s, Format f) {
  if (!oracle::num::IsFloat(f)) {
    const uint64_t max = (uint64_t{1} << oracle::num::StorageBits(f)) - 1;
    const std::array<uint64_t, 4> e = {0, max, max >> 1, (max >> 1) + 1};  // 0, -1/max, max, min
    return s.Pick(oracle::Span<const uint64_t>(e));
  }
  const auto spec = oracle::num::SpecOf(f);
  const std::array<double, 6> v = {
      0.0, -0.0, INFINITY, NAN, std::ldexp(1.0, spec.emin() - spec.frac_bits), 1.0};
  return oracle::num::FromDouble(f, s.Coin() ? -v[s.Below(v.size())] : v[s.Below(v.size())]);
}

uint64_t TinyValue(Source& s, Format f) {
  if (!oracle::num::IsFloat(f)) return SmallInt(s, f) % 2;
  const auto spec = oracle::num::SpecOf(f);
  const int frac = f == Format::kTF32 ? 10 : spec.frac_bits;
  if (s.Below(4) == 0) return s.Coin() ? uint64_t{1} << (oracle::num::StorageBits(f) - 1) : 0;
  // value = m * 2^(e - frac): e from the smallest subnormal's binade to emin + 1.
  const int e = spec.emin() - frac + static_cast<int>(s.Below(static_cast<uint64_t>(frac) + 2));
  const uint64_t m = (uint64_t{1} << frac) | s.Bits(frac);
  return oracle::num::EncodeExact(f, s.Coin(), m, e - frac, oracle::num::Round::kTowardZero);
}

uint64_t Value(Source& s, Format f, ValueMode m) {
  switch (m) {
    case ValueMode::kSmallInt:
      return SmallInt(s, f);
    case ValueMode::kTiny:
      if (s.Below(8) == 0 && oracle::num::IsFloat(f)) {  // draws in order: g++ and clang agree
        const double sig = 1.0 + static_cast<double>(s.Bits(10)) / 1024.0;
        const int e = static_cast<int>(s.Below(4)) - 2;
        const double sign = s.Coin() ? -1.0 : 1.0;
        return oracle::num::FromDouble(f, std::ldexp(sig, e) * sign);
      }
      return TinyValue(s, f);
    case ValueMode::kEdge:
      return s.Below(4) == 0 ? EdgeValue(s, f) : RandomValue(s, f);
    default:
      return RandomValue(s, f);
  }
}

std::string_view Name(ValueMode m) {
  switch (m) {
    case ValueMode::kRandom:
      return "random";
    case ValueMode::kSmallInt:
      return "small_int";
    case ValueMode::kEdge:
      return "edge";
    case ValueMode::kProbe:
      return "probe";
    case ValueMode::kTiny:
      return "tiny";
  }
  return "?";
}

std::optional<ValueMode> ParseValueMode(std::string_view name) {
  for (ValueMode m : {ValueMode::kRandom, ValueMode::kSmallInt, ValueMode::kEdge, ValueMode::kProbe,
                      ValueMode::kTiny}) {
    if (Name(m) == name) return m;
  }
  return std::nullopt;
}

bool IsExact(ValueMode m) { return m == ValueMode::kSmallInt || m == ValueMode::kProbe; }
bool IsExact(std::string_view mode_name) {
  return mode_name == Name(ValueMode::kSmallInt) || mode_name == Name(ValueMode::kProbe);
}

uint32_t AccumulatorValue(Source& s, Format cd, ValueMode m) {
  if (!oracle::num::IsFloat(cd)) {
    return m == ValueMode::kEdge && s.Coin() ? (s.Coin() ? 0x7FFFFF00u : 0x80000100u)
                                             : static_cast<uint32_t>(s.Bits(12));
  }
  if (m == ValueMode::kSmallInt || m == ValueMode::kProbe) {
    return static_cast<uint32_t>(oracle::num::FromDouble(cd, static_cast<double>(s.Below(5))));
  }
  if (m == ValueMode::kTiny) return static_cast<uint32_t>(TinyValue(s, cd));
  return static_cast<uint32_t>(Value(s, cd, m));
}

int ProbeRange(Format f) {
  switch (f) {
    case Format::kF16:
    case Format::kTF32:
      return 2048;  // 11 significant bits
    case Format::kBF16:
      return 256;
    case Format::kE4M3:
      return 16;
    case Format::kE5M2:
      return 8;
    case Format::kS8:
      return 127;
    case Format::kU8:
      return 255;
    case Format::kS4:
      return 7;
    case Format::kU4:
      return 15;
    default:
      return 1;
  }
}

void ProbeB(Source& s, Format b_type, int k, std::vector<uint64_t>& b) {
  const int hot = static_cast<int>(s.Below(static_cast<uint64_t>(k)));
  const uint64_t one = oracle::num::IsFloat(b_type) ? oracle::num::FromDouble(b_type, 1.0) : 1;
  for (int n = 0; n < 8; ++n) b[static_cast<std::size_t>(((hot + 5 * n) % k) * 8 + n)] = one;
}

}  // namespace tcfuzz::gen
