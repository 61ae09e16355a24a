// Ascend C Matmul tiling: the 200-byte TCubeTiling image the kernel receives (50 little-endian
// int32 fields, no padding), its JSON form, and field access by name.
//
// Field order is the generated kernel struct's (asc-devkit matmul_tilingdata.h through
// gen_kernel_tiling_data_def.py; ../shared/reference/ascend-tcubetiling.md §1), not the order the
// API documentation lists them in.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "oracle/core/result.h"
#include "oracle/core/span.h"

namespace tcfuzz::oracle::ascend {

inline constexpr int kTilingFields = 50;
inline constexpr int kTilingBytes = 4 * kTilingFields;

// Index of each field (byte offset = 4 * index).
enum Field : int {
  kUsedCoreNum,
  kM,
  kN,
  kKa,
  kKb,
  kSingleCoreM,
  kSingleCoreN,
  kSingleCoreK,
  kBaseM,
  kBaseN,
  kBaseK,
  kDepthA1,
  kDepthB1,
  kStepM,
  kStepN,
  kIsBias,
  kTransLength,
  kIterateOrder,
  kShareMode,
  kShareL1Size,
  kShareL0CSize,
  kShareUbSize,
  kBatchM,
  kBatchN,
  kSingleBatchM,
  kSingleBatchN,
  kStepKa,
  kStepKb,
  kDepthAL1CacheUB,
  kDepthBL1CacheUB,
  kDbL0A,
  kDbL0B,
  kDbL0C,
  kALayoutInfoB,
  kALayoutInfoS,
  kALayoutInfoN,
  kALayoutInfoG,
  kALayoutInfoD,
  kBLayoutInfoB,
  kBLayoutInfoS,
  kBLayoutInfoN,
  kBLayoutInfoG,
  kBLayoutInfoD,
  kCLayoutInfoB,
  kCLayoutInfoS1,
  kCLayoutInfoN,
  kCLayoutInfoG,
  kCLayoutInfoS2,
  kBatchNum,
  kMxTypePara,
};
static_assert(kMxTypePara == kTilingFields - 1, "50 fields, mxTypePara last");

// The struct's field names, in image order (the JSON keys).
Span<const std::string_view> FieldNames();
std::optional<Field> FindField(std::string_view name);

struct TCubeTiling {
  std::array<int32_t, kTilingFields> v{};
  int32_t operator[](Field f) const { return v[static_cast<std::size_t>(f)]; }
  int32_t& operator[](Field f) { return v[static_cast<std::size_t>(f)]; }
  // Defaulted in the .cc: a C++17 includer cannot default it (issue 35).
  friend bool operator==(const TCubeTiling&, const TCubeTiling&);
};

// The 200-byte image (little-endian). Error: one line saying what is wrong with the size.
Result<TCubeTiling> FromImage(Span<const uint8_t> bytes);
std::vector<uint8_t> ToImage(const TCubeTiling& t);

// JSON object with exactly the 50 field names as keys, integer values in int32 range.
// Unknown keys, missing keys, non-integers and out-of-range values are one-line errors.
Result<TCubeTiling> FromJson(std::string_view json);
std::string ToJson(const TCubeTiling& t);

}  // namespace tcfuzz::oracle::ascend
