#include "oracle/ascend/chip_profile.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <nlohmann/json.hpp>
#include <vector>

#include "oracle/core/json_reader.h"
#include "oracle/core/span.h"
#include "oracle/core/text_format.h"

namespace tcfuzz::oracle::ascend {
namespace {

constexpr int64_t KB = 1024;

// A2 (arch 2201): the platform ini says L1 = 524288 B; the kernel's pool is 512 KB - 128 B
// (TOTAL_L1_SIZE: the top 128 B hold the message word of vector-core-driven kernels; reference
// §6-§7 K6). A tiling must fit the kernel's budget; which of the two it breaks is reported.
constexpr int64_t kA2L1 = 512 * KB - 128;

const std::vector<ChipProfile>& Table() {
  static const std::vector<ChipProfile> t = {
      {"Ascend910", 1001, 32, 0, 64 * KB, 64 * KB, 256 * KB, 1024 * KB, 1024 * KB, 256 * KB, 0,
       false, "Atlas training 1st gen; 32 cores is the asc-devkit test stub's value"},
      {"Ascend310P3", 2002, 8, 7, 64 * KB, 64 * KB, 256 * KB, 1024 * KB, 1024 * KB, 256 * KB, 0,
       true, "Atlas inference; Ascend310P3.ini: 8 AI cores + 7 vector cores"},
      {"Ascend910B1", 2201, 24, 48, 64 * KB, 64 * KB, 128 * KB, kA2L1, 512 * KB, 192 * KB, 1 * KB,
       true, "Atlas A2"},
      {"Ascend910B2", 2201, 24, 48, 64 * KB, 64 * KB, 128 * KB, kA2L1, 512 * KB, 192 * KB, 1 * KB,
       true, "Atlas A2; Ascend910B2.ini"},
      {"Ascend910B3", 2201, 20, 40, 64 * KB, 64 * KB, 128 * KB, kA2L1, 512 * KB, 192 * KB, 1 * KB,
       false, "Atlas A2; core count assumed equal to 910B4"},
      {"Ascend910B4", 2201, 20, 40, 64 * KB, 64 * KB, 128 * KB, kA2L1, 512 * KB, 192 * KB, 1 * KB,
       true, "Atlas A2; Ascend910B4.ini"},
      {"Ascend910_93", 2201, 24, 48, 64 * KB, 64 * KB, 128 * KB, kA2L1, 512 * KB, 192 * KB, 1 * KB,
       true, "Atlas A3, per die; Ascend910_9392.ini"},
      {"Ascend310B", 3002, 1, 1, 64 * KB, 64 * KB, 128 * KB, 1024 * KB, 1024 * KB, 248 * KB, 1 * KB,
       false, "Atlas 200I/500 A2; 1 core is the test stub's value"},
      {"Ascend950", 3510, 24, 48, 64 * KB, 64 * KB, 256 * KB, 512 * KB, 512 * KB, 248 * KB, 4 * KB,
       false, "950PR/DT; 24 cores is the test stub's value"},
      {"Arch3003", 3003, 1, 1, 64 * KB, 64 * KB, 128 * KB, 1024 * KB, 1024 * KB, 118 * KB, 1 * KB,
       false, "likely a Kirin NPU; identity and core count unknown"},
      {"Arch3113", 3113, 1, 1, 32 * KB, 32 * KB, 64 * KB, 512 * KB, 512 * KB, 118 * KB, 1 * KB,
       false, "same family as 3003; identity and core count unknown"},
  };
  return t;
}

bool EqualNoCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

}  // namespace

Span<const ChipProfile> ChipProfiles() { return Table(); }

const ChipProfile* FindChip(std::string_view name) {
  for (const ChipProfile& c : Table()) {
    if (EqualNoCase(c.name, name)) return &c;
  }
  return nullptr;
}

Result<ChipProfile> ChipFromJson(std::string_view json) {
  using R = Result<ChipProfile>;
  const auto parsed = ParseJson(json);
  if (!parsed.ok()) return R::Fail("chip profile: " + parsed.error());
  const nlohmann::json& j = parsed.value();
  if (!j.is_object()) return R::Fail("chip profile: not a JSON object");
  static const std::array<std::string_view, 10> kInts = {
      "npu_arch", "ai_cores", "vector_cores", "l0a",        "l0b",
      "l0c",      "l1",       "ub",           "bias_table", "l1_platform"};
  for (const auto& [key, value] : j.items()) {
    const bool known = key == "name" || key == "note" || key == "confirmed" ||
                       std::find(kInts.begin(), kInts.end(), key) != kInts.end();
    if (!known) return R::Fail("chip profile: unknown key " + Quoted(key));
  }
  ChipProfile c;
  if (!j.contains("name") || !j["name"].is_string())
    return R::Fail("chip profile: missing string key 'name'");
  c.name = j["name"].get<std::string>();
  int64_t* targets[] = {nullptr, nullptr, nullptr, &c.l0a,        &c.l0b,
                        &c.l0c,  &c.l1,   &c.ub,   &c.bias_table, &c.l1_platform};
  for (std::size_t i = 0; i < kInts.size(); ++i) {
    const std::string key(kInts[i]);
    const bool optional =
        key == "vector_cores" || key == "bias_table" || key == "l1_platform" || key == "npu_arch";
    if (!j.contains(key)) {
      if (optional) continue;
      return R::Fail("chip profile: missing key '" + key + "'");
    }
    // Counts and the architecture code are ints: a value past 2^31 would wrap (4294967297 cores
    // read as 1) rather than be refused.
    const bool small = key == "npu_arch" || key == "ai_cores" || key == "vector_cores";
    const int64_t limit = small ? int64_t{1} << 20 : int64_t{1} << 40;
    if (!j[key].is_number_integer() || j[key].get<int64_t>() < 0 || j[key].get<int64_t>() > limit) {
      return R::Fail("chip profile: " + key + " must be an integer in 0.." + std::to_string(limit));
    }
    const int64_t v = j[key].get<int64_t>();
    if (key == "npu_arch")
      c.npu_arch = static_cast<int>(v);
    else if (key == "ai_cores")
      c.ai_cores = static_cast<int>(v);
    else if (key == "vector_cores")
      c.vector_cores = static_cast<int>(v);
    else
      *targets[i] = v;
  }
  for (auto [key, v] : {std::pair{"ai_cores", int64_t{c.ai_cores}}, std::pair{"l0a", c.l0a},
                        std::pair{"l0b", c.l0b}, std::pair{"l0c", c.l0c}, std::pair{"l1", c.l1},
                        std::pair{"ub", c.ub}}) {
    if (v <= 0) return R::Fail(std::string("chip profile: ") + key + " must be positive");
  }
  if (c.l1_platform == 0) c.l1_platform = c.l1;
  c.confirmed =
      !j.contains("confirmed") || (j["confirmed"].is_boolean() && j["confirmed"].get<bool>());
  if (j.contains("note") && j["note"].is_string()) c.note = j["note"].get<std::string>();
  return R::Ok(c);
}

std::string ChipToJson(const ChipProfile& c) {
  nlohmann::ordered_json j;
  j["name"] = c.name;
  j["npu_arch"] = c.npu_arch;
  j["ai_cores"] = c.ai_cores;
  j["vector_cores"] = c.vector_cores;
  j["l0a"] = c.l0a;
  j["l0b"] = c.l0b;
  j["l0c"] = c.l0c;
  j["l1"] = c.l1;
  j["l1_platform"] = c.l1_platform;
  j["ub"] = c.ub;
  j["bias_table"] = c.bias_table;
  j["confirmed"] = c.confirmed;
  j["note"] = c.note;
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace tcfuzz::oracle::ascend
