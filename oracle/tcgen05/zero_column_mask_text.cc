#include "oracle/tcgen05/zero_column_mask_text.h"

#include <algorithm>
#include <cctype>

#include "oracle/core/rule.h"
#include "oracle/core/verdict.h"

namespace tcfuzz::oracle::tcgen05 {
namespace {

bool IsProvenanceKey(std::string_view key) {
  return key.starts_with("origin.") || key.starts_with("finding.");
}

}  // namespace

void AppendZcmCase(TextWriter& w, const ZcmCase& c, const ZcmExpectation& expect) {
  w.AddInt("m", c.shape.m).AddInt("n", c.shape.n).AddInt("sparse", c.shape.sparse ? 1 : 0);
  if (c.shape.idesc) w.AddHex("idesc", *c.shape.idesc, 8);
  w.AddHex("desc", c.desc, 16);
  if (expect.mask_hex) w.Add("expect.mask", *expect.mask_hex);
  if (expect.rules)
    w.Add("expect.rules", JoinRuleIds({expect.rules->begin(), expect.rules->end()}));
}

std::string ZcmCaseToText(const ZcmCase& c, const ZcmExpectation& expect) {
  TextWriter w(kZcmKind);
  AppendZcmCase(w, c, expect);
  return w.str();
}

Result<ZcmCaseFile> ZcmCaseFromDoc(const TextDoc& doc) {
  using R = Result<ZcmCaseFile>;
  Result<std::string> kind = doc.String("kind");
  if (!kind.ok()) return R::Fail(kind.error());
  if (kind.value() != kZcmKind) {
    return R::Fail("line " + std::to_string(doc.Find("kind")->line) + ": kind '" + kind.value() +
                   "' is not " + std::string(kZcmKind));
  }
  for (const TextEntry& e : doc.entries()) {
    static const std::vector<std::string_view> kKeys = {
        "tool", "kind", "m", "n", "sparse", "idesc", "desc", "expect.mask", "expect.rules"};
    bool known = IsProvenanceKey(e.key);
    for (std::string_view k : kKeys) known = known || e.key == k;
    if (!known) return R::Fail("line " + std::to_string(e.line) + ": unknown key '" + e.key + "'");
  }
  ZcmCaseFile f;
  Result<uint64_t> m = doc.Uint("m", 1u << 16);
  if (!m.ok()) return R::Fail(m.error());
  Result<uint64_t> n = doc.Uint("n", 1u << 16);
  if (!n.ok()) return R::Fail(n.error());
  Result<bool> sparse = doc.Bool("sparse");
  if (!sparse.ok()) return R::Fail(sparse.error());
  Result<uint64_t> desc = doc.Uint("desc", ~uint64_t{0});
  if (!desc.ok()) return R::Fail(desc.error());
  f.c.desc = desc.value();
  f.c.shape.m = static_cast<int>(m.value());
  f.c.shape.n = static_cast<int>(n.value());
  f.c.shape.sparse = sparse.value();
  if (doc.Has("idesc")) {
    Result<uint64_t> idesc = doc.Uint("idesc", 0xffffffffu);
    if (!idesc.ok()) return R::Fail(idesc.error());
    f.c.shape.idesc = static_cast<uint32_t>(idesc.value());
  }
  if (const TextEntry* e = doc.Find("expect.mask")) {
    // A mask is up to 256 bits, one per column, compared with the hex the oracle prints (lower
    // case, (n + 3) / 4 digits): anything but hex digits after "0x" is a file error, never a
    // failing case; so is a bit past the case's n columns. Other widths read as the same number.
    std::string hex = e->value;
    const std::string_view digits = std::string_view(hex).substr(std::min<size_t>(2, hex.size()));
    const std::string at = "line " + std::to_string(e->line) + ": expect.mask ";
    if (!hex.starts_with("0x") || digits.empty() || digits.size() > 64 ||
        digits.find_first_not_of("0123456789abcdefABCDEF") != std::string_view::npos) {
      return R::Fail(at + "must be 0x and 1 to 64 hex digits");
    }
    for (char& c : hex) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    const std::size_t first = hex.find_first_not_of('0', 2);
    const std::size_t significant = first == std::string::npos ? 0 : hex.size() - first;
    const int columns = f.c.shape.n;
    if (columns <= 256) {  // a width MaskHex prints (wider cases have no mask to compare)
      if (significant > 0) {
        const char lead = hex[first];
        const auto nibble = static_cast<unsigned>(lead <= '9' ? lead - '0' : lead - 'a' + 10);
        const int top = 4 * static_cast<int>(significant - 1) + 31 - __builtin_clz(nibble);
        if (top >= columns)
          return R::Fail(at + "sets column " + std::to_string(top) +
                         ", past the case's n = " + std::to_string(columns));
      }
      const std::size_t width = std::max<std::size_t>(1, static_cast<std::size_t>(columns + 3) / 4);
      hex = "0x" + std::string(width - std::min(width, significant), '0') +
            (significant > 0 ? hex.substr(first) : "");
    }
    f.expect.mask_hex = hex;
  }
  if (const TextEntry* e = doc.Find("expect.rules")) {
    auto rules = ParseRuleIds(e->value);
    if (!rules.ok()) return R::Fail("line " + std::to_string(e->line) + ": " + rules.error());
    f.expect.rules = std::move(rules).value();
  }
  return R::Ok(std::move(f));
}

}  // namespace tcfuzz::oracle::tcgen05
