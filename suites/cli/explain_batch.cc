#include "suites/cli/explain_batch.h"

#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>

#include "oracle/core/json_reader.h"
#include "oracle/core/text_format.h"
#include "oracle/smem/canonical_layout.h"
#include "oracle/smem/smem_case.h"
#include "oracle/sparse/sparse_form.h"
#include "oracle/tcgen05/zero_column_mask.h"
#include "suites/cli/explain_smem.h"
#include "suites/cli/explain_zcm.h"
#include "suites/cli/numerics_commands.h"
#include "suites/engine/line_reader.h"

namespace tcfuzz::suites {
namespace {

using Json = nlohmann::json;
using oracle::Result;

// One line's object, read key by key; the first problem is kept as the line's error.
class Line {
 public:
  explicit Line(const Json& j) : j_(j) {}
  const std::string& error() const { return error_; }

  std::string Text(const char* key) {
    if (!Need(key)) return "";
    if (!j_[key].is_string()) return Fail(std::string("\"") + key + "\" must be a string"), "";
    return j_[key].get<std::string>();
  }
  uint64_t Number(const char* key, uint64_t max) {
    if (!Need(key)) return 0;
    const Json& v = j_[key];
    if (v.is_number_unsigned()) {
      if (v.get<uint64_t>() <= max) return v.get<uint64_t>();
    } else if (v.is_string()) {
      if (auto r = oracle::ParseUint(v.get<std::string>(), max); r.ok()) return r.value();
    }
    Fail(std::string("\"") + key + "\" must be an integer in 0.." + std::to_string(max) +
         " (a JSON number or a \"0x...\" string)");
    return 0;
  }
  bool Flag(const char* key) {
    used_.insert(key);
    if (!j_.contains(key)) return false;
    if (!j_[key].is_boolean())
      return Fail(std::string("\"") + key + "\" must be true or false"), false;
    return j_[key].get<bool>();
  }
  bool Has(const char* key) {
    used_.insert(key);
    return j_.contains(key);
  }
  // After every key the kind reads: a key it did not read is a typo ("Sparse"), never ignored.
  void NoOtherKeys() {
    for (const auto& [key, value] : j_.items()) {
      if (!used_.count(key)) Fail("unknown key \"" + oracle::OneLine(key, 64) + "\"");
    }
  }
  template <class E>
  E Enum(const char* key, std::optional<E> (*parse)(std::string_view)) {
    const std::string s = Text(key);
    if (!error_.empty()) return E{};
    const auto v = parse(s);
    if (!v) return Fail(std::string("\"") + key + "\": unknown value '" + s + "'"), E{};
    return *v;
  }
  void Fail(const std::string& why) {
    if (error_.empty()) error_ = why;
  }

 private:
  bool Need(const char* key) {
    used_.insert(key);
    if (j_.contains(key)) return true;
    Fail(std::string("missing \"") + key + "\"");
    return false;
  }
  const Json& j_;
  std::string error_;
  std::set<std::string, std::less<>> used_;
};

Result<std::string> ExplainOne(const Json& j) {
  Line l(j);
  const std::string kind = l.Text("kind");
  if (kind == "smem") {
    namespace smem = oracle::smem;
    smem::SmemCase c;
    c.arch = l.Enum<smem::Arch>("arch", smem::ParseArch);
    c.operand = l.Enum<smem::Operand>("operand", smem::ParseOperand);
    c.view.major = l.Enum<smem::Major>("major", smem::ParseMajor);
    c.view.dtype = l.Enum<smem::DType>("dtype", smem::ParseDType);
    c.view.rows = static_cast<int>(l.Number("rows", 256));
    c.view.kbytes = static_cast<int>(l.Number("kbytes", 256));
    c.desc = l.Number("desc", ~uint64_t{0});
    if (l.Has("pattern_anchor"))
      c.pattern_start = l.Number("pattern_anchor", smem::kSmemWindowBytes - 1);
    l.NoOtherKeys();
    if (!l.error().empty()) return oracle::Error(l.error());
    if (auto ok = smem::CheckView(c.view); !ok.ok()) return oracle::Error(ok.error());
    return Result<std::string>::Ok(ExplainSmemJson(c, smem::Explain(c)));
  }
  if (kind == "zcm") {
    oracle::tcgen05::ZcmCase c;
    c.shape.m = static_cast<int>(l.Number("m", 1024));
    c.shape.n = static_cast<int>(l.Number("n", oracle::tcgen05::kMaxN));
    c.shape.sparse = l.Flag("sparse");
    if (l.Has("idesc")) c.shape.idesc = static_cast<uint32_t>(l.Number("idesc", 0xffffffffu));
    c.desc = l.Number("desc", ~uint64_t{0});
    l.NoOtherKeys();
    if (!l.error().empty()) return oracle::Error(l.error());
    if (c.shape.m < 1 || c.shape.n < 1) return oracle::Error("\"m\" and \"n\" must be positive");
    return Result<std::string>::Ok(ExplainZcmJson(c));
  }
  if (kind == "sparse") {
    namespace num = oracle::num;
    const std::string shape = l.Text("shape");
    const num::Format type = l.Enum<num::Format>("type", num::ParseFormat);
    const uint64_t selector = l.Has("selector") ? l.Number("selector", 3) : 0;
    l.NoOtherKeys();
    if (!l.error().empty()) return oracle::Error(l.error());
    const auto* form = oracle::sparse::FindForm(shape, type);
    if (form == nullptr)
      return oracle::Error("mma.sp has no " + oracle::OneLine(shape, 40) + " form for " +
                           std::string(num::Name(type)));
    if (static_cast<int>(selector) > form->max_selector())
      return oracle::Error("\"selector\": " + std::to_string(selector) + " is past this form's " +
                           std::to_string(form->max_selector()));
    return Result<std::string>::Ok(ExplainSparseJson(*form, static_cast<int>(selector)));
  }
  if (!l.error().empty()) return oracle::Error(l.error());
  return oracle::Error("\"kind\": unknown value '" + kind + "' (smem, zcm or sparse)");
}

Result<std::string> EncodeOne(const Json& j) {
  namespace smem = oracle::smem;
  Line l(j);
  const std::string kind = l.Text("kind");
  if (l.error().empty() && kind != "smem")
    return oracle::Error("\"kind\": unknown value '" + kind + "' (smem)");
  const smem::Arch arch = l.Enum<smem::Arch>("arch", smem::ParseArch);
  const smem::DType dtype = l.Enum<smem::DType>("dtype", smem::ParseDType);
  const std::string layout_text = l.Text("layout");
  const uint64_t start = l.Has("start") ? l.Number("start", smem::kSmemWindowBytes - 1) : 0;
  l.NoOtherKeys();
  if (!l.error().empty()) return oracle::Error(l.error());
  auto layout = smem::ParseCanonical(layout_text, dtype);
  if (!layout.ok()) return oracle::Error("\"layout\": " + layout.error());
  return Result<std::string>::Ok(EncodeSmemJson(arch, layout.value(), start));
}

int Batch(std::istream& in, std::ostream& out, std::ostream& err,
          Result<std::string> (*one)(const Json&)) {
  std::string text;
  LineReader lines(in);
  bool any_bad = false;
  while (lines.Next(text)) {
    const int line_no = lines.line_no();
    if (text.find_first_not_of(" \t\r") == std::string::npos) continue;
    const auto parsed = oracle::ParseJson(text);
    Result<std::string> r = !parsed.ok() ? Result<std::string>(oracle::Error(parsed.error()))
                            : !parsed.value().is_object()
                                ? Result<std::string>(oracle::Error("not a JSON object"))
                                : one(parsed.value());
    if (!r.ok()) {  // answered in its place; the rest are still answered
      any_bad = true;
      out << Json{{"line", line_no}, {"error", oracle::OneLine(r.error(), 1000)}}.dump() << "\n";
      continue;
    }
    out << r.value();
  }
  if (!lines.error().empty()) {
    out.flush();
    err << oracle::ErrorLine(lines.error());
    return 2;
  }
  return any_bad ? 1 : 0;
}

}  // namespace

int ExplainBatch(std::istream& in, std::ostream& out, std::ostream& err) {
  return Batch(in, out, err, ExplainOne);
}
int EncodeBatch(std::istream& in, std::ostream& out, std::ostream& err) {
  return Batch(in, out, err, EncodeOne);
}

}  // namespace tcfuzz::suites
