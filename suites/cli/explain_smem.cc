#include "suites/cli/explain_smem.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>

#include "oracle/core/text_format.h"
#include "oracle/tcgen05/smem_descriptor.h"
#include "oracle/wgmma/smem_descriptor.h"
#include "suites/cli/backing_output.h"

namespace tcfuzz::suites {
namespace {

using namespace oracle::smem;

std::span<const oracle::Field> FieldsOf(Arch arch) {
  if (arch == Arch::kSm90a) return oracle::wgmma::smem_field::kAll;
  return oracle::tcgen05::smem_field::kAll;
}

std::string Meaning(const oracle::Field& f, uint64_t raw, Arch arch) {
  const std::string n(f.name);
  if (n == "start_address" || n == "sbo" || (n == "lbo")) {
    return std::to_string(raw << 4) + " bytes (" + oracle::Hex(raw << 4, 5) + ")";
  }
  if (n == "swizzle") {
    if (arch == Arch::kSm90a) return std::string(Name(oracle::wgmma::SwizzleOfCode(raw)));
    const auto s = oracle::tcgen05::SwizzleOfCode(raw);
    return s ? std::string(Name(*s)) : "INVALID code";
  }
  if (n == "lbo_mode") return raw ? "absolute: LBO is an address" : "relative: LBO is an offset";
  if (n == "fixed_46_48") return raw == 1 ? "0b001 as required" : "must be 0b001";
  if (n == "base_offset") return "pattern row phase (0..7)";
  return raw ? "must be 0" : "";
}

std::string LayoutFormula(const SmemCase& c, const SmemMatrix& m) {
  const bool swz = m.swizzle != Swizzle::kNone;
  if (c.view.major == Major::kK) {
    return swz ? "((8,m),(T,2k)):((S*T,SBO),(1,T))  LBO only between K atoms (spec choice S2)"
               : "((8,m),(T,2k)):((1T,SBO),(1,LBO))";
  }
  if (m.swizzle == Swizzle::k128B32BAtom) {
    return "((T,8,m),(4,k)):((1,T,LBO),(8T,SBO))  4 K rows per atom, SBO between them (Table 55, "
           "spec choice S7)";
  }
  return swz ? "((T,S,m),(8,k)):((1,T,LBO),(S*T,SBO))" : "((T,1,m),(8,k)):((1,T,SBO),(1T,LBO))";
}

// Where the swizzle pattern is laid from: the anchor given, or the one a zero base offset implies
// (the repeat boundary at or below the start); nullopt without swizzle or when only a nonzero base
// offset is known (it names the anchor's row within a repeat, not the anchor).
std::optional<uint64_t> PatternAnchor(const SmemCase& c, const SmemMatrix& m) {
  if (m.swizzle == Swizzle::kNone) return std::nullopt;
  if (c.pattern_start) return c.pattern_start;
  if (m.base_offset != 0) return std::nullopt;
  const uint64_t repeat = static_cast<uint64_t>(SwizzleRepeatBytes(m.swizzle));
  return m.start / repeat * repeat;
}

std::string AnchorText(const SmemCase& c, const SmemMatrix& m, const oracle::Verdict& v) {
  if (m.swizzle == Swizzle::kNone) return {};
  const std::optional<uint64_t> anchor = PatternAnchor(c, m);
  std::string out = "pattern anchor: ";
  if (!anchor) {
    return out + "not given; base offset " + std::to_string(m.base_offset) +
           " says the pattern was laid from an address with (address >> 7) & 7 = " +
           std::to_string(m.base_offset) + " (--pattern-anchor checks it)\n";
  }
  out +=
      oracle::Hex(*anchor, 5) +
      (c.pattern_start ? " (given)"
                       : " (implied by base offset 0: the repeat boundary at or below the start)");
  if (m.start >= *anchor)
    out += "; the start is " + std::to_string(m.start - *anchor) + " bytes into the pattern";
  out += "\n";
  const uint64_t repeat = static_cast<uint64_t>(SwizzleRepeatBytes(m.swizzle));
  if (c.pattern_start && *c.pattern_start == m.start && m.start % repeat != 0 &&
      m.base_offset == 0 && v.Violates(smem_rule::kBaseOffsetValue.id)) {
    out +=
        "hint: the anchor given is the start address; a tile that starts inside a pattern laid "
        "from " +
        oracle::Hex(m.start / repeat * repeat, 5) + " has base offset 0 (--pattern-anchor " +
        oracle::Hex(m.start / repeat * repeat, 5) + ")\n";
  }
  return out;
}

std::string Hsl(int row, int unit) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "hsl(%d,65%%,%d%%)", (row * 47) % 360, unit % 2 ? 62 : 78);
  return buf;
}

}  // namespace

std::string ExplainSmemText(const SmemCase& c, const Explanation& e) {
  std::string out = std::string(c.arch == Arch::kSm90a ? "wgmma" : "tcgen05") +
                    " shared-memory descriptor " + oracle::Hex(c.desc, 16) + "  (" +
                    std::string(Name(c.arch)) + ", operand " + std::string(Name(c.operand)) + ", " +
                    std::string(Name(c.view.major)) + "-major " + std::string(Name(c.view.dtype)) +
                    ", " + std::to_string(c.view.rows) + " rows x " +
                    std::to_string(c.view.kbytes) + " K bytes)\n";
  out += "  field            bits       raw  meaning\n";
  for (const oracle::Field& f : FieldsOf(c.arch)) {
    char buf[200];
    const std::string bits = std::to_string(f.lsb) + "-" + std::to_string(f.msb);
    std::snprintf(buf, sizeof buf, "  %-16s %-6s %8llu  %s\n", std::string(f.name).c_str(),
                  bits.c_str(), static_cast<unsigned long long>(f.Get(c.desc)),
                  Meaning(f, f.Get(c.desc), c.arch).c_str());
    out += buf;
  }
  const std::optional<SmemMatrix>& m = e.matrix;
  if (m) {
    out += "layout: " + LayoutFormula(c, *m) + " o Swizzle (" + std::string(Name(m->swizzle)) +
           "), T = " + std::to_string(128 / StorageBits(c.view.dtype)) + " elements per 16 bytes\n";
  }
  const oracle::Verdict& v = e.verdict;
  if (m) out += AnchorText(c, *m, v);
  out += v.legal() ? "verdict: legal\n" : "verdict: ILLEGAL\n";
  for (const auto& x : v.violations()) {
    out += "  " + std::string(x.rule->id) + " (" + std::string(x.rule->section) +
           "): " + x.message + "\n";
  }
  const auto& map = e.map;
  if (!map.ok()) return out + "map: none (" + map.error() + ")\n";
  out += BackingText(e.readings, oracle::smem::BackingTarget(c.arch));
  const AddressMap& a = map.value();
  std::vector<uint64_t> sorted = a.bits;
  std::sort(sorted.begin(), sorted.end());
  const auto shared =
      sorted.size() -
      static_cast<std::size_t>(std::unique(sorted.begin(), sorted.end()) - sorted.begin());
  if (shared > 0) {
    out += "note: " + std::to_string(shared) +
           " elements land on a bit another element already uses: "
           "these strides make the layout overlap itself\n";
  }
  const int show_rows = std::min(a.rows, 16), show_cols = std::min(a.cols, 16);
  out += "map: byte address of element (row, k)";
  if (a.element_bits < 8) out += " (the byte holding its lowest bit)";
  out += "; first " + std::to_string(show_rows) + " rows x " + std::to_string(show_cols) +
         " K elements (--json for all)\n";
  out += "  row\\k";
  for (int k = 0; k < show_cols; ++k) {
    char buf[16];
    std::snprintf(buf, sizeof buf, " %6d", k);
    out += buf;
  }
  out += '\n';
  for (int r = 0; r < show_rows; ++r) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "  %5d", r);
    out += buf;
    for (int k = 0; k < show_cols; ++k) {
      char cellbuf[24];
      std::snprintf(cellbuf, sizeof cellbuf, " %6llx",
                    static_cast<unsigned long long>(a.Byte(r, k)));
      out += cellbuf;
    }
    out += '\n';
  }
  return out;
}

std::string ExplainSmemJson(const SmemCase& c, const Explanation& e) {
  nlohmann::ordered_json j;
  j["kind"] = "smem_descriptor";
  j["arch"] = std::string(Name(c.arch));
  nlohmann::ordered_json fields = nlohmann::ordered_json::object();
  for (const oracle::Field& f : FieldsOf(c.arch)) fields[std::string(f.name)] = f.Get(c.desc);
  j["fields"] = std::move(fields);
  const oracle::Verdict& v = e.verdict;
  if (const auto& m = e.matrix; m && PatternAnchor(c, *m)) {
    j["pattern_anchor"] = {{"address", *PatternAnchor(c, *m)},
                           {"given", c.pattern_start.has_value()}};
  } else {
    j["pattern_anchor"] = nullptr;
  }
  j["legal"] = v.legal();
  j["violations"] = nlohmann::ordered_json::array();
  for (const auto& x : v.violations()) {
    j["violations"].push_back({{"rule", std::string(x.rule->id)}, {"message", x.message}});
  }
  const auto& map = e.map;
  j["backing"] = map.ok() ? BackingJson(e.readings, oracle::smem::BackingTarget(c.arch))
                          : nlohmann::ordered_json(nullptr);
  if (map.ok()) {
    const AddressMap& a = map.value();
    j["addresses"] = nlohmann::ordered_json::array();
    for (int r = 0; r < a.rows; ++r) {
      nlohmann::ordered_json row = nlohmann::ordered_json::array();
      for (int k = 0; k < a.cols; ++k) row.push_back(a.Byte(r, k));
      j["addresses"].push_back(std::move(row));
    }
  } else {
    j["addresses"] = nullptr;
  }
  return j.dump() + "\n";
}

oracle::Result<std::string> SmemSvg(const SmemCase& c, const Explanation& e) {
  const auto& map = e.map;
  if (!map.ok()) return oracle::Result<std::string>::Fail(map.error());
  const AddressMap& a = map.value();
  const int eb = a.element_bits;
  const int t = 128 / StorageBits(c.view.dtype);
  // Which 128-byte lines hold elements, and the elements on each.
  std::map<uint64_t, std::vector<std::pair<int, int>>> lines;
  for (int r = 0; r < a.rows; ++r) {
    for (int k = 0; k < a.cols; ++k) lines[a.Bit(r, k) / 1024].push_back({r, k});
  }
  constexpr int kByte = 12, kLine = 22, kLeft = 70, kTop = 40;
  const int cell = std::max(1, eb * kByte / 8);
  std::string body;
  int y = kTop;
  uint64_t prev = ~uint64_t{0};
  for (const auto& [line, elems] : lines) {
    if (prev != ~uint64_t{0} && line != prev + 1) {
      body += "<text x=\"8\" y=\"" + std::to_string(y + 14) + "\" class=\"gap\">...</text>\n";
      y += kLine;
    }
    prev = line;
    body += "<text x=\"8\" y=\"" + std::to_string(y + 15) + "\" class=\"addr\">" +
            oracle::Hex(line * 128, 5) + "</text>\n";
    for (const auto& [r, k] : elems) {
      const uint64_t bit = a.Bit(r, k) - line * 1024;
      const int x = kLeft + static_cast<int>(bit * kByte / 8);
      body += "<rect x=\"" + std::to_string(x) + "\" y=\"" + std::to_string(y) + "\" width=\"" +
              std::to_string(cell) + "\" height=\"" + std::to_string(kLine - 2) + "\" fill=\"" +
              Hsl(r, k / t) + "\"><title>row " + std::to_string(r) + ", k " + std::to_string(k) +
              " @ byte " + oracle::Hex(a.Byte(r, k), 5) + "</title></rect>\n";
      if (cell >= 18) {
        body += "<text x=\"" + std::to_string(x + cell / 2) + "\" y=\"" + std::to_string(y + 9) +
                "\" class=\"lbl\">" + std::to_string(r) + "</text><text x=\"" +
                std::to_string(x + cell / 2) + "\" y=\"" + std::to_string(y + 18) +
                "\" class=\"lbl\">" + std::to_string(k) + "</text>\n";
      }
    }
    y += kLine;
  }
  const int width = kLeft + 128 * kByte + 10;
  std::string svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + std::to_string(width) +
                    "\" height=\"" + std::to_string(y + 10) + "\" font-family=\"monospace\">\n";
  svg +=
      "<style>.addr{font-size:11px}.gap{font-size:14px}.lbl{font-size:8px;text-anchor:middle}"
      ".title{font-size:13px}</style>\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  svg += "<text x=\"8\" y=\"18\" class=\"title\">" + std::string(Name(c.arch)) + " " +
         std::string(Name(c.view.major)) + "-major " + std::string(Name(c.view.dtype)) + " " +
         std::to_string(c.view.rows) + "x" + std::to_string(c.view.kbytes) + "B, desc " +
         oracle::Hex(c.desc, 16) +
         ": one line = 128 bytes; cell = element (row above k); hue = row, shade = 16-byte K "
         "unit</text>\n";
  for (int b = 0; b <= 128; b += 16) {
    svg += "<line x1=\"" + std::to_string(kLeft + b * kByte) + "\" y1=\"" +
           std::to_string(kTop - 4) + "\" x2=\"" + std::to_string(kLeft + b * kByte) + "\" y2=\"" +
           std::to_string(y) + "\" stroke=\"#888\" stroke-width=\"1\"/>\n";
  }
  return oracle::Result<std::string>::Ok(svg + body + "</svg>\n");
}

std::string EncodeSmemJson(Arch arch, const CanonicalLayout& l, uint64_t start) {
  const SmemMatrix m = MatrixFor(l, start);
  const Encoded e = EncodeMatrix(arch, m);
  nlohmann::ordered_json j;
  j["kind"] = "smem_encoding";
  j["arch"] = std::string(Name(arch));
  j["layout"] = CuteString(l);
  j["desc"] = oracle::Hex(e.desc, 16);
  j["start"] = m.start, j["lbo"] = m.lbo, j["sbo"] = m.sbo, j["base_offset"] = m.base_offset;
  j["swizzle"] = std::string(Name(m.swizzle));
  j["rows"] = LayoutRows(l), j["kbytes"] = LayoutKBytes(l);
  j["legal"] = e.verdict.legal();
  j["violations"] = nlohmann::ordered_json::array();
  for (const auto& x : e.verdict.violations())
    j["violations"].push_back({{"rule", std::string(x.rule->id)}, {"message", x.message}});
  return j.dump() + "\n";
}

std::string EncodeSmemText(Arch arch, const CanonicalLayout& l, uint64_t start) {
  const SmemMatrix m = MatrixFor(l, start);
  const Encoded e = EncodeMatrix(arch, m);
  std::string out = "layout " + CuteString(l) + " (" + std::string(Name(l.dtype)) + ") at " +
                    oracle::Hex(start, 5) + "\n";
  out += "  LBO " + std::to_string(m.lbo) + " bytes (field " + std::to_string(m.lbo >> 4) +
         "), SBO " + std::to_string(m.sbo) + " bytes (field " + std::to_string(m.sbo >> 4) +
         "), base offset " + std::to_string(m.base_offset) + ", swizzle " +
         std::string(Name(m.swizzle)) + "\n";
  out += "descriptor " + oracle::Hex(e.desc, 16) + " (" + std::string(Name(arch)) + ")\n";
  for (const auto& x : e.verdict.violations())
    out += "  " + std::string(x.rule->id) + ": " + x.message + "\n";
  out += "rows " + std::to_string(LayoutRows(l)) + ", K bytes " + std::to_string(LayoutKBytes(l)) +
         "\n";
  return out;
}

}  // namespace tcfuzz::suites
