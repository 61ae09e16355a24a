// The versioned text form of operands and cases: reproducer files and corpus entries.
//
//   tcfuzz-text 1                  <- magic and format version (first line, always)
//   tool = tcfuzz 0.1.0            <- tool version that wrote it (required)
//   kind = zero_column_mask        <- which operand/case decoder reads the rest (required)
//   desc = 0x0000000000000000      <- stable `key = value` lines, one per field
//
// Blank lines and lines starting with '#' are comments. Keys are [a-z0-9_.]+ and unique.
// Every parse error is one line that names the line number; nothing here throws or aborts.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "oracle/core/result.h"
#include "oracle/core/span.h"

namespace tcfuzz::oracle {

inline constexpr int kTextFormatVersion = 1;
inline constexpr std::string_view kTextMagic = "tcfuzz-text";
std::string_view ToolVersion();  // "tcfuzz <project version>"

struct TextEntry {
  std::string key;
  std::string value;
  int line;
};

class TextDoc {
 public:
  static Result<TextDoc> Parse(std::string_view text);

  const std::vector<TextEntry>& entries() const { return entries_; }
  const TextEntry* Find(std::string_view key) const;

  // Typed access; errors name the line (or say the key is missing).
  Result<std::string> String(std::string_view key) const;
  Result<uint64_t> Uint(std::string_view key, uint64_t max) const;  // decimal or 0x hex
  Result<bool> Bool(std::string_view key) const;                    // 0/1/true/false
  bool Has(std::string_view key) const { return Find(key) != nullptr; }

 private:
  std::vector<TextEntry> entries_;
  std::unordered_map<std::string, std::size_t>
      index_;  // key -> entry: lookups stay O(1) in long files
};

// Builds a text form with the header already in place; keys keep insertion order.
class TextWriter {
 public:
  explicit TextWriter(std::string_view kind);
  TextWriter& Comment(std::string_view text);
  TextWriter& Add(std::string_view key, std::string_view value);
  TextWriter& AddHex(std::string_view key, uint64_t value, int digits);
  TextWriter& AddInt(std::string_view key, int64_t value);
  const std::string& str() const { return out_; }

 private:
  std::string out_;
};

// Parses "123" or "0x7b" (no sign, no spaces) into a uint64 no larger than `max`.
Result<uint64_t> ParseUint(std::string_view text, uint64_t max);

// A text as one line: control characters (a newline in an argument, a file name or a JSON key)
// become \n, \r, \t or \xNN, so a message that quotes it can never turn into several lines.
// Invalid UTF-8 becomes \xNN too (valid sequences are kept). Past `max_bytes`, cut at a
// character's start and "..." added (error lines stay readable when a value is 128 KiB).
std::string OneLine(std::string_view text, std::size_t max_bytes = std::string_view::npos);
// A tool's error line, "tcfuzz: error: " and `message` through OneLine and a newline: whatever a
// message quotes (a path with a newline, invalid UTF-8, a 100 KiB value), it stays one line of at
// most about 1000 bytes, so a log split by prefix sends all of it to stderr. A longer message
// keeps its start and its end (where it says what is wrong), " ... " between.
std::string ErrorLine(std::string_view message);
// 'text' for a message: one line, and at most 64 characters of it ("..." after them).
std::string Quoted(std::string_view text);
std::string Hex(uint64_t value, int digits);  // "0x" + zero-padded lower-case hex
// The same digits without "0x" (at least `digits` of them), appended: what a row of many values
// or an image's bytes is written with, without a string per value.
void AppendHexDigits(std::string& out, uint64_t value, int digits);

// The value of `key` through `parse` (a Parse* of an enum's names): "missing required key" or
// "line N: key: unknown value 'v'".
template <class E>
Result<E> ParseEnumKey(const TextDoc& doc, std::string_view key,
                       std::optional<E> (*parse)(std::string_view)) {
  const TextEntry* e = doc.Find(key);
  if (e == nullptr) return Result<E>::Fail("missing required key '" + std::string(key) + "'");
  const std::optional<E> v = parse(e->value);
  if (!v)
    return Result<E>::Fail("line " + std::to_string(e->line) + ": " + e->key + ": unknown value '" +
                           e->value + "'");
  return Result<E>::Ok(*v);
}

// A row of values as one key's value: zero-padded hex words without "0x", space-separated.
std::string HexRow(Span<const uint64_t> values, int digits);
// The row under `key`: exactly `count` words, each at most `max`; errors name the line.
Result<std::vector<uint64_t>> ParseHexRow(const TextDoc& doc, const std::string& key,
                                          std::size_t count, uint64_t max);

}  // namespace tcfuzz::oracle
