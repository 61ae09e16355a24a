#include "oracle/ascend/tcube_tiling.h"

#include <limits>
#include <nlohmann/json.hpp>

#include "oracle/core/json_reader.h"
#include "oracle/core/span.h"
#include "oracle/core/text_format.h"

namespace tcfuzz::oracle::ascend {
namespace {

constexpr std::array<std::string_view, kTilingFields> kNames = {
    "usedCoreNum",
    "M",
    "N",
    "Ka",
    "Kb",
    "singleCoreM",
    "singleCoreN",
    "singleCoreK",
    "baseM",
    "baseN",
    "baseK",
    "depthA1",
    "depthB1",
    "stepM",
    "stepN",
    "isBias",
    "transLength",
    "iterateOrder",
    "shareMode",
    "shareL1Size",
    "shareL0CSize",
    "shareUbSize",
    "batchM",
    "batchN",
    "singleBatchM",
    "singleBatchN",
    "stepKa",
    "stepKb",
    "depthAL1CacheUB",
    "depthBL1CacheUB",
    "dbL0A",
    "dbL0B",
    "dbL0C",
    "ALayoutInfoB",
    "ALayoutInfoS",
    "ALayoutInfoN",
    "ALayoutInfoG",
    "ALayoutInfoD",
    "BLayoutInfoB",
    "BLayoutInfoS",
    "BLayoutInfoN",
    "BLayoutInfoG",
    "BLayoutInfoD",
    "CLayoutInfoB",
    "CLayoutInfoS1",
    "CLayoutInfoN",
    "CLayoutInfoG",
    "CLayoutInfoS2",
    "BatchNum",
    "mxTypePara",
};

}  // namespace

Span<const std::string_view> FieldNames() { return kNames; }

std::optional<Field> FindField(std::string_view name) {
  for (int i = 0; i < kTilingFields; ++i) {
    if (kNames[static_cast<std::size_t>(i)] == name) return static_cast<Field>(i);
  }
  return std::nullopt;
}

Result<TCubeTiling> FromImage(Span<const uint8_t> bytes) {
  if (bytes.size() != kTilingBytes) {
    return Result<TCubeTiling>::Fail("a TCubeTiling image is " + std::to_string(kTilingBytes) +
                                     " bytes, got " + std::to_string(bytes.size()));
  }
  TCubeTiling t;
  for (int i = 0; i < kTilingFields; ++i) {
    uint32_t w = 0;
    for (int b = 3; b >= 0; --b) w = (w << 8) | bytes[static_cast<std::size_t>(4 * i + b)];
    t.v[static_cast<std::size_t>(i)] = static_cast<int32_t>(w);
  }
  return Result<TCubeTiling>::Ok(t);
}

std::vector<uint8_t> ToImage(const TCubeTiling& t) {
  std::vector<uint8_t> out(kTilingBytes);
  for (int i = 0; i < kTilingFields; ++i) {
    const auto w = static_cast<uint32_t>(t.v[static_cast<std::size_t>(i)]);
    for (int b = 0; b < 4; ++b)
      out[static_cast<std::size_t>(4 * i + b)] = static_cast<uint8_t>(w >> (8 * b));
  }
  return out;
}

Result<TCubeTiling> FromJson(std::string_view json) {
  using R = Result<TCubeTiling>;
  const auto parsed = ParseJson(json);
  if (!parsed.ok()) return R::Fail("tiling JSON: not valid JSON (" + parsed.error() + ")");
  const nlohmann::json& j = parsed.value();
  if (!j.is_object())
    return R::Fail("tiling JSON: expected an object of the 50 TCubeTiling fields");
  TCubeTiling t;
  for (const auto& [key, value] : j.items()) {
    const auto f = FindField(key);
    if (!f) return R::Fail("tiling JSON: unknown key " + Quoted(key));
    if (!value.is_number_integer()) return R::Fail("tiling JSON: " + key + " is not an integer");
    const auto x = value.get<int64_t>();
    if (value.is_number_unsigned() || x < std::numeric_limits<int32_t>::min() ||
        x > std::numeric_limits<int32_t>::max()) {
      if (value.is_number_unsigned() &&
          value.get<uint64_t>() <= static_cast<uint64_t>(std::numeric_limits<int32_t>::max())) {
        t[*f] = static_cast<int32_t>(value.get<uint64_t>());
        continue;
      }
      return R::Fail("tiling JSON: " + key + " = " + value.dump() + " is outside int32");
    }
    t[*f] = static_cast<int32_t>(x);
  }
  for (std::string_view name : kNames) {
    if (!j.contains(std::string(name)))
      return R::Fail("tiling JSON: missing key '" + std::string(name) + "'");
  }
  return R::Ok(t);
}

std::string ToJson(const TCubeTiling& t) {
  nlohmann::ordered_json j;
  for (int i = 0; i < kTilingFields; ++i)
    j[std::string(kNames[static_cast<std::size_t>(i)])] = t.v[static_cast<std::size_t>(i)];
  return j.dump(2) + "\n";
}

bool operator==(const TCubeTiling&, const TCubeTiling&) = default;

}  // namespace tcfuzz::oracle::ascend
