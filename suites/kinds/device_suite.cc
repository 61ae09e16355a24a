#include "suites/kinds/device_suite.h"

#include <cmath>

#include "generators/core/random_source.h"
#include "oracle/numerics/formats.h"
#include "oracle/mma/dense_mma.h"
#include "oracle/sparse/sparse_case_text.h"
#include "oracle/sparse/sparse_metadata.h"
#include "oracle/wgmma/wgmma_mma.h"
#include "suites/checks/sparse_mma_checks.h"
#include "suites/kinds/dense_device_cases.h"
#include "suites/engine/device_campaign.h"
#include "suites/kinds/wgmma_device_cases.h"
#include "suites/engine/worker_protocol.h"

namespace tcfuzz::suites {
namespace {

// For a sparse probe case (A holds 1 + its column mod 8, B is one-hot per column), which A
// element the device read for the first differing element of D, next to the one the oracle reads.
std::string SparseProbeExplanation(const gen::GeneratedSparse& g, const std::vector<uint32_t>& observed) {
  if (g.mode != gen::ValueMode::kProbe || observed.size() != 128) return {};
  const std::vector<uint32_t> want =
      oracle::sparse::Reference(g.tile, oracle::num::ExactParams(g.tile.cd));  // probe sums are exact in any row
  const auto first = FirstDifference(want, observed);
  if (!first) return {};
  const std::size_t e = *first;
  const int row = static_cast<int>(e / 8), col = static_cast<int>(e % 8);
  int hot = -1;
  for (int k = 0; k < g.op.form->k; ++k) {
    if (g.tile.b[static_cast<std::size_t>(k * 8 + col)] != 0) hot = k;
  }
  const auto value = [&](uint32_t bits) { return oracle::num::ToDouble(g.tile.cd, bits); };
  const double c = value(g.tile.c[e]);
  const auto read = [&](double v) {
    const double a = v - c;
    if (a == 0) return std::string("no A element (0)");
    if (!(a >= 1 && a <= 8) || a != std::floor(a)) return "the value " + std::to_string(a) + " (not a probe value)";
    return "an A element of column = " + std::to_string(static_cast<int>(a) - 1) + " (mod " +
           (g.tile.cd == oracle::num::Format::kS32 ? "7" : "8") + ")";
  };
  return "probe: D[" + std::to_string(row) + "][" + std::to_string(col) + "] meets B's one hot row " +
         std::to_string(hot) + "; the oracle reads " + read(value(want[e])) + ", the device read " + read(value(observed[e]));
}

// What an expected D rests on besides its maps: the numerics row when the values are not exact
// sums (an exact sum is the same in every row), and the sign-of-zero reading (N4 for sm_90 mma,
// N6 elsewhere) when the device differs from the oracle only in the sign of a zero.
void AddArithmetic(std::vector<std::string_view>& ids, const std::optional<oracle::num::DotParams>& params, bool exact,
                   std::span<const uint32_t> want, std::span<const uint32_t> got, bool sm90_mma) {
  if (!params) return;  // integers: exact
  if (!exact) ids.push_back(params->row);
  const auto first = FirstDifference(want, got);
  if (!first) return;
  const auto zero = [](uint32_t bits) { return (bits & 0x7FFFFFFFu) == 0 || bits == 0x8000u; };
  if (zero(want[*first]) && zero(got[*first])) ids.push_back(sm90_mma ? "N4" : "N6");
}

gen::GeneratedSparse DrawExact(uint64_t seed, uint64_t index) { return DrawSparseExactCase(kSparseMmaExactSuite, seed, index); }
gen::GeneratedSparse DrawExactF16K32(uint64_t seed, uint64_t index) {
  return DrawSparseExactCase(kSparseMmaExactF16K32Suite, seed, index);
}

template <gen::GeneratedSparse (*Draw)(uint64_t, uint64_t)>
DescribedCase DescribeSparse(uint64_t seed, uint64_t index, const std::vector<uint32_t>& observed,
                             oracle::num::Gpu gpu) {
  const gen::GeneratedSparse g = Draw(seed, index);
  oracle::TextWriter w(oracle::sparse::kSparseKind);
  oracle::sparse::AppendSparseCase(w, g.op, g.tile, observed.size() == 128 ? &observed : nullptr);
  DescribedCase d{g.op.form->Name(), SparseProbeExplanation(g, observed), std::string(gen::Name(g.mode)), w.str(), {},
                  oracle::sparse::ReadingsOf(*g.op.form, g.op.variant)};
  const auto params = SparseParams(g.tile, gpu);
  if (params && !gen::IsExact(g.mode)) d.rests_on.push_back("N1");
  if (observed.size() == 128) {
    const std::vector<uint32_t> want = oracle::sparse::Reference(g.tile, params.value_or(oracle::num::DotParams{}));
    AddArithmetic(d.rests_on, params, gen::IsExact(g.mode), want, observed, gpu == oracle::num::Gpu::kSm90);
  }
  return d;
}

DescribedCase DescribeDense(uint64_t seed, uint64_t index, const std::vector<uint32_t>& observed, oracle::num::Gpu gpu) {
  const gen::GeneratedDense g = DrawDenseMmaCase(seed, index);
  oracle::TextWriter w(oracle::mma::kDenseKind);
  oracle::mma::AppendDenseCase(w, g.tile, observed.size() == 128 ? &observed : nullptr);
  std::string family = g.tile.form->Name();
  if (g.tile.b_type != g.tile.a_type) family += "x" + std::string(oracle::num::Name(g.tile.b_type));
  family += "." + std::string(oracle::num::Name(g.tile.cd));
  DescribedCase d{family, DenseProbeExplanation(g, observed), std::string(gen::Name(g.mode)), w.str(), {},
                  oracle::mma::ReadingsOf(*g.tile.form)};
  if (observed.size() == 128) {
    const auto params = DenseParams(g.tile, gpu);
    const std::vector<uint32_t> want = oracle::mma::DenseReference(g.tile, params.value_or(oracle::num::DotParams{}));
    AddArithmetic(d.rests_on, params, gen::IsExact(g.mode), want, observed, gpu == oracle::num::Gpu::kSm90);
  }
  return d;
}

template <gen::GeneratedWgmma (*Draw)(uint64_t, uint64_t)>
DescribedCase DescribeTile(uint64_t seed, uint64_t index, const std::vector<uint32_t>& observed, oracle::num::Gpu) {
  const gen::GeneratedWgmma g = Draw(seed, index);
  const bool full = observed.size() == static_cast<std::size_t>(g.tile.a.view.rows) * static_cast<std::size_t>(g.tile.n);
  oracle::TextWriter w(oracle::wgmma::kWgmmaTileKind);
  oracle::wgmma::AppendWgmmaTile(w, g.tile, g.fill, full ? &observed : nullptr);
  std::string mode(gen::Name(g.values));
  if (g.broken) mode += ", breaks " + std::string(g.broken->id);
  DescribedCase d{TileFamily(g.tile), g.broken ? std::string() : TileProbeExplanation(g, observed), mode, w.str(),
                  BrokenRules(g.tile), oracle::wgmma::ReadingsOf(g.tile)};
  if (const auto want = oracle::wgmma::WgmmaReference(g.tile); full && want.ok()) {
    AddArithmetic(d.rests_on, oracle::wgmma::TileParams(g.tile), g.values != gen::TileValues::kRandom, want.value(),
                  observed, false);
  }
  return d;
}

// Batches: a sparse case is one warp and about 2 us of oracle; a descriptor tile is a CTA with a
// 64 KiB image and up to 64 x 256 dot products, so a worker takes fewer and gets longer each.
constexpr DeviceSuite kSuites[] = {
    {kSparseMmaDeviceSuite, oracle::sparse::kSparseKind,
     "every mma.sp / mma.sp::ordered_metadata form the device runs, bit for bit against the oracle", uint64_t{1} << 16,
     std::chrono::microseconds(50), DescribeSparse<DrawSparseMmaCase>, true, nullptr, {}},
    {kDenseMmaSuite, oracle::mma::kDenseKind,
     "dense mma.sync for the shapes sparse MMA reuses, every type pair and accumulator, bit for bit against the oracle",
     uint64_t{1} << 16, std::chrono::microseconds(50), DescribeDense, true, nullptr, {}},
    {kSmemHwSuite, oracle::wgmma::kWgmmaTileKind,
     "wgmma (sm_90a) with generated shared-memory descriptors: placement, swizzle, LBO/SBO, base offset; one in eight "
     "breaks a rule (undefined by spec, recorded)",
     8192, std::chrono::microseconds(2000), DescribeTile<DrawSmemHwCase>, true,
     [](int major, int minor) { return major == 9 && minor == 0; }, "sm_90a (wgmma)"},
    {kTcgen05Suite, oracle::wgmma::kWgmmaTileKind,
     "tcgen05.mma / .sp / .ws (sm_100a, CC 10.x) with generated descriptors, sparse metadata and zero-column masks", 8192,
     std::chrono::microseconds(4000), DescribeTile<DrawTcgen05Case>, true, [](int major, int) { return major == 10; },
     "compute capability 10.x (tcgen05)"},
    // Drawn and checked on the device: a worker takes up to 1,024 launches (64M cases by default,
    // about 3 s on an H100, so start-up stays a small share).
    {kSparseMmaExactSuite, oracle::sparse::kSparseKind,
     "small-integer mma.sp cases (f16/bf16, k16/k32, both spellings, every selector) drawn and checked on the device, "
     "one in 4096 and every failure judged by the oracle on the host",
     uint64_t{1} << 26, std::chrono::microseconds(1), DescribeSparse<DrawExact>, true, nullptr, {}},
    {kSparseMmaExactF16K32Suite, oracle::sparse::kSparseKind,
     "sparse-mma-exact restricted to m16n8k32.f16 (both spellings, selectors 0 and 1): the form performance is "
     "measured on",
     uint64_t{1} << 26, std::chrono::microseconds(1), DescribeSparse<DrawExactF16K32>, false, nullptr, {}},
};

}  // namespace

std::span<const DeviceSuite> DeviceSuites() { return kSuites; }

const DeviceSuite* FindDeviceSuite(std::string_view name) {
  for (const DeviceSuite& s : kSuites) {
    if (s.name == name) return &s;
  }
  return nullptr;
}


}  // namespace tcfuzz::suites
