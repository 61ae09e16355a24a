// A tiler under test for `tcfuzz tiling fuzz --tiler`, small enough to read in one sitting: the
// shape every wrapper of a production tiler has (docs/tiler-under-test.md).
//
//   1. read the problem JSON on stdin and the chip's profile from TCFUZZ_CHIP_PROFILE;
//   2. refuse (exit 1, a reason on stderr) a problem outside the documented contract;
//   3. compute the tiling: here a simple split of M over the cores in 16-row blocks, one base
//      tile of 16 x 16 x (a whole C0 block) at a time; a wrapper calls the production tiler;
//   4. print the 50 TCubeTiling fields as JSON on stdout (or the 200-byte image), exit 0.
//
// With TCFUZZ_TILER_PROTOCOL=lines (`tiling fuzz --tiler-protocol lines`) it stays running and
// does the same for each request line on stdin ({"problem", "chip_profile", ...}), answering a
// line each ({"tiling": {...}} or {"refused": "why"}): no process start per problem.
//
// It reads the problem with nlohmann/json and answers through the oracle's TCubeTiling
// (oracle/ascend/tcube_tiling.h, also in the installed package), as a C++ wrapper can.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "oracle/ascend/tcube_tiling.h"

namespace {

using json = nlohmann::ordered_json;

// A tiling, or the reason it is refused.
struct Answer {
  std::string tiling_json, refused;
};
Answer Refuse(const std::string& why) { return {"", why}; }

int64_t C0(const std::string& type) {  // 32 bytes of the element type
  if (type == "float32" || type == "int32") return 8;
  if (type == "int8") return 32;
  if (type == "int4") return 64;
  return 16;
}
int64_t Bytes(const std::string& type) {
  if (type == "float32" || type == "int32") return 4;
  if (type == "int8") return 1;
  return 2;  // float16, bfloat16 (int4 is not served below)
}
int64_t AlignUp(int64_t a, int64_t b) { return (a + b - 1) / b * b; }

// Steps 2 and 3 for one problem on one chip.
Answer Tile(const json& p, const json& chip) {
  const int64_t m = p["M"], n = p["N"], k = p["K"];
  const std::string a = p["aType"], b = p["bType"], c = p["cType"];
  const bool nz_a = p["aFormat"] == "NZ", nz_b = p["bFormat"] == "NZ";
  const bool trans_a = p["transA"], trans_b = p["transB"];
  const int arch = chip["npu_arch"];
  // 2. The contract (docs/ascend-tiling.md P1-P3): what no tiling can serve.
  if (a == "int4") return Refuse("int4 is not served by this example");
  if ((nz_a && (m % 16 || k % C0(a))) || (nz_b && (n % 16 || k % C0(b))))
    return Refuse("NZ operand off its 16 x C0 fractal grid");
  if (arch != 3510 &&
      ((!nz_a && (trans_a ? m : k) > 65535) || (!nz_b && (trans_b ? k : n) > 65535)))
    return Refuse("ND inner dimension past 65535");
  if (arch == 2002 && (n * Bytes(c)) % 32)
    return Refuse("310P output rows must be 32-byte aligned");
  // 3. M split over the cores in whole 16-row blocks; each core takes all of N and K.
  const int64_t cores = chip["ai_cores"];
  const int64_t blocks = (m + 15) / 16;
  const int64_t single_m = std::min(m, 16 * ((blocks + cores - 1) / cores));
  const int64_t base_k = std::max<int64_t>(16, C0(a));  // whole C0 blocks of A, 16-aligned
  namespace asc = tcfuzz::oracle::ascend;
  asc::TCubeTiling t;  // every field 0 but those set below
  const auto set = [&t](asc::Field f, int64_t v) { t[f] = static_cast<int32_t>(v); };
  set(asc::kUsedCoreNum, (m + single_m - 1) / single_m);
  set(asc::kM, m), set(asc::kN, n), set(asc::kKa, k), set(asc::kKb, k);
  set(asc::kSingleCoreM, single_m), set(asc::kSingleCoreN, n), set(asc::kSingleCoreK, k);
  set(asc::kBaseM, 16), set(asc::kBaseN, 16), set(asc::kBaseK, base_k);
  for (asc::Field f : {asc::kDepthA1, asc::kDepthB1, asc::kStepM, asc::kStepN, asc::kStepKa,
                       asc::kStepKb, asc::kDbL0A, asc::kDbL0B, asc::kDbL0C, asc::kBatchM,
                       asc::kBatchN, asc::kSingleBatchM, asc::kSingleBatchN})
    set(f, 1);
  set(asc::kIsBias, p["isBias"].get<bool>() ? 1 : 0);
  // 910, 310P and 310B stage ND <-> NZ through UB: the largest block in bytes.
  if (arch == 1001 || arch == 2002 || arch == 3002)
    set(asc::kTransLength,
        std::max({16 * base_k * Bytes(a), 16 * base_k * Bytes(b), int64_t{16 * 16 * 4}}));
  return {asc::ToJson(t), ""};
}

}  // namespace

int main() {
  const char* protocol = std::getenv("TCFUZZ_TILER_PROTOCOL");
  if (protocol != nullptr && std::string(protocol) == "lines") {
    std::ios::sync_with_stdio(false);
    for (std::string line; std::getline(std::cin, line);) {
      const json r = json::parse(line, nullptr, false);
      if (r.is_discarded() || !r.contains("problem") || !r.contains("chip_profile")) return 2;
      const Answer a = Tile(r["problem"], r["chip_profile"]);
      json out;
      if (a.refused.empty()) {
        out["tiling"] = json::parse(a.tiling_json);
      } else {
        out["refused"] = "example_tiler: " + a.refused;  // as the per-problem stderr line
      }
      std::cout << out.dump() << std::endl;  // flushed: tcfuzz waits for the line
    }
    return 0;
  }
  // 1. One problem on stdin, the chip in the environment.
  std::ostringstream in;
  in << std::cin.rdbuf();
  const json p = json::parse(in.str(), nullptr, false);
  const char* profile_text = std::getenv("TCFUZZ_CHIP_PROFILE");
  if (p.is_discarded() || profile_text == nullptr) return 2;  // not the protocol: a crash
  const json chip = json::parse(profile_text, nullptr, false);
  if (chip.is_discarded()) return 2;
  const Answer a = Tile(p, chip);
  if (!a.refused.empty()) {
    std::cerr << "example_tiler: " << a.refused << "\n";
    return 1;
  }
  // 4. The answer.
  std::cout << a.tiling_json;
  return 0;
}
