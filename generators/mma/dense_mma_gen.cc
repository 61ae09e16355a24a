#include "generators/mma/dense_mma_gen.h"

#include <array>
#include <vector>

#include "oracle/core/span.h"

namespace tcfuzz::gen {

using oracle::num::Format;

GeneratedDense DrawDense(Source& s) {
  GeneratedDense g;
  oracle::mma::DenseTile& t = g.tile;
  const auto forms = oracle::mma::AllDenseForms();
  const oracle::mma::DenseForm& f = forms[s.Below(forms.size())];
  t.form = &f;
  t.a_type = f.type;
  t.b_type = f.type;
  const bool integer = !oracle::num::IsFloat(f.type);
  // The pairs the instruction mixes: signedness for integers, the two fp8 formats.
  const auto other = [&](Format a, Format b) { return f.type == a ? b : a; };
  if (f.type == Format::kS8 || f.type == Format::kU8)
    t.b_type = s.Coin() ? f.type : other(Format::kS8, Format::kU8);
  if (f.type == Format::kS4 || f.type == Format::kU4)
    t.b_type = s.Coin() ? f.type : other(Format::kS4, Format::kU4);
  if (oracle::num::IsFp8(f.type))
    t.b_type = s.Coin() ? f.type : other(Format::kE4M3, Format::kE5M2);
  // f16 D: f16 inputs, and fp8 (PTX 8.7, sm_89 on).
  const bool f16_d = f.type == Format::kF16 || f.type == Format::kE4M3 || f.type == Format::kE5M2;
  t.cd = integer ? Format::kS32 : f16_d && s.Coin() ? Format::kF16 : Format::kF32;
  t.satfinite = integer && s.Coin();
  static constexpr std::array<ValueMode, 5> kModes = {ValueMode::kRandom, ValueMode::kSmallInt,
                                                      ValueMode::kEdge, ValueMode::kProbe,
                                                      ValueMode::kTiny};
  g.mode = s.Pick(oracle::Span<const ValueMode>(kModes));
  t.a.resize(static_cast<std::size_t>(16 * f.k));
  t.b.resize(static_cast<std::size_t>(f.k * 8));
  t.c.resize(128);
  if (g.mode == ValueMode::kProbe) {
    const int range = ProbeRange(t.a_type);
    for (int r = 0; r < 16; ++r) {
      for (int k = 0; k < f.k; ++k) {
        const int v = 1 + (r * f.k + k) % range;
        t.a[static_cast<std::size_t>(r * f.k + k)] =
            integer ? static_cast<uint64_t>(v) : oracle::num::FromDouble(t.a_type, v);
      }
    }
  }
  DrawOperandValues(s, t, g.mode, f.k);
  return g;
}

}  // namespace tcfuzz::gen
