// Element values for MMA operands, shared by the warp-level and warpgroup generators.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "generators/core/source.h"
#include "oracle/numerics/formats.h"

namespace tcfuzz::gen {

// How an MMA case's values are drawn: random finite patterns; small integers whose products sum
// exactly; edge values (NaN, Inf, -0, subnormals) among random ones; layout probes (values that
// name the element the hardware read); tiny values (the bottom of the range: subnormal and
// underflowing products beside zero products and moderate ones, C of either zero or tiny, so
// sums round to zero of either sign: the corners random values never reach).
enum class ValueMode { kRandom, kSmallInt, kEdge, kProbe, kTiny };
std::string_view Name(ValueMode m);  // "random" | "small_int" | "edge" | "probe" | "tiny"
// Small-integer and probe values: every sum exact, so D is the same in every arithmetic row.
bool IsExact(ValueMode m);
std::optional<ValueMode> ParseValueMode(std::string_view name);
bool IsExact(std::string_view mode_name);

// -3..3 in the type's bits (0..3 unsigned): products and sums of a tile stay exact.
uint64_t SmallInt(Source& s, oracle::num::Format f);
// A random finite pattern of the format (any pattern for integers).
uint64_t RandomValue(Source& s, oracle::num::Format f);
// 0, -0, +-Inf, NaN, the smallest subnormal, +-1 (integers: 0, -1 or max, max, min).
uint64_t EdgeValue(Source& s, oracle::num::Format f);
// +-0, a subnormal or one of the two lowest binades of normals, random sign (integers: -1..1).
uint64_t TinyValue(Source& s, oracle::num::Format f);
// One value of mode m (probe values are the caller's: random here; tiny mode: a tiny value, or
// one in [1/4, 4) an eighth of the time, so products are tiny beside moderate).
uint64_t Value(Source& s, oracle::num::Format f, ValueMode m);

// One C value: s32 12-bit (edge mode: near the s32 limits half the time); small non-negative
// integers for the exact modes; else Value() in the accumulator's format.
uint32_t AccumulatorValue(Source& s, oracle::num::Format cd, ValueMode m);

// A probe case's B, K x 8 row-major, all zero on entry: column n one-hot (1 in `b_type`) at row
// (hot + 5n) mod K, hot drawn once, so D's columns read different A elements.
void ProbeB(Source& s, oracle::num::Format b_type, int k, std::vector<uint64_t>& b);

// A warp-level tile's values after a probe case's A is set (by the caller): B (ProbeB for a
// probe, else A and B of `mode`), then C, in one draw order for the dense and sparse generators.
template <class Tile>
void DrawOperandValues(Source& s, Tile& t, ValueMode mode, int k) {
  if (mode == ValueMode::kProbe) {
    ProbeB(s, t.b_type, k, t.b);
  } else {
    for (uint64_t& v : t.a) v = Value(s, t.a_type, mode);
    for (uint64_t& v : t.b) v = Value(s, t.b_type, mode);
  }
  for (uint32_t& c : t.c) c = AccumulatorValue(s, t.cd, mode);
}

// How many consecutive integers from 1 the type holds exactly (7 for s4 .. 2048 for f16): the
// range of probe values.
int ProbeRange(oracle::num::Format f);

}  // namespace tcfuzz::gen
