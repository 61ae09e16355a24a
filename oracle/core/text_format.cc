#include "oracle/core/text_format.h"

#include <charconv>
#include <sstream>

#include "oracle/core/span.h"

namespace tcfuzz::oracle {
namespace {

constexpr std::size_t kMaxLineLength = 4096;

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) {
    s.remove_suffix(1);
  }
  return s;
}

bool IsKeyChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '.';
}

std::string AtLine(int line, std::string_view message) {
  return "line " + std::to_string(line) + ": " + std::string(message);
}

}  // namespace

std::string_view ToolVersion() { return "tcfuzz " TCFUZZ_VERSION; }

namespace {

// The length of the valid UTF-8 sequence at text[i] (1 for ASCII), or 0 when it is not one
// (a stray continuation byte, a truncated sequence, an overlong form, a surrogate, past U+10FFFF).
std::size_t Utf8Length(std::string_view text, std::size_t i) {
  const auto b = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char lead = b(i);
  if (lead < 0x80) return 1;
  std::size_t n = 0;
  unsigned char lo = 0x80, hi = 0xBF;  // the allowed range of the second byte
  if (lead >= 0xC2 && lead <= 0xDF) {
    n = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    n = 3;
    if (lead == 0xE0) lo = 0xA0;  // overlong
    if (lead == 0xED) hi = 0x9F;  // surrogates
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    n = 4;
    if (lead == 0xF0) lo = 0x90;  // overlong
    if (lead == 0xF4) hi = 0x8F;  // past U+10FFFF
  } else {
    return 0;
  }
  if (i + n > text.size() || b(i + 1) < lo || b(i + 1) > hi) return 0;
  for (std::size_t k = 2; k < n; ++k) {
    if (b(i + k) < 0x80 || b(i + k) > 0xBF) return 0;
  }
  return n;
}

}  // namespace

std::string OneLine(std::string_view text, std::size_t max_bytes) {
  std::string out;
  for (std::size_t i = 0; i < text.size();) {
    const char c = text[i];
    const auto u = static_cast<unsigned char>(c);
    if (u >= 0x80) {  // valid UTF-8 kept as it is; any other byte as \xNN
      const std::size_t n = Utf8Length(text, i);
      if (n > 0) {
        out.append(text.substr(i, n));
        i += n;
        continue;
      }
      out += "\\x";
      AppendHexDigits(out, u, 2);
      ++i;
      continue;
    }
    ++i;
    if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else if (u < 0x20 || u == 0x7f) {
      out += "\\x";
      AppendHexDigits(out, u, 2);
    } else {
      out += c;
    }
  }
  if (out.size() > max_bytes) {
    std::size_t cut = max_bytes;
    while (cut > 0 && (static_cast<unsigned char>(out[cut]) & 0xC0) == 0x80) --cut;
    out = out.substr(0, cut) + "...";
  }
  return out;
}

std::string ErrorLine(std::string_view message) {
  // What is wrong usually ends a message ("--tiler: '<a 128 KiB path>' is not an executable
  // file"): past 980 bytes a line keeps its first 600 and its last 380, " ... " between. Pieces
  // of at most one character (or four bytes of a broken one) are escaped whole, so a cut never
  // splits a character or a \xNN.
  constexpr std::size_t kMax = 980, kHead = 600, kTail = 380;
  const auto continuation = [](char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; };
  std::string head;
  std::size_t head_end = 0, i = 0;  // head_end: the raw bytes the first kHead of the line hold
  std::size_t kept = 0;             // bytes of `head` within kHead
  while (i < message.size()) {
    std::size_t j = i + 1;
    while (j < message.size() && j - i < 4 && continuation(message[j])) ++j;
    const std::string piece = OneLine(message.substr(i, j - i));
    if (head.size() + piece.size() > kMax) break;
    head += piece;
    i = j;
    if (head.size() <= kHead) head_end = i, kept = head.size();
  }
  if (i == message.size()) return "tcfuzz: error: " + head + "\n";
  head.resize(kept);
  std::string tail;
  for (std::size_t end = message.size(); end > head_end;) {
    std::size_t k = end - 1;
    while (k > head_end && end - k < 4 && continuation(message[k])) --k;
    const std::string piece = OneLine(message.substr(k, end - k));
    if (tail.size() + piece.size() > kTail) break;
    tail.insert(0, piece);
    end = k;
  }
  return "tcfuzz: error: " + head + " ... " + tail + "\n";
}

std::string Quoted(std::string_view text) {
  return "'" + OneLine(text.substr(0, 64)) + (text.size() > 64 ? "...'" : "'");
}

Result<uint64_t> ParseUint(std::string_view text, uint64_t max) {
  const std::string_view given = text;  // messages quote what was written, 0x and all
  int base = 10;
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    base = 16;
    text.remove_prefix(2);
  }
  if (text.empty()) return Result<uint64_t>::Fail("empty number");
  uint64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value, base);
  if (ec == std::errc::result_out_of_range) {
    return Result<uint64_t>::Fail("number " + Quoted(given) + " does not fit in 64 bits");
  }
  if (ec != std::errc() || end != text.data() + text.size()) {
    return Result<uint64_t>::Fail(Quoted(given) + " is not a number");
  }
  if (value > max) {  // in the base it was written in
    const auto in_base = [base](uint64_t v) { return base == 16 ? Hex(v, 1) : std::to_string(v); };
    return Result<uint64_t>::Fail(in_base(value) + " exceeds the maximum " + in_base(max));
  }
  return Result<uint64_t>::Ok(value);
}

void AppendHexDigits(std::string& out, uint64_t value, int digits) {
  char buf[16];
  const char* end = std::to_chars(buf, buf + sizeof buf, value, 16).ptr;  // lower case
  const auto n = static_cast<int>(end - buf);
  if (digits > n) out.append(static_cast<std::size_t>(digits - n), '0');
  out.append(buf, static_cast<std::size_t>(n));
}

std::string Hex(uint64_t value, int digits) {
  std::string s = "0x";
  AppendHexDigits(s, value, digits);
  return s;
}

Result<TextDoc> TextDoc::Parse(std::string_view text) {
  TextDoc doc;
  bool header_seen = false;
  int line_no = 0;
  while (!text.empty() || !header_seen) {
    ++line_no;
    const std::size_t nl = text.find('\n');
    std::string_view raw = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view{} : text.substr(nl + 1);
    if (raw.size() > kMaxLineLength) {
      return Result<TextDoc>::Fail(AtLine(line_no, "line longer than 4096 characters"));
    }
    for (char c : raw) {
      if ((static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\r') || c == 0x7f) {
        return Result<TextDoc>::Fail(AtLine(line_no, "control character in text form"));
      }
    }
    const std::string_view line = Trim(raw);
    if (!header_seen) {
      const std::string expected =
          std::string(kTextMagic) + " " + std::to_string(kTextFormatVersion);
      // The magic word, then a space: "tcfuzz-textual 1" is no header of ours.
      if (line.substr(0, kTextMagic.size()) != kTextMagic ||
          (line.size() > kTextMagic.size() && line[kTextMagic.size()] != ' ' &&
           line[kTextMagic.size()] != '\t')) {
        return Result<TextDoc>::Fail(AtLine(line_no, "missing header '" + expected + "'"));
      }
      const std::string_view version = Trim(line.substr(kTextMagic.size()));
      if (version != std::to_string(kTextFormatVersion)) {
        return Result<TextDoc>::Fail(
            AtLine(line_no, "unsupported format version '" + std::string(version) +
                                "' (this tool reads " + std::to_string(kTextFormatVersion) + ")"));
      }
      header_seen = true;
      continue;
    }
    if (line.empty() || line.front() == '#') continue;
    const std::size_t eq = line.find('=');
    if (eq == std::string_view::npos) {
      return Result<TextDoc>::Fail(AtLine(line_no, "expected 'key = value'"));
    }
    const std::string_view key = Trim(line.substr(0, eq));
    const std::string_view value = Trim(line.substr(eq + 1));
    if (key.empty()) return Result<TextDoc>::Fail(AtLine(line_no, "empty key"));
    for (char c : key) {
      if (!IsKeyChar(c)) {
        return Result<TextDoc>::Fail(
            AtLine(line_no, "key '" + std::string(key) + "' has characters outside [a-z0-9_.]"));
      }
    }
    if (!doc.index_.emplace(std::string(key), doc.entries_.size()).second) {
      return Result<TextDoc>::Fail(AtLine(line_no, "duplicate key '" + std::string(key) + "'"));
    }
    doc.entries_.push_back(TextEntry{std::string(key), std::string(value), line_no});
  }
  if (!doc.Has("tool")) return Result<TextDoc>::Fail("missing required key 'tool'");
  if (!doc.Has("kind")) return Result<TextDoc>::Fail("missing required key 'kind'");
  return Result<TextDoc>::Ok(std::move(doc));
}

const TextEntry* TextDoc::Find(std::string_view key) const {
  const auto it = index_.find(std::string(key));
  return it == index_.end() ? nullptr : &entries_[it->second];
}

Result<std::string> TextDoc::String(std::string_view key) const {
  const TextEntry* e = Find(key);
  if (e == nullptr)
    return Result<std::string>::Fail("missing required key '" + std::string(key) + "'");
  return Result<std::string>::Ok(e->value);
}

Result<uint64_t> TextDoc::Uint(std::string_view key, uint64_t max) const {
  const TextEntry* e = Find(key);
  if (e == nullptr)
    return Result<uint64_t>::Fail("missing required key '" + std::string(key) + "'");
  Result<uint64_t> v = ParseUint(e->value, max);
  if (!v.ok()) return Result<uint64_t>::Fail(AtLine(e->line, std::string(key) + ": " + v.error()));
  return v;
}

Result<bool> TextDoc::Bool(std::string_view key) const {
  const TextEntry* e = Find(key);
  if (e == nullptr) return Result<bool>::Fail("missing required key '" + std::string(key) + "'");
  if (e->value == "1" || e->value == "true") return Result<bool>::Ok(true);
  if (e->value == "0" || e->value == "false") return Result<bool>::Ok(false);
  return Result<bool>::Fail(
      AtLine(e->line, std::string(key) + ": expected 0 or 1, got '" + e->value + "'"));
}

TextWriter::TextWriter(std::string_view kind) {
  out_ = std::string(kTextMagic) + " " + std::to_string(kTextFormatVersion) + "\n";
  Add("tool", ToolVersion());
  Add("kind", kind);
}

TextWriter& TextWriter::Comment(std::string_view text) {
  out_ += "# ";
  out_ += text;
  out_ += '\n';
  return *this;
}

TextWriter& TextWriter::Add(std::string_view key, std::string_view value) {
  out_ += key;
  out_ += " = ";
  out_ += value;
  out_ += '\n';
  return *this;
}

TextWriter& TextWriter::AddHex(std::string_view key, uint64_t value, int digits) {
  return Add(key, Hex(value, digits));
}

TextWriter& TextWriter::AddInt(std::string_view key, int64_t value) {
  return Add(key, std::to_string(value));
}

std::string HexRow(Span<const uint64_t> values, int digits) {
  std::string s;
  for (uint64_t x : values) {
    if (!s.empty()) s += ' ';
    AppendHexDigits(s, x, digits);
  }
  return s;
}

Result<std::vector<uint64_t>> ParseHexRow(const TextDoc& doc, const std::string& key,
                                          std::size_t count, uint64_t max) {
  using R = Result<std::vector<uint64_t>>;
  const TextEntry* e = doc.Find(key);
  if (e == nullptr) return R::Fail("missing required key '" + key + "'");
  std::istringstream in(e->value);
  std::vector<uint64_t> out;
  std::string word;
  while (in >> word) {
    auto v = ParseUint("0x" + word, max);
    if (!v.ok()) return R::Fail("line " + std::to_string(e->line) + ": " + key + ": " + v.error());
    out.push_back(v.value());
  }
  if (out.size() != count) {
    return R::Fail("line " + std::to_string(e->line) + ": " + key + " has " +
                   std::to_string(out.size()) + " values, expected " + std::to_string(count));
  }
  return R::Ok(std::move(out));
}

}  // namespace tcfuzz::oracle
