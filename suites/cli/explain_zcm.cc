#include "suites/cli/explain_zcm.h"

#include <cstdio>
#include <nlohmann/json.hpp>

#include "oracle/core/text_format.h"
#include "suites/cli/backing_output.h"

namespace tcfuzz::suites {
namespace {

using oracle::tcgen05::ZcmCase;
using oracle::tcgen05::ZeroColumnMask;
namespace zf = oracle::tcgen05::zcm_field;

std::string Line(const oracle::Field& f, uint64_t raw, const std::string& meaning) {
  char buf[160];
  const std::string bits =
      f.lsb == f.msb ? std::to_string(f.lsb) : std::to_string(f.lsb) + "-" + std::to_string(f.msb);
  std::snprintf(buf, sizeof buf, "  %-15s %-6s %5llu  %s\n", std::string(f.name).c_str(),
                bits.c_str(), static_cast<unsigned long long>(raw), meaning.c_str());
  return buf;
}

// The mask as rows of 64 cells: '#' zeroed, '.' B used, '|' at sub-mask boundaries.
std::string DrawMask(const oracle::tcgen05::ZcmExpansion& e) {
  std::string out;
  for (int row = 0; row < e.n; row += 64) {
    char head[32];
    std::snprintf(head, sizeof head, "  cols %3d-%3d  ", row, std::min(row + 63, e.n - 1));
    out += head;
    for (int j = row; j < std::min(row + 64, e.n); ++j) {
      for (int i = 1; i < e.sub_masks; ++i) {
        if (e.boundary[i] == j && j != row) out += '|';
      }
      out += e.mask[static_cast<std::size_t>(j)] ? '#' : '.';
    }
    out += '\n';
  }
  return out;
}

}  // namespace

std::string ExplainZcmText(const ZcmCase& c) {
  const ZeroColumnMask z = oracle::tcgen05::DecodeZeroColumnMask(c.desc);
  const bool examples =
      oracle::spec_choice::kZcmSpans == oracle::spec_choice::ZcmSpanMeaning::kWorkedExamples;
  std::string out = "tcgen05 zero-column mask " + oracle::Hex(c.desc, 16) +
                    "  (M = " + std::to_string(c.shape.m) + ", N = " + std::to_string(c.shape.n) +
                    (c.shape.sparse ? ", tcgen05.mma.ws.sp" : ", tcgen05.mma.ws") +
                    (c.shape.idesc ? ", idesc " + oracle::Hex(*c.shape.idesc, 8) : "") + ")\n";
  out += "  field           bits     raw  meaning\n";
  const int k = oracle::tcgen05::SubMaskCount(c.shape.m);
  for (int i = 0; i < 4; ++i) {
    out += Line(zf::kStartCount[i], z.start_count[i],
                i < k ? "sub-mask " + std::to_string(i) + " skips its first " +
                            std::to_string(z.start_count[i]) + " pattern positions"
                      : "unused at this M");
  }
  for (int i = 0; i < 4; ++i) {
    out += Line(zf::kFirstSpan[i], z.first_span[i],
                i < k ? std::string("sub-mask ") + std::to_string(i) + " pattern starts with " +
                            (z.first_span[i] ? "zeroed columns" : "B columns")
                      : "unused at this M");
  }
  out += Line(zf::kReserved36, z.reserved_36_38, "reserved");
  out += Line(zf::kNonZeroMask, z.non_zero_mask,
              z.non_zero_mask ? "generate the mask" : "mask is all 0s: every B column used");
  out += Line(zf::kSkipSpan, z.skip_span,
              std::to_string(z.skip_span + 1) + (examples ? " zeroed" : " B-used") +
                  " columns per run (spec choice Z1)");
  out += Line(zf::kUseSpan, z.use_span,
              std::to_string(z.use_span + 1) + (examples ? " B-used" : " zeroed") +
                  " columns per run (spec choice Z1)");
  out += Line(zf::kColumnShift, z.column_shift,
              "D column j reads B column j + " + std::to_string(z.column_shift));
  out += Line(zf::kReserved62, z.reserved_62_63, "not in Table 45: reserved");
  const oracle::Verdict v = oracle::tcgen05::Validate(c);
  out += v.legal() ? "verdict: legal\n" : "verdict: ILLEGAL\n";
  for (const auto& violation : v.violations()) {
    out += "  " + std::string(violation.rule->id) + " (" + std::string(violation.rule->section) +
           "): " + violation.message + "\n";
  }
  const auto e = oracle::tcgen05::Expand(c.desc, c.shape.m, c.shape.n);
  if (!e) {
    out += "mask: none (M must be 32, 64 or 128 and N 1..256 to expand)\n";
    return out;
  }
  out += "mask " + e->MaskHex() + " (bit j = column j; '#' zeroed, '.' B used, '|' sub-mask)\n";
  out += DrawMask(*e);
  return out + BackingText(oracle::tcgen05::ReadingsOf(c), "sm_100");
}

std::string ExplainZcmJson(const ZcmCase& c) {
  const ZeroColumnMask z = oracle::tcgen05::DecodeZeroColumnMask(c.desc);
  nlohmann::ordered_json j;
  j["kind"] = "zero_column_mask";
  j["m"] = c.shape.m;
  j["n"] = c.shape.n;
  nlohmann::ordered_json fields;
  fields["sc"] = nlohmann::ordered_json::array();
  fields["fs"] = nlohmann::ordered_json::array();
  for (int i = 0; i < 4; ++i) {
    fields["sc"].push_back(z.start_count[i]);
    fields["fs"].push_back(z.first_span[i]);
  }
  fields["non_zero_mask"] = z.non_zero_mask;
  fields["skip_span"] = z.skip_span;
  fields["use_span"] = z.use_span;
  fields["shift"] = z.column_shift;
  j["fields"] = std::move(fields);
  const oracle::Verdict v = oracle::tcgen05::Validate(c);
  j["legal"] = v.legal();
  j["violations"] = nlohmann::ordered_json::array();
  for (const auto& violation : v.violations()) {
    j["violations"].push_back(
        {{"rule", std::string(violation.rule->id)}, {"message", violation.message}});
  }
  const auto e = oracle::tcgen05::Expand(c.desc, c.shape.m, c.shape.n);
  if (e) {
    j["mask"] = e->MaskHex();
    j["b_columns"] = nlohmann::ordered_json::array();
    for (int b : e->b_column) {
      if (b < 0) {
        j["b_columns"].push_back(nullptr);
      } else {
        j["b_columns"].push_back(b);
      }
    }
    j["backing"] =
        BackingJson(oracle::tcgen05::ReadingsOf(c), "sm_100");  // tcgen05.mma.ws: sm_100a
  } else {
    j["mask"] = nullptr;
    j["b_columns"] = nullptr;
    j["backing"] = nullptr;
  }
  return j.dump() + "\n";
}

}  // namespace tcfuzz::suites
