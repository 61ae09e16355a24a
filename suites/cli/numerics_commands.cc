#include "suites/cli/numerics_commands.h"

#include <charconv>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>

#include "oracle/core/json_reader.h"
#include "oracle/core/text_format.h"
#include "oracle/sparse/sparse_metadata.h"
#include "suites/captures/capture_sets.h"
#include "suites/cli/backing_output.h"
#include "suites/engine/line_reader.h"

namespace tcfuzz::suites {
namespace {

using namespace oracle::sparse;
using oracle::num::Format;

std::string Cols(const SparseForm& f, int chunk) {
  return std::to_string(chunk * f.chunk) + ".." + std::to_string(chunk * f.chunk + f.chunk - 1);
}

int HexDigits(Format f) {
  switch (f) {
    case Format::kTF32:
    case Format::kF32:
      return 8;
    case Format::kF16:
    case Format::kBF16:
      return 4;
    default:
      return 2;
  }
}

}  // namespace

std::string ExplainSparseText(const SparseForm& f, int sel) {
  std::string out = "mma.sp " + f.Name() + " (selector " + std::to_string(sel) +
                    "): K = " + std::to_string(f.k) + ", chunks of " + std::to_string(f.chunk) +
                    " keep " + std::to_string(f.kept) + ", A " + std::to_string(f.a_regs) +
                    " x b32 (" + std::to_string(f.per_reg()) + " per register), B " +
                    std::to_string(f.b_regs) + " x b32, metadata in " +
                    std::to_string(f.meta_threads()) + " lane(s) per quad, selector 0.." +
                    std::to_string(f.max_selector()) + ", from " + std::string(f.target) + "\n";
  out += "A (register.position -> row, dense columns of its chunk, kept slot):\n";
  for (int lane = 0; lane < 32; ++lane) {
    out += "  lane " + std::to_string(lane) + ":";
    for (int reg = 0; reg < f.a_regs; ++reg) {
      for (int pos = 0; pos < f.per_reg(); ++pos) {
        const AElement a = MapA(f, lane, reg, pos);
        out += " a" + std::to_string(reg * f.per_reg() + pos) + "(" + std::to_string(a.row) + "," +
               Cols(f, a.chunk) + "#" + std::to_string(a.slot) + ")";
      }
    }
    out += "\n";
  }
  out += "B (element -> k row, n col):\n";
  for (int lane = 0; lane < 32; ++lane) {
    out += "  lane " + std::to_string(lane) + ":";
    for (int reg = 0; reg < f.b_regs; ++reg) {
      for (int pos = 0; pos < f.per_reg(); ++pos) {
        const Coord b = MapB(f, lane, reg, pos);
        out += " b" + std::to_string(reg * f.per_reg() + pos) + "(" + std::to_string(b.row) + "," +
               std::to_string(b.col) + ")";
      }
    }
    out += "\n";
  }
  out +=
      "C/D (c0..c3 -> row, col): lane l holds (l/4, 2(l%4)), (l/4, 2(l%4)+1), (l/4+8, 2(l%4)), "
      "(l/4+8, 2(l%4)+1)\n";
  out += "metadata (bits of the lane's register -> row, dense columns of the chunk):\n";
  if (sel < 0 || sel > f.max_selector()) {
    out += "  none: selector " + std::to_string(sel) + " is out of range for this form\n";
  } else {
    for (int lane = 0; lane < 32; ++lane) {
      if (!MetaAt(f, sel, lane, 0)) continue;
      out += "  lane " + std::to_string(lane) + ":";
      for (int bit = 0; bit < 32; bit += 4) {
        const auto m = *MetaAt(f, sel, lane, bit);
        out += " [" + std::to_string(bit + 3) + ":" + std::to_string(bit) + "](" +
               std::to_string(m.row) + "," + Cols(f, m.chunk) + ")";
      }
      out += "\n";
    }
  }
  return out + BackingText(ReadingsOf(f, Variant::kSp), {});
}

std::string ExplainSparseJson(const SparseForm& f, int sel) {
  nlohmann::ordered_json j;
  j["kind"] = "sparse_mma";
  j["shape"] = std::string(f.shape);
  j["type"] = std::string(oracle::num::Name(f.type));
  j["selector"] = sel;
  j["k"] = f.k;
  j["chunk"] = f.chunk;
  j["kept"] = f.kept;
  j["meta_threads"] = f.meta_threads();
  j["max_selector"] = f.max_selector();
  j["a"] = nlohmann::ordered_json::array();
  j["b"] = nlohmann::ordered_json::array();
  j["cd"] = nlohmann::ordered_json::array();
  for (int lane = 0; lane < 32; ++lane) {
    for (int reg = 0; reg < f.a_regs; ++reg) {
      for (int pos = 0; pos < f.per_reg(); ++pos) {
        const AElement a = MapA(f, lane, reg, pos);
        j["a"].push_back({{"lane", lane},
                          {"reg", reg},
                          {"pos", pos},
                          {"row", a.row},
                          {"chunk", a.chunk},
                          {"first_col", a.chunk * f.chunk},
                          {"last_col", a.chunk * f.chunk + f.chunk - 1},
                          {"slot", a.slot}});
      }
    }
    for (int reg = 0; reg < f.b_regs; ++reg) {
      for (int pos = 0; pos < f.per_reg(); ++pos) {
        const Coord b = MapB(f, lane, reg, pos);
        j["b"].push_back(
            {{"lane", lane}, {"reg", reg}, {"pos", pos}, {"row", b.row}, {"col", b.col}});
      }
    }
    for (int i = 0; i < 4; ++i) {
      j["cd"].push_back(
          {{"lane", lane}, {"index", i}, {"row", MapCD(lane, i).row}, {"col", MapCD(lane, i).col}});
    }
  }
  j["metadata"] = nlohmann::ordered_json::array();
  if (sel >= 0 && sel <= f.max_selector()) {
    for (int row = 0; row < 16; ++row) {
      for (int chunk = 0; chunk < f.chunks_per_row(); ++chunk) {
        const MetaLocation m = MapMeta(f, sel, row, chunk);
        j["metadata"].push_back({{"row", row},
                                 {"chunk", chunk},
                                 {"first_col", chunk * f.chunk},
                                 {"last_col", chunk * f.chunk + f.chunk - 1},
                                 {"lane", m.lane},
                                 {"lsb", m.bit},
                                 {"msb", m.bit + 3}});
      }
    }
  }
  j["backing"] = BackingJson(ReadingsOf(f, Variant::kSp), {});
  return j.dump() + "\n";
}

int OracleDotStream(std::istream& in, std::ostream& out, std::ostream& err, Format ab, Format cd,
                    const oracle::num::DotParams& params, bool hex) {
  std::string line;
  LineReader lines(in);
  int line_no = 0;
  const auto fail = [&](const std::string& msg) {
    out.flush();
    err << oracle::ErrorLine("line " + std::to_string(line_no) + ": " + oracle::OneLine(msg));
    return 2;
  };
  const auto parse_hex = [](const nlohmann::json& v, int digits, uint64_t& bits) -> bool {
    if (!v.is_string()) return false;
    const std::string s = v.get<std::string>();
    if (static_cast<int>(s.size()) != digits) return false;
    auto r = oracle::ParseUint("0x" + s, ~uint64_t{0});
    if (!r.ok()) return false;
    bits = r.value();
    return true;
  };
  // One hex word of exactly `digits` digits.
  const auto word = [](std::string_view s, int digits, uint64_t& bits) {
    if (static_cast<int>(s.size()) != digits) return false;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), bits, 16);
    return ec == std::errc() && end == s.data() + s.size();
  };
  std::vector<std::string_view> words;
  std::vector<uint64_t> a, b;
  while (lines.Next(line)) {
    line_no = lines.line_no();
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    if (hex) {
      words.clear();
      const std::string_view v(line);
      for (std::size_t at = 0; (at = v.find_first_not_of(" \t\r", at)) != v.npos;) {
        const std::size_t end = std::min(v.find_first_of(" \t\r", at), v.size());
        words.push_back(v.substr(at, end - at));
        at = end;
      }
      if (words.size() % 2 == 0)
        return fail(std::to_string(words.size()) + " words: want A's K, B's K and C (2K + 1)");
      const std::size_t k = words.size() / 2;
      a.assign(k, 0);
      b.assign(k, 0);
      for (std::size_t x = 0; x < 2 * k; ++x) {
        if (!word(words[x], HexDigits(ab), x < k ? a[x] : b[x - k])) {
          return fail("word " + std::to_string(x + 1) + " is not " + std::to_string(HexDigits(ab)) +
                      " hex digits of " + std::string(oracle::num::Name(ab)));
        }
      }
      uint64_t c = 0;
      if (!word(words.back(), HexDigits(cd), c)) {
        return fail("the last word (C) is not " + std::to_string(HexDigits(cd)) +
                    " hex digits of " + std::string(oracle::num::Name(cd)));
      }
      // Bits above the format's width are refused, never dropped (the Python module alike).
      if (const auto wide = oracle::num::BitsAboveStorage(a, b, c, ab, cd)) return fail(*wide);
      const uint32_t d =
          oracle::num::DotProduct(a, b, static_cast<uint32_t>(c), ab, ab, cd, params);
      std::string d_text;
      oracle::AppendHexDigits(d_text, d, HexDigits(cd));
      out << d_text << '\n';
      continue;
    }
    const auto parsed = oracle::ParseJson(line);
    if (!parsed.ok()) return fail(parsed.error());
    const nlohmann::json& j = parsed.value();
    if (!j.is_object()) return fail("not a JSON object");
    for (const char* key : {"a", "b", "c"}) {
      if (!j.contains(key)) return fail(std::string("missing \"") + key + "\"");
    }
    for (const auto& [key, value] : j.items()) {  // a typo must not be answered as something else
      if (key != "a" && key != "b" && key != "c")
        return fail("unknown key \"" + oracle::OneLine(key, 64) +
                    "\" (a line holds \"a\", \"b\" and \"c\")");
    }
    if (!j["a"].is_array() || !j["b"].is_array()) return fail("\"a\" and \"b\" must be arrays");
    if (j["a"].size() != j["b"].size()) {
      return fail("\"a\" has " + std::to_string(j["a"].size()) + " values, \"b\" " +
                  std::to_string(j["b"].size()));
    }
    a.clear();
    b.clear();
    for (const auto& [arr, vec, name] :
         {std::tuple{&j["a"], &a, "a"}, std::tuple{&j["b"], &b, "b"}}) {
      for (std::size_t k = 0; k < arr->size(); ++k) {
        uint64_t bits = 0;
        if (!parse_hex((*arr)[k], HexDigits(ab), bits)) {
          return fail(std::string("\"") + name + "\"[" + std::to_string(k) + "] is not " +
                      std::to_string(HexDigits(ab)) + " hex digits of " +
                      std::string(oracle::num::Name(ab)));
        }
        vec->push_back(bits);
      }
    }
    uint64_t c = 0;
    if (!parse_hex(j["c"], HexDigits(cd), c)) {
      return fail("\"c\" is not " + std::to_string(HexDigits(cd)) + " hex digits of " +
                  std::string(oracle::num::Name(cd)));
    }
    if (const auto wide = oracle::num::BitsAboveStorage(a, b, c, ab, cd)) return fail(*wide);
    const uint32_t d = oracle::num::DotProduct(a, b, static_cast<uint32_t>(c), ab, ab, cd, params);
    std::string d_text;
    oracle::AppendHexDigits(d_text, d, HexDigits(cd));
    out << "{\"d\":\"" << d_text << "\"}\n";
  }
  if (!lines.error().empty()) {
    out.flush();
    err << oracle::ErrorLine(lines.error());
    return 2;
  }
  return 0;
}

int OracleCaptures(const std::string& dir, std::ostream& out) {
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) {
    std::cerr << oracle::ErrorLine("--dir: " + dir + " is not a folder");
    return 2;
  }
  const auto sets = FindCaptureSets(dir);
  if (sets.empty()) {
    out << "no hardware captures under " << oracle::OneLine(dir) << "\n";
    return 0;
  }
  int bad = 0;
  out << "| GPU | input | accumulator | model | claimed | lines matching |\n| --- | --- | --- | "
         "--- | --- | --- |\n";
  for (const CaptureSet& s : sets) {
    auto r = CheckCaptureSet(s);
    if (!r.ok()) {
      out << "| " << oracle::OneLine(s.gpu) << " | " << oracle::OneLine(s.format) << " | " << s.out
          << " | error: " << oracle::OneLine(r.error()) << " | | |\n";
      ++bad;
      continue;
    }
    const CaptureResult& c = r.value();
    out << "| " << oracle::OneLine(s.gpu) << " | " << oracle::OneLine(s.format) << " | " << s.out
        << " | " << c.target << " | " << (c.covered ? "yes" : "no") << " | " << c.matched << " / "
        << c.lines << " |\n";
    if (c.covered && c.matched != c.lines) ++bad;
  }
  return bad ? 1 : 0;
}

}  // namespace tcfuzz::suites
