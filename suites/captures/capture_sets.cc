#include "suites/captures/capture_sets.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <sstream>

#include "oracle/core/backing.h"
#include "oracle/core/text_format.h"
#include "suites/engine/atomic_file.h"

namespace tcfuzz::suites {
namespace {

using oracle::num::Format;
using oracle::num::Gpu;
using oracle::num::Instr;

struct Mapping {
  Gpu gpu;
  Format format;
  int k;  // the instruction's K: the probe fills the first values, the rest are zero
};

std::optional<Mapping> MapSet(const CaptureSet& s) {
  std::optional<Gpu> gpu;
  if (s.gpu == "A100") gpu = Gpu::kSm80;
  if (s.gpu == "Ada" || s.gpu == "L40S") gpu = Gpu::kSm89;
  if (s.gpu == "B200") gpu = Gpu::kSm100;
  if (s.gpu == "V100") gpu = Gpu::kSm70;
  std::optional<Format> f;
  int k = 16;  // wmma m16n16k16 (fp16, bf16)
  if (s.format == "fp16") f = Format::kF16;
  if (s.format == "bf16") f = Format::kBF16;
  if (s.format == "tf32") f = Format::kTF32, k = 8;   // wmma m16n16k8
  if (s.format == "E4M3") f = Format::kE4M3, k = 32;  // mma.sync m16n8k32
  if (s.format == "E5M2") f = Format::kE5M2, k = 32;
  if (!gpu || !f) return std::nullopt;
  return Mapping{*gpu, *f, k};
}

oracle::Result<std::vector<std::string>> Lines(const std::string& path) {
  const auto text = ReadFile(path);
  if (!text.ok()) return oracle::Result<std::vector<std::string>>::Fail(text.error());
  std::vector<std::string> lines;
  std::istringstream in(text.value());
  std::string line;
  while (std::getline(in, line)) lines.push_back(line);
  return oracle::Result<std::vector<std::string>>::Ok(std::move(lines));
}

std::optional<uint32_t> Binary32(const std::string& s) {
  if (s.size() != 32) return std::nullopt;
  uint32_t v = 0;
  for (char c : s) {
    if (c != '0' && c != '1') return std::nullopt;
    v = (v << 1) | static_cast<uint32_t>(c - '0');
  }
  return v;
}

}  // namespace

std::string DefaultCapturesDir() {
  if (const char* env = std::getenv("TCFUZZ_CAPTURES_DIR")) return env;
  return TCFUZZ_CAPTURES_DIR;
}

std::vector<CaptureSet> FindCaptureSets(const std::string& root) {
  namespace fs = std::filesystem;
  std::vector<CaptureSet> sets;
  std::error_code ec;
  if (!fs::is_directory(root, ec)) return sets;
  for (const auto& gpu : fs::directory_iterator(root, ec)) {
    if (!gpu.is_directory()) continue;
    for (const auto& fmt : fs::directory_iterator(gpu.path(), ec)) {
      if (!fmt.is_directory()) continue;
      for (const char* out : {"fp32", "fp16"}) {
        const std::string g = gpu.path().filename(), f = fmt.path().filename();
        if (fs::exists(fmt.path() / ("d_" + g + "_" + out + ".txt"))) {
          sets.push_back(CaptureSet{g, f, out, fmt.path().string()});
        }
      }
    }
  }
  std::sort(sets.begin(), sets.end(), [](const CaptureSet& a, const CaptureSet& b) {
    return std::tie(a.gpu, a.format, a.out) < std::tie(b.gpu, b.format, b.out);
  });
  return sets;
}

oracle::Result<CaptureResult> CheckCaptureSet(const CaptureSet& set) {
  using R = oracle::Result<CaptureResult>;
  CaptureResult r;
  r.set = set;
  const auto map = MapSet(set);
  if (!map) return R::Fail(set.dir + ": unknown GPU or format");
  const Format cd = set.out == "fp16" ? Format::kF16 : Format::kF32;
  const auto params = oracle::num::ParamsFor(map->gpu, Instr::kMma, map->format, cd);
  r.target = std::string(oracle::num::Name(map->gpu)) + " mma";
  r.covered = params && oracle::BackingOf(params->row, oracle::num::Name(map->gpu)) ==
                            oracle::Backing::kHardware;
  const std::string stem = set.dir + "/";
  auto a = Lines(stem + "a_" + set.gpu + "_" + set.format + ".txt");
  auto b = Lines(stem + "b_" + set.gpu + "_" + set.format + ".txt");
  auto c = Lines(stem + "c_" + set.gpu + "_fp32.txt");
  auto d = Lines(stem + "d_" + set.gpu + "_" + set.out + ".txt");
  for (auto* l : {&a, &b, &c, &d}) {
    if (!l->ok()) return R::Fail(l->error());
  }
  const std::size_t n = a.value().size();
  if (b.value().size() != n || c.value().size() != n || d.value().size() != n) {
    return R::Fail(set.dir + ": a, b, c and d have different line counts");
  }
  // The parameters the model would use; an uncovered set is still scored with the nearest row.
  const oracle::num::DotParams p =
      params ? *params : oracle::num::DotParams{25, 32, -133, oracle::num::Rounding::kRzF32};
  for (std::size_t i = 0; i < n; ++i) {
    const auto where = [&](const std::string& file) {
      return file + " line " + std::to_string(i + 1);
    };
    std::vector<uint64_t> va, vb;
    for (auto [line, out, name] :
         {std::tuple{&a.value()[i], &va, "a"}, std::tuple{&b.value()[i], &vb, "b"}}) {
      std::istringstream words(*line);
      std::string w;
      while (words >> w) {
        auto bits = oracle::ParseUint("0x" + w, 0xFFFFFFFFu);
        if (!bits.ok() || w.size() != 8)
          return R::Fail(where(std::string(name) + " file") + ": bad value '" + w + "'");
        const double v = oracle::num::ToDouble(Format::kF32, bits.value());
        out->push_back(map->format == Format::kTF32 ? bits.value()
                                                    : oracle::num::FromDouble(map->format, v));
      }
    }
    if (va.size() != vb.size() || va.empty() || static_cast<int>(va.size()) > map->k) {
      return R::Fail(where("a/b files") + ": " + std::to_string(va.size()) + " and " +
                     std::to_string(vb.size()) + " values");
    }
    va.resize(static_cast<std::size_t>(map->k), 0);  // the probe's unused K positions are zero
    vb.resize(static_cast<std::size_t>(map->k), 0);
    const auto cbits = Binary32(c.value()[i]);
    const auto dbits = Binary32(d.value()[i]);
    if (!cbits || !dbits) return R::Fail(where("c/d files") + ": not a 32-digit binary number");
    uint32_t c_in = *cbits;
    if (cd == Format::kF16) {  // the probe rounded C to half first (__float2half, RNE)
      c_in = static_cast<uint32_t>(
          oracle::num::FromDouble(Format::kF16, oracle::num::ToDouble(Format::kF32, *cbits)));
    }
    uint32_t got = oracle::num::DotProduct(va, vb, c_in, map->format, map->format, cd, p);
    if (cd == Format::kF16) {  // the probe stored __half2float of the result
      got = static_cast<uint32_t>(
          oracle::num::FromDouble(Format::kF32, oracle::num::ToDouble(Format::kF16, got)));
    }
    ++r.lines;
    if (got == *dbits) {
      ++r.matched;
    } else if (r.first_mismatch < 0) {
      r.first_mismatch = static_cast<int>(i + 1);
      r.mismatch = "oracle " + oracle::Hex(got, 8) + ", hardware " + oracle::Hex(*dbits, 8);
    }
  }
  return R::Ok(std::move(r));
}

}  // namespace tcfuzz::suites
