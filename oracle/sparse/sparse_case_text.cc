#include "oracle/sparse/sparse_case_text.h"

#include <algorithm>
#include <sstream>

#include "oracle/core/span.h"

namespace tcfuzz::oracle::sparse {
namespace {

int Digits(num::Format f) { return (num::StorageBits(f) + 3) / 4; }

}  // namespace

void AppendSparseCase(TextWriter& w, const SparseOp& op, const SparseTile& t,
                      const std::vector<uint32_t>* observed) {
  const SparseForm& f = *op.form;
  w.Add("form", f.Name()).Add("variant", op.variant == Variant::kOrdered ? "ordered" : "sp");
  w.AddInt("selector", op.selector).Add("b_type", num::Name(t.b_type)).Add("cd", num::Name(t.cd));
  w.AddInt("satfinite", t.satfinite ? 1 : 0);
  const int kept = f.k / 2, cpr = f.chunks_per_row();
  for (int r = 0; r < 16; ++r) {
    w.Add("a." + std::to_string(r),
          HexRow(Span<const uint64_t>(t.a).subspan(static_cast<std::size_t>(r * kept), kept),
                 Digits(t.a_type)));
  }
  for (int r = 0; r < 16; ++r) {
    std::vector<uint64_t> n(t.nibbles.begin() + r * cpr, t.nibbles.begin() + (r + 1) * cpr);
    w.Add("meta." + std::to_string(r), HexRow(n, 1));
  }
  for (int k = 0; k < f.k; ++k) {
    w.Add("b." + std::to_string(k),
          HexRow(Span<const uint64_t>(t.b).subspan(static_cast<std::size_t>(k * 8), 8),
                 Digits(t.b_type)));
  }
  const int cd_digits = t.cd == num::Format::kF16 ? 4 : 8;
  for (int r = 0; r < 16; ++r) {
    std::vector<uint64_t> c(t.c.begin() + r * 8, t.c.begin() + r * 8 + 8);
    w.Add("c." + std::to_string(r), HexRow(c, cd_digits));
  }
  if (observed) {
    for (int r = 0; r < 16; ++r) {
      std::vector<uint64_t> d(observed->begin() + r * 8, observed->begin() + r * 8 + 8);
      w.Add("observed." + std::to_string(r), HexRow(d, cd_digits));
    }
  }
}

Result<SparseCaseFile> SparseCaseFromDoc(const TextDoc& doc) {
  using R = Result<SparseCaseFile>;
  auto form_name = doc.String("form");
  if (!form_name.ok()) return R::Fail(form_name.error());
  const std::string& fn = form_name.value();
  const std::size_t dot = fn.find('.');
  const auto type = dot == std::string::npos ? std::nullopt : num::ParseFormat(fn.substr(dot + 1));
  const SparseForm* f = type ? FindForm(fn.substr(0, dot), *type) : nullptr;
  if (f == nullptr)
    return R::Fail("line " + std::to_string(doc.Find("form")->line) + ": unknown form '" + fn +
                   "'");
  SparseCaseFile out;
  out.op.form = f;
  auto variant = doc.String("variant");
  if (!variant.ok()) return R::Fail(variant.error());
  if (variant.value() != "ordered" && variant.value() != "sp")
    return R::Fail("variant must be ordered or sp");
  out.op.variant = variant.value() == "ordered" ? Variant::kOrdered : Variant::kSp;
  // Up to 15: a case that breaks mma_sp.selector holds one past the form's range (4 for f16 k16,
  // whose range is the whole 0..3 immediate); the device refuses what it cannot run.
  auto sel = doc.Uint("selector", 15);
  if (!sel.ok()) return R::Fail(sel.error());
  out.op.selector = static_cast<int>(sel.value());
  auto bt = doc.String("b_type");
  auto cd = doc.String("cd");
  if (!bt.ok() || !cd.ok()) return R::Fail(!bt.ok() ? bt.error() : cd.error());
  const auto b_type = num::ParseFormat(bt.value());
  const auto cd_type = num::ParseFormat(cd.value());
  if (!b_type || !cd_type) return R::Fail("unknown b_type or cd");
  auto sat = doc.Bool("satfinite");
  if (!sat.ok()) return R::Fail(sat.error());
  SparseTile& t = out.tile;
  t.form = f;
  t.a_type = f->type;
  t.b_type = *b_type;
  t.cd = *cd_type;
  t.satfinite = sat.value();
  const int kept = f->k / 2, cpr = f->chunks_per_row();
  const uint64_t cd_max = t.cd == num::Format::kF16 ? 0xFFFF : 0xFFFFFFFF;
  for (int r = 0; r < 16; ++r) {
    auto a = ParseHexRow(doc, "a." + std::to_string(r), static_cast<std::size_t>(kept), 0xFFFFFFFF);
    auto m = ParseHexRow(doc, "meta." + std::to_string(r), static_cast<std::size_t>(cpr), 0xF);
    auto c = ParseHexRow(doc, "c." + std::to_string(r), 8, cd_max);
    for (auto* x : {&a, &m, &c}) {
      if (!x->ok()) return R::Fail(x->error());
    }
    t.a.insert(t.a.end(), a.value().begin(), a.value().end());
    for (uint64_t n : m.value()) t.nibbles.push_back(static_cast<uint8_t>(n));
    for (uint64_t v : c.value()) t.c.push_back(static_cast<uint32_t>(v));
  }
  for (int k = 0; k < f->k; ++k) {
    auto b = ParseHexRow(doc, "b." + std::to_string(k), 8, 0xFFFFFFFF);
    if (!b.ok()) return R::Fail(b.error());
    t.b.insert(t.b.end(), b.value().begin(), b.value().end());
  }
  if (out.op.selector <= f->max_selector()) {
    for (int r = 0; r < 16; ++r) {
      for (int ch = 0; ch < cpr; ++ch)
        SetNibble(out.op, r, ch, t.nibbles[static_cast<std::size_t>(r * cpr + ch)]);
    }
  }
  if (doc.Has("observed.0")) {
    std::vector<uint32_t> d;
    for (int r = 0; r < 16; ++r) {
      auto row = ParseHexRow(doc, "observed." + std::to_string(r), 8, cd_max);
      if (!row.ok()) return R::Fail(row.error());
      for (uint64_t v : row.value()) d.push_back(static_cast<uint32_t>(v));
    }
    out.observed = std::move(d);
  }
  return R::Ok(std::move(out));
}

}  // namespace tcfuzz::oracle::sparse
