#include "suites/kinds/dense_device_cases.h"

#include <cmath>
#include <cstdio>

#include "generators/core/random_source.h"
#include "suites/engine/device_campaign.h"
#include "suites/engine/worker_protocol.h"

namespace tcfuzz::suites {

gen::GeneratedDense DrawDenseMmaCase(uint64_t seed, uint64_t index) {
  gen::RandomSource s(gen::CaseSeed(seed, kDenseMmaSuite, index));
  return gen::DrawDense(s);
}

std::string DenseFamily(const oracle::mma::DenseTile& t) {
  std::string family = t.form->Name();
  if (t.b_type != t.a_type) family += "x" + std::string(oracle::num::Name(t.b_type));
  return family + "." + std::string(oracle::num::Name(t.cd));
}

std::optional<oracle::num::DotParams> DenseParams(const oracle::mma::DenseTile& t,
                                                  oracle::num::Gpu gpu) {
  return oracle::num::ParamsFor(gpu, oracle::num::Instr::kMma, t.a_type, t.cd);
}

std::string DenseProbeExplanation(const gen::GeneratedDense& g,
                                  const std::vector<uint32_t>& observed) {
  const oracle::mma::DenseTile& t = g.tile;
  if (g.mode != gen::ValueMode::kProbe || observed.size() != 128) return {};
  const std::vector<uint32_t> want =
      oracle::mma::DenseReference(t, oracle::num::ExactParams(t.cd));  // probe sums are exact
  const auto first = FirstDifference(want, observed);
  if (!first) return {};
  const int row = static_cast<int>(*first / 8), col = static_cast<int>(*first % 8), k = t.form->k;
  int hot = -1;
  for (int kk = 0; kk < k; ++kk) {
    if (t.b[static_cast<std::size_t>(kk * 8 + col)] != 0) hot = kk;
  }
  const double c = oracle::num::ToDouble(t.cd, t.c[*first]);
  const double v = oracle::num::ToDouble(t.cd, observed[*first]) - c;
  std::string holders;
  int found = 0;
  for (int r = 0; r < 16 && std::isfinite(v) && v != 0; ++r) {
    for (int kk = 0; kk < k; ++kk) {
      if (oracle::num::ToDouble(t.a_type, t.a[static_cast<std::size_t>(r * k + kk)]) != v) continue;
      if (++found <= 3)
        holders += (holders.empty() ? "" : ", ") + std::string("A(") + std::to_string(r) + "," +
                   std::to_string(kk) + ")";
    }
  }
  char value[32];
  std::snprintf(value, sizeof value, "%g", v);
  const std::string s = "probe: D[" + std::to_string(row) + "][" + std::to_string(col) +
                        "] meets B's one hot K = " + std::to_string(hot) + "; the oracle reads A(" +
                        std::to_string(row) + "," + std::to_string(hot) +
                        "); the device's D - C = " + value;
  if (found == 0) return s + " is no A element's value";
  return s + " is the value of " + holders +
         (found > 3 ? " (+" + std::to_string(found - 3) + " more)" : "");
}

oracle::Result<Replayed> ReplayDenseCase(const oracle::TextDoc& doc) {
  using R = oracle::Result<Replayed>;
  auto f = oracle::mma::DenseCaseFromDoc(doc);
  if (!f.ok()) return R::Fail(f.error());
  if (!f.value().observed) return R::Ok(UnobservedDeviceCase(doc, "dense"));
  const auto gpu = RecordedGpuRow(doc);
  if (!gpu)
    return R::Fail("origin.gpu: missing or not a GPU name (the numerics row the device follows)");
  const bool exact = doc.Has("origin.mode") && gen::IsExact(doc.String("origin.mode").value());
  const auto params = DenseParams(f.value().tile, *gpu);
  if (!params && !exact && oracle::num::IsFloat(f.value().tile.a_type)) {
    return R::Ok({{},
                  "not compared: the oracle has no arithmetic model for " +
                      f.value().tile.form->Name() + " on " + std::string(oracle::num::Name(*gpu))});
  }
  const auto want = oracle::mma::DenseReference(
      f.value().tile, params.value_or(oracle::num::ExactParams(f.value().tile.cd)));
  Replayed out;
  if (const std::string what = MismatchDetail(want, *f.value().observed); !what.empty()) {
    out.failures.push_back({"dense.device_mismatch", what});
  }
  return R::Ok(out);
}

}  // namespace tcfuzz::suites
