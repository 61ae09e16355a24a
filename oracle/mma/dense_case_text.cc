#include "oracle/mma/dense_case_text.h"

#include <algorithm>
#include <string>

#include "oracle/core/span.h"

namespace tcfuzz::oracle::mma {
namespace {

int Digits(num::Format f) { return (num::StorageBits(f) + 3) / 4; }

// Rows of `width` values from `values` under keys prefix.0, prefix.1, ...
void AddRows(TextWriter& w, const std::string& prefix, Span<const uint64_t> values,
             std::size_t width, int digits) {
  for (std::size_t r = 0; r * width < values.size(); ++r)
    w.Add(prefix + std::to_string(r), HexRow(values.subspan(r * width, width), digits));
}

Result<std::vector<uint64_t>> ReadRows(const TextDoc& doc, const std::string& prefix, int rows,
                                       std::size_t width, uint64_t max) {
  std::vector<uint64_t> out;
  for (int r = 0; r < rows; ++r) {
    auto row = ParseHexRow(doc, prefix + std::to_string(r), width, max);
    if (!row.ok()) return row;
    out.insert(out.end(), row.value().begin(), row.value().end());
  }
  return Result<std::vector<uint64_t>>::Ok(std::move(out));
}

}  // namespace

void AppendDenseCase(TextWriter& w, const DenseTile& t, const std::vector<uint32_t>* observed) {
  w.Add("form", t.form->Name()).Add("b_type", num::Name(t.b_type)).Add("cd", num::Name(t.cd));
  w.AddInt("satfinite", t.satfinite ? 1 : 0);
  const std::size_t k = static_cast<std::size_t>(t.form->k);
  AddRows(w, "a.", t.a, k, Digits(t.a_type));
  AddRows(w, "b.", t.b, 8, Digits(t.b_type));
  const std::vector<uint64_t> c(t.c.begin(), t.c.end());
  AddRows(w, "c.", c, 8, Digits(t.cd));
  if (observed && observed->size() == 128) {
    const std::vector<uint64_t> d(observed->begin(), observed->end());
    AddRows(w, "observed.", d, 8, Digits(t.cd));
  }
}

Result<DenseCaseFile> DenseCaseFromDoc(const TextDoc& doc) {
  using R = Result<DenseCaseFile>;
  for (const TextEntry& e : doc.entries()) {
    static const std::vector<std::string_view> kKeys = {"tool",   "kind", "form",
                                                        "b_type", "cd",   "satfinite"};
    const bool known = e.key.starts_with("origin.") || e.key.starts_with("a.") ||
                       e.key.starts_with("b.") || e.key.starts_with("c.") ||
                       e.key.starts_with("observed.") ||
                       std::find(kKeys.begin(), kKeys.end(), e.key) != kKeys.end();
    if (!known) return R::Fail("line " + std::to_string(e.line) + ": unknown key '" + e.key + "'");
  }
  auto form_name = doc.String("form");
  if (!form_name.ok()) return R::Fail(form_name.error());
  const std::string& fn = form_name.value();
  const std::size_t dot = fn.find('.');
  const auto type = dot == std::string::npos ? std::nullopt : num::ParseFormat(fn.substr(dot + 1));
  const DenseForm* f = type ? FindDenseForm(fn.substr(0, dot), *type) : nullptr;
  if (f == nullptr)
    return R::Fail("line " + std::to_string(doc.Find("form")->line) + ": unknown form '" + fn +
                   "'");
  DenseCaseFile out;
  DenseTile& t = out.tile;
  t.form = f;
  t.a_type = f->type;
  for (auto [key, dst] :
       {std::pair<const char*, num::Format*>{"b_type", &t.b_type}, {"cd", &t.cd}}) {
    auto v = ParseEnumKey(doc, key, num::ParseFormat);
    if (!v.ok()) return R::Fail(v.error());
    *dst = v.value();
  }
  // The pairs the instruction takes: B the form's type or its signedness / fp8 partner; D s32
  // for integers, f32 (or f16 for f16 inputs) for floats.
  const auto partner = [](num::Format x) {
    switch (x) {
      case num::Format::kS8:
        return num::Format::kU8;
      case num::Format::kU8:
        return num::Format::kS8;
      case num::Format::kS4:
        return num::Format::kU4;
      case num::Format::kU4:
        return num::Format::kS4;
      case num::Format::kE4M3:
        return num::Format::kE5M2;
      case num::Format::kE5M2:
        return num::Format::kE4M3;
      default:
        return x;
    }
  };
  if (t.b_type != f->type && t.b_type != partner(f->type))
    return R::Fail("b_type: not a B type of " + f->Name());
  const bool integer = !num::IsFloat(f->type);
  const bool cd_ok = integer ? t.cd == num::Format::kS32
                             : t.cd == num::Format::kF32 ||
                                   (t.cd == num::Format::kF16 && (f->type == num::Format::kF16 ||
                                                                  f->type == num::Format::kE4M3 ||
                                                                  f->type == num::Format::kE5M2));
  if (!cd_ok) return R::Fail("cd: not an accumulator of " + f->Name());
  auto sat = doc.Bool("satfinite");
  if (!sat.ok()) return R::Fail(sat.error());
  t.satfinite = sat.value();
  const uint64_t ab_max = 0xFFFFFFFF, cd_max = t.cd == num::Format::kF16 ? 0xFFFF : 0xFFFFFFFF;
  auto a = ReadRows(doc, "a.", 16, static_cast<std::size_t>(f->k), ab_max);
  auto b = ReadRows(doc, "b.", f->k, 8, ab_max);
  auto c = ReadRows(doc, "c.", 16, 8, cd_max);
  for (auto* x : {&a, &b, &c}) {
    if (!x->ok()) return R::Fail(x->error());
  }
  t.a = std::move(a).value();
  t.b = std::move(b).value();
  t.c.assign(c.value().begin(), c.value().end());
  if (doc.Has("observed.0")) {
    auto d = ReadRows(doc, "observed.", 16, 8, cd_max);
    if (!d.ok()) return R::Fail(d.error());
    out.observed = std::vector<uint32_t>(d.value().begin(), d.value().end());
  }
  return R::Ok(std::move(out));
}

}  // namespace tcfuzz::oracle::mma
