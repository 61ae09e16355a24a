#include "generators/ascend/tcube_tiling_gen.h"

#include <array>
#include <cstring>
#include <tuple>

#include "oracle/ascend/problem_contract.h"
#include "oracle/ascend/reference_tiler.h"

namespace tcfuzz::gen {

using namespace oracle::ascend;

namespace {

// Edge sizes mostly (the first is the simplest), else any size up to 4096 or, rarely, past the
// ND inner-dimension limit (which the tiler refuses when the dimension is an ND inner one).
int64_t DrawDim(Source& s) {
  static constexpr std::array<int64_t, 20> kEdges = {
      16, 1, 15, 17, 32, 31, 33, 64, 8, 100, 128, 129, 200, 255, 256, 257, 500, 768, 1000, 4095};
  static constexpr std::array<int64_t, 4> kLarge = {65535, 65536, 70008, 131072};
  switch (s.Below(16)) {
    case 13:
      return kLarge[s.Below(kLarge.size())];
    case 14:
      return static_cast<int64_t>(s.InRange(1, 4096));
    case 15:
      return static_cast<int64_t>(s.InRange(1, uint64_t{1} << 20));
    default:
      return kEdges[s.Below(kEdges.size())];
  }
}

}  // namespace

Problem DrawTilingProblem(Source& s, const ChipProfile& chip) {
  Problem p;
  p.m = DrawDim(s), p.n = DrawDim(s), p.k = DrawDim(s);
  // The input/output type sets the Matmul API accepts (reference §1.2).
  struct Types {
    DType a, b, c, bias;
  };
  static constexpr std::array<Types, 5> kTypes = {
      {{DType::kFloat16, DType::kFloat16, DType::kFloat32, DType::kFloat32},
       {DType::kBFloat16, DType::kBFloat16, DType::kFloat32, DType::kFloat32},
       {DType::kInt8, DType::kInt8, DType::kInt32, DType::kInt32},
       {DType::kFloat32, DType::kFloat32, DType::kFloat32, DType::kFloat32},
       {DType::kFloat16, DType::kFloat16, DType::kFloat16, DType::kFloat16}}};
  const Types& t = kTypes[s.Below(kTypes.size())];
  p.a = t.a, p.b = t.b, p.c = t.c, p.bias = t.bias;
  p.is_bias = s.Coin();
  p.trans_a = s.Coin();
  p.trans_b = s.Coin();
  p.a_format = s.Below(4) == 3 ? Format::kNZ : Format::kND;
  p.b_format = s.Below(4) == 3 ? Format::kNZ : Format::kND;
  p.schedule = s.Coin() ? Schedule::kMdl : Schedule::kNorm;
  // Mostly inside the contract: each dimension moved to its granule and under its limit (the
  // edge shapes stay edges of what a tiler must serve).
  const bool out_of_contract = s.Below(8) == 0;
  const DimLimits lim = ContractLimits(p, chip);
  for (auto [dim, granule, max] :
       {std::tuple{&p.m, lim.m_granule, lim.m_max}, std::tuple{&p.n, lim.n_granule, lim.n_max},
        std::tuple{&p.k, lim.k_granule, lim.k_max}}) {
    *dim = (*dim + granule - 1) / granule * granule;
    if (max > 0 && *dim > max) *dim = max / granule * granule;
  }
  if (!out_of_contract) return p;
  // One documented limit broken, of those this chip has (NZ alignment everywhere, the ND inner
  // limit except on arch 3510, 310P's output rows on arch 2002).
  int limits[3] = {0, 0, 0}, count = 1;
  if (chip.npu_arch != 3510) limits[count++] = 1;
  if (chip.npu_arch == 2002) limits[count++] = 2;
  switch (limits[s.Below(static_cast<uint64_t>(count))]) {
    case 0:  // an NZ operand off its fractal grid
      if (s.Coin()) {
        p.a_format = Format::kNZ;
        p.m = p.m / 16 * 16 + 1 + static_cast<int64_t>(s.Below(15));
      } else {
        p.b_format = Format::kNZ;
        p.n = p.n / 16 * 16 + 1 + static_cast<int64_t>(s.Below(15));
      }
      break;
    case 1:  // an ND inner dimension past 65535
      p.a_format = Format::kND, p.trans_a = false;
      p.k = 65536 + static_cast<int64_t>(s.Below(70000));
      break;
    default:  // 310P's output rows off 32 bytes
      p.n = p.n / 64 * 64 + 1 + 2 * static_cast<int64_t>(s.Below(3));
      break;
  }
  return p;
}

GeneratedTiling DrawTiling(Source& s, Intent intent) {
  GeneratedTiling g;
  g.intent = intent;
  const auto chips = ChipProfiles();
  g.chip = &chips[s.Below(chips.size())];
  g.problem = DrawTilingProblem(s, *g.chip);
  if (intent == Intent::kRawBits) {
    std::array<uint8_t, 4 * kTilingFields> image{};
    for (auto& b : image) b = static_cast<uint8_t>(s.Below(256));
    g.tiling = FromImage(image).value();
    return g;
  }
  auto made = MakeTiling(g.problem, *g.chip);
  if (!made.ok()) {
    g.tiler_refused = true;
    return g;
  }
  g.tiling = made.value();
  if (intent == Intent::kLegal) return g;
  // One field of a legal tiling, set to a small, an edge or a raw value.
  for (int attempt = 0; attempt < 8; ++attempt) {
    TCubeTiling t = made.value();
    const auto f = static_cast<Field>(s.Below(kTilingFields));
    switch (s.Below(4)) {
      case 0:
        t[f] = static_cast<int32_t>(s.InRange(0, 4));
        break;
      // Through uint32, so a field at the int32 limits wraps instead of overflowing.
      case 1:
        t[f] = static_cast<int32_t>(static_cast<uint32_t>(t[f]) + (s.Coin() ? 16u : 0xFFFFFFF0u));
        break;
      case 2:
        t[f] = static_cast<int32_t>(static_cast<uint32_t>(t[f]) * 2u);
        break;
      default:
        t[f] = static_cast<int32_t>(static_cast<uint32_t>(s.Bits(32)));
        break;
    }
    const oracle::Verdict v = Validate(g.problem, t, *g.chip).hard;
    if (v.violations().size() == 1) {
      g.tiling = t;
      g.broken = v.violations()[0].rule;
      return g;
    }
  }
  return g;
}

}  // namespace tcfuzz::gen
