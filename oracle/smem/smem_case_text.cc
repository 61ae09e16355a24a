#include "oracle/smem/smem_case_text.h"

#include <algorithm>

namespace tcfuzz::oracle::smem {
namespace {

std::string AtLine(const TextEntry* e, const std::string& message) {
  return "line " + std::to_string(e->line) + ": " + message;
}

}  // namespace

void AppendSmemCase(TextWriter& w, const SmemCase& c,
                    const std::optional<std::vector<std::string>>& expect_rules) {
  w.Add("arch", Name(c.arch)).Add("operand", Name(c.operand)).Add("major", Name(c.view.major));
  w.Add("dtype", Name(c.view.dtype)).AddInt("rows", c.view.rows).AddInt("kbytes", c.view.kbytes);
  w.AddHex("desc", c.desc, 16);
  if (c.pattern_start) w.AddHex("pattern_start", *c.pattern_start, 5);
  if (expect_rules)
    w.Add("expect.rules", JoinRuleIds({expect_rules->begin(), expect_rules->end()}));
}

Result<SmemCaseFile> SmemCaseFromDoc(const TextDoc& doc) {
  using R = Result<SmemCaseFile>;
  if (doc.String("kind").value() != kSmemKind) {
    return R::Fail(AtLine(doc.Find("kind"), "kind '" + doc.String("kind").value() + "' is not " +
                                                std::string(kSmemKind)));
  }
  for (const TextEntry& e : doc.entries()) {
    static const std::vector<std::string_view> kKeys = {
        "tool", "kind",   "arch", "operand",       "major",       "dtype",
        "rows", "kbytes", "desc", "pattern_start", "expect.rules"};
    const bool known = e.key.starts_with("origin.") || e.key.starts_with("finding.") ||
                       std::find(kKeys.begin(), kKeys.end(), e.key) != kKeys.end();
    if (!known) return R::Fail(AtLine(&e, "unknown key '" + e.key + "'"));
  }
  SmemCaseFile f;
  auto arch = ParseEnumKey<Arch>(doc, "arch", ParseArch);
  if (!arch.ok()) return R::Fail(arch.error());
  auto operand = ParseEnumKey<Operand>(doc, "operand", ParseOperand);
  if (!operand.ok()) return R::Fail(operand.error());
  auto major = ParseEnumKey<Major>(doc, "major", ParseMajor);
  if (!major.ok()) return R::Fail(major.error());
  auto dtype = ParseEnumKey<DType>(doc, "dtype", ParseDType);
  if (!dtype.ok()) return R::Fail(dtype.error());
  auto rows = doc.Uint("rows", 1u << 16);
  if (!rows.ok()) return R::Fail(rows.error());
  auto kbytes = doc.Uint("kbytes", 1u << 16);
  if (!kbytes.ok()) return R::Fail(kbytes.error());
  auto desc = doc.Uint("desc", ~uint64_t{0});
  if (!desc.ok()) return R::Fail(desc.error());
  f.c.arch = arch.value();
  f.c.operand = operand.value();
  f.c.view = OperandView{major.value(), dtype.value(), static_cast<int>(rows.value()),
                         static_cast<int>(kbytes.value())};
  f.c.desc = desc.value();
  if (doc.Has("pattern_start")) {
    auto p = doc.Uint("pattern_start", kSmemWindowBytes - 1);
    if (!p.ok()) return R::Fail(p.error());
    f.c.pattern_start = p.value();
  }
  if (const TextEntry* e = doc.Find("expect.rules")) {
    auto rules = ParseRuleIds(e->value);
    if (!rules.ok()) return R::Fail(AtLine(e, rules.error()));
    f.expect_rules = std::move(rules).value();
  }
  return R::Ok(std::move(f));
}

}  // namespace tcfuzz::oracle::smem
