#include "harness/call_record.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <span>

#include "oracle/core/text_format.h"

namespace tcfuzz::harness {
namespace {

using Json = nlohmann::ordered_json;

template <class T>
Json Array(const T* p, std::size_t n) {
  return p == nullptr ? Json(nullptr) : Json(std::span<const T>(p, n));
}

std::string Hex(const uint8_t* p, std::size_t n) {
  std::string s;
  s.reserve(2 * n);
  for (std::size_t i = 0; i < n; ++i) oracle::AppendHexDigits(s, p[i], 2);
  return s;
}

// A shared-memory image is mostly one fill byte (64 KiB a tile, a few KiB of operands): the
// fill, and [offset, hex] for each run of other bytes (gaps under 16 fill bytes kept inside).
Json Image(const uint8_t* p, std::size_t n) {
  std::array<std::size_t, 256> count{};
  for (std::size_t i = 0; i < n; ++i) ++count[p[i]];
  const auto fill =
      static_cast<uint8_t>(std::max_element(count.begin(), count.end()) - count.begin());
  Json runs = Json::array();
  for (std::size_t i = 0; i < n;) {
    if (p[i] == fill) {
      ++i;
      continue;
    }
    std::size_t end = i + 1, gap = 0;
    for (std::size_t j = end; j < n && gap < 16; ++j) {
      gap = p[j] == fill ? gap + 1 : 0;
      if (gap == 0) end = j + 1;
    }
    runs.push_back(Json::array({i, Hex(p + i, end - i)}));
    i = end;
  }
  return Json{{"bytes", n}, {"fill", fill}, {"runs", runs}};
}

const char* Text(const char* s) { return s == nullptr ? "" : s; }

// One line, one write to a file of this process alone: workers record side by side. A record
// that cannot be written is dropped; recording never changes what a campaign does.
void Append(Json line, const oracle::Result<bool>& outcome, const uint32_t* d, std::size_t words) {
  const char* dir = std::getenv("TCFUZZ_RECORD_CALLS");
  if (dir == nullptr || *dir == '\0') return;
  line["status"] = outcome.ok() ? "ok" : outcome.error();
  line["d_out"] = outcome.ok() ? Array(d, words) : Json(nullptr);
  const std::string text = line.dump() + "\n";
  const std::string path = std::string(dir) + "/calls-" + std::to_string(getpid()) + ".jsonl";
  const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW, 0644);
  if (fd < 0) return;
  const ssize_t n = write(fd, text.data(), text.size());
  (void)n;
  close(fd);
}

}  // namespace

void RecordWarpMma(const tcfuzz_warp_mma& c, std::string_view target,
                   const oracle::Result<bool>& outcome) {
  if (std::getenv("TCFUZZ_RECORD_CALLS") == nullptr) return;
  const std::size_t lanes = std::size_t{c.warps} * 32;
  Json j = {{"api", "warp_mma"},
            {"target", target},
            {"instruction", Text(c.instruction)},
            {"shape", Text(c.shape)},
            {"a_type", Text(c.a_type)},
            {"b_type", Text(c.b_type)},
            {"cd_type", Text(c.cd_type)},
            {"sparse", c.sparse},
            {"ordered_metadata", c.ordered_metadata},
            {"selector", c.selector},
            {"satfinite", c.satfinite},
            {"warps", c.warps},
            {"a", Array(c.a, lanes * c.a_regs)},
            {"a_regs", c.a_regs},
            {"b", Array(c.b, lanes * c.b_regs)},
            {"b_regs", c.b_regs},
            {"c", Array(c.c, lanes * c.cd_regs)},
            {"cd_regs", c.cd_regs},
            {"e", Array(c.e, lanes)}};
  Append(std::move(j), outcome, c.d, lanes * c.cd_regs);
}

void RecordSmemMma(const tcfuzz_smem_mma& c, std::string_view target,
                   const oracle::Result<bool>& outcome) {
  if (std::getenv("TCFUZZ_RECORD_CALLS") == nullptr) return;
  const bool tcgen05 = std::string_view(Text(c.family)) == "tcgen05";
  const std::size_t lanes = std::size_t{c.tiles} * 128;
  Json j = {{"api", "smem_mma"},
            {"target", target},
            {"instruction", Text(c.instruction)},
            {"family", Text(c.family)},
            {"shape", Text(c.shape)},
            {"a_type", Text(c.a_type)},
            {"b_type", Text(c.b_type)},
            {"d_type", Text(c.d_type)},
            {"trans_a", c.trans_a},
            {"trans_b", c.trans_b},
            {"sparse", c.sparse},
            {"selector", c.selector},
            {"scale_d", c.scale_d},
            {"tiles", c.tiles},
            {"image_bytes", c.image_bytes},
            {"image", c.image == nullptr ? Json(nullptr)
                                         : Image(c.image, std::size_t{c.tiles} * c.image_bytes)},
            {"a_desc", Array(c.a_desc, c.tiles)},
            {"b_desc", Array(c.b_desc, c.tiles)},
            {"idesc", Array(c.idesc, c.tiles)},
            {"zero_column_mask", Array(c.zero_column_mask, c.tiles)},
            {"e", Array(c.e, lanes * (tcgen05 ? 2 : 1))},
            {"d_words", c.d_words},
            {"c", Array(c.c, lanes * c.d_words)}};
  Append(std::move(j), outcome, c.d, lanes * c.d_words);
}

}  // namespace tcfuzz::harness
