#include "oracle/tile/descriptor_tile_text.h"

#include <algorithm>
#include <cstring>
#include <string>

namespace tcfuzz::oracle::tile {
namespace {

constexpr std::size_t kRunBytes = 64;  // image bytes per line (128 hex digits)

std::string AtLine(const TextEntry& e, const std::string& message) {
  return "line " + std::to_string(e.line) + ": " + e.key + ": " + message;
}

void AppendOperand(TextWriter& w, const std::string& p, const smem::SmemCase& c) {
  w.Add(p + "major", smem::Name(c.view.major)).Add(p + "dtype", smem::Name(c.view.dtype));
  w.AddInt(p + "rows", c.view.rows).AddHex(p + "desc", c.desc, 16);
  if (c.pattern_start) w.AddHex(p + "pattern_start", *c.pattern_start, 5);
}

Result<smem::SmemCase> ReadOperand(const TextDoc& doc, const std::string& p, smem::Arch arch,
                                   smem::Operand which) {
  using R = Result<smem::SmemCase>;
  smem::SmemCase c;
  c.arch = arch;
  c.operand = which;
  auto major = ParseEnumKey<smem::Major>(doc, p + "major", smem::ParseMajor);
  if (!major.ok()) return R::Fail(major.error());
  auto dtype = ParseEnumKey<smem::DType>(doc, p + "dtype", smem::ParseDType);
  if (!dtype.ok()) return R::Fail(dtype.error());
  auto rows = doc.Uint(p + "rows", 256);
  if (!rows.ok()) return R::Fail(rows.error());
  if (rows.value() == 0) return R::Fail(p + "rows: must be at least 1");
  auto desc = doc.Uint(p + "desc", ~uint64_t{0});
  if (!desc.ok()) return R::Fail(desc.error());
  c.view = smem::OperandView{major.value(), dtype.value(), static_cast<int>(rows.value()), 32};
  c.desc = desc.value();
  if (doc.Has(p + "pattern_start")) {
    auto s = doc.Uint(p + "pattern_start", smem::kSmemWindowBytes - 1);
    if (!s.ok()) return R::Fail(s.error());
    c.pattern_start = s.value();
  }
  return R::Ok(c);
}

// The first byte at or after `at` that is not the fill. An image is mostly fill: whole words of
// it are passed at once.
std::size_t SkipFill(const std::vector<uint8_t>& image, std::size_t at, uint8_t fill) {
  const uint64_t word = uint64_t{fill} * 0x0101010101010101;
  for (; at + 8 <= image.size(); at += 8) {
    uint64_t w;
    std::memcpy(&w, image.data() + at, 8);
    if (w != word) break;
  }
  while (at < image.size() && image[at] == fill) ++at;
  return at;
}

int HexDigit(char ch) {
  if (ch >= '0' && ch <= '9') return ch - '0';
  if (ch >= 'a' && ch <= 'f') return ch - 'a' + 10;
  if (ch >= 'A' && ch <= 'F') return ch - 'A' + 10;
  return -1;
}

}  // namespace

void AppendDescriptorTile(TextWriter& w, const DescriptorTile& t, uint8_t fill,
                          const std::vector<uint32_t>* observed) {
  w.Add("arch", smem::Name(t.a.arch)).Add("ab", num::Name(t.ab)).Add("b_type", num::Name(t.b_type));
  w.Add("d", num::Name(t.d)).AddInt("n", t.n);
  AppendOperand(w, "a.", t.a);
  AppendOperand(w, "b.", t.b);
  if (t.zero_column_mask) w.AddHex("zero_column_mask", *t.zero_column_mask, 16);
  if (t.sparse) {
    const int cpr = t.sparse->form->chunks_per_row();
    w.Add("sparse.form", t.sparse->form->Name()).AddInt("sparse.selector", t.sparse->selector);
    for (int r = 0; r * cpr < static_cast<int>(t.sparse->nibbles.size()); ++r) {
      const std::vector<uint64_t> row(t.sparse->nibbles.begin() + r * cpr,
                                      t.sparse->nibbles.begin() + (r + 1) * cpr);
      w.Add("sparse.meta." + std::to_string(r), HexRow(row, 1));
    }
  }
  w.AddInt("image.bytes", static_cast<int64_t>(t.image.size())).AddHex("image.fill", fill, 2);
  // Runs of bytes other than the fill, cut into lines of kRunBytes.
  for (std::size_t at = SkipFill(t.image, 0, fill); at < t.image.size();
       at = SkipFill(t.image, at, fill)) {
    std::string key = "image.";
    AppendHexDigits(key, at, 5);
    std::string bytes;
    const std::size_t from = at;
    while (at < t.image.size() && at - from < kRunBytes && t.image[at] != fill)
      AppendHexDigits(bytes, t.image[at++], 2);
    w.Add(key, bytes);
  }
  const int rows = t.a.view.rows;
  for (int r = 0; r < rows && !t.c.empty() && static_cast<std::size_t>((r + 1) * t.n) <= t.c.size();
       ++r) {
    const std::vector<uint64_t> row(t.c.begin() + r * t.n, t.c.begin() + (r + 1) * t.n);
    w.Add("c." + std::to_string(r), HexRow(row, num::StorageBits(t.d) / 4));
  }
  if (observed) {
    const int m = t.a.view.rows;
    for (int r = 0; r < m && static_cast<std::size_t>((r + 1) * t.n) <= observed->size(); ++r) {
      const std::vector<uint64_t> row(observed->begin() + r * t.n,
                                      observed->begin() + (r + 1) * t.n);
      w.Add("observed." + std::to_string(r), HexRow(row, 8));
    }
  }
}

Result<DescriptorTileFile> DescriptorTileFromDoc(const TextDoc& doc) {
  using R = Result<DescriptorTileFile>;
  const auto kind = doc.String("kind");
  if (!kind.ok() || kind.value() != kDescriptorTileKind)
    return R::Fail("not a " + std::string(kDescriptorTileKind) + " case");
  static const std::vector<std::string_view> kKeys = {"tool",
                                                      "kind",
                                                      "arch",
                                                      "ab",
                                                      "b_type",
                                                      "d",
                                                      "n",
                                                      "zero_column_mask",
                                                      "image.bytes",
                                                      "image.fill",
                                                      "a.major",
                                                      "a.dtype",
                                                      "a.rows",
                                                      "a.desc",
                                                      "a.pattern_start",
                                                      "b.major",
                                                      "b.dtype",
                                                      "b.rows",
                                                      "b.desc",
                                                      "b.pattern_start"};
  for (const TextEntry& e : doc.entries()) {
    const bool known = e.key.starts_with("origin.") || e.key.starts_with("image.") ||
                       e.key.starts_with("observed.") || e.key.starts_with("sparse.meta.") ||
                       e.key.starts_with("c.") || e.key == "sparse.form" ||
                       e.key == "sparse.selector" ||
                       std::find(kKeys.begin(), kKeys.end(), e.key) != kKeys.end();
    if (!known) return R::Fail(AtLine(e, "unknown key"));
  }
  DescriptorTileFile f;
  DescriptorTile& t = f.tile;
  auto arch = ParseEnumKey<smem::Arch>(doc, "arch", smem::ParseArch);
  if (!arch.ok()) return R::Fail(arch.error());
  for (auto [key, out] :
       {std::pair<const char*, num::Format*>{"ab", &t.ab}, {"b_type", &t.b_type}, {"d", &t.d}}) {
    auto v = ParseEnumKey<num::Format>(doc, key, num::ParseFormat);
    if (!v.ok()) return R::Fail(v.error());
    *out = v.value();
  }
  auto n = doc.Uint("n", 256);
  if (!n.ok()) return R::Fail(n.error());
  if (n.value() == 0) return R::Fail("n: must be at least 1");
  t.n = static_cast<int>(n.value());
  auto a = ReadOperand(doc, "a.", arch.value(), smem::Operand::kA);
  if (!a.ok()) return R::Fail(a.error());
  auto b = ReadOperand(doc, "b.", arch.value(), smem::Operand::kB);
  if (!b.ok()) return R::Fail(b.error());
  t.a = a.value();
  t.b = b.value();
  if (doc.Has("zero_column_mask")) {
    auto z = doc.Uint("zero_column_mask", ~uint64_t{0});
    if (!z.ok()) return R::Fail(z.error());
    t.zero_column_mask = z.value();
  }
  if (doc.Has("sparse.form")) {
    const std::string name = doc.String("sparse.form").value();
    const std::size_t dot = name.find('.');
    const auto type =
        dot == std::string::npos ? std::nullopt : num::ParseFormat(name.substr(dot + 1));
    TileSparse sp;
    sp.form = type ? sparse::FindForm(name.substr(0, dot), *type) : nullptr;
    if (sp.form == nullptr)
      return R::Fail(AtLine(*doc.Find("sparse.form"), "unknown form '" + name + "'"));
    if (sp.form->type != t.ab || sp.form->k * num::StorageBits(t.ab) != 64 * 8) {
      return R::Fail(
          AtLine(*doc.Find("sparse.form"), "the form must have ab's type and 64 bytes of K"));
    }
    auto sel = doc.Uint("sparse.selector", static_cast<uint64_t>(sp.form->max_selector()));
    if (!sel.ok()) return R::Fail(sel.error());
    sp.selector = static_cast<int>(sel.value());
    const int cpr = sp.form->chunks_per_row();
    for (int r = 0; r < t.a.view.rows; ++r) {
      auto row =
          ParseHexRow(doc, "sparse.meta." + std::to_string(r), static_cast<std::size_t>(cpr), 0xF);
      if (!row.ok()) return R::Fail(row.error());
      for (const uint64_t v : row.value()) sp.nibbles.push_back(static_cast<uint8_t>(v));
    }
    t.sparse = std::move(sp);
    t.b.view.kbytes = 64;  // B holds the whole K; A the kept half (32 bytes)
  }
  // What the harness's kernels can run: a hand-edited file fails here, with one line.
  const bool wgmma = arch.value() == smem::Arch::kSm90a;
  if (t.a.view.rows != (wgmma ? 64 : 128))
    return R::Fail("a.rows: M is 64 for wgmma (sm_90a) and 128 for tcgen05");
  if (t.n % 8 != 0) return R::Fail("n: must be a multiple of 8");
  if (t.b.view.rows != t.n) return R::Fail("b.rows: must equal n");
  if (smem::Name(t.a.view.dtype) != num::Name(t.ab)) return R::Fail("a.dtype: must be ab's type");
  if (smem::Name(t.b.view.dtype) != num::Name(t.b_type)) return R::Fail("b.dtype: must be b_type");
  if (t.zero_column_mask && wgmma)
    return R::Fail("zero_column_mask: tcgen05 (sm_100a, sm_103a) only");
  // tcgen05.mma.sp runs; .ws.sp (a sparse tile with a mask) has no kernel here.
  if (t.sparse && t.zero_column_mask)
    return R::Fail("sparse.form: no tcgen05.mma.ws.sp tiles (sparse with a zero_column_mask)");
  // Dynamic shared memory holds the image: 16-byte copies, at most 227 KiB a block (sm_90, sm_100).
  auto bytes = doc.Uint("image.bytes", 227 * 1024);
  if (!bytes.ok()) return R::Fail(bytes.error());
  if (bytes.value() % 16 != 0) return R::Fail("image.bytes: must be a multiple of 16");
  auto fill = doc.Uint("image.fill", 0xFF);
  if (!fill.ok()) return R::Fail(fill.error());
  f.fill = static_cast<uint8_t>(fill.value());
  t.image.assign(bytes.value(), f.fill);
  for (const TextEntry& e : doc.entries()) {
    if (!e.key.starts_with("image.") || e.key == "image.bytes" || e.key == "image.fill") continue;
    auto at = ParseUint("0x" + e.key.substr(6), smem::kSmemWindowBytes);
    if (!at.ok()) return R::Fail(AtLine(e, "the offset is not hex"));
    if (e.value.size() % 2 != 0 || e.value.empty())
      return R::Fail(AtLine(e, "an odd number of hex digits"));
    if (at.value() + e.value.size() / 2 > t.image.size())
      return R::Fail(AtLine(e, "runs past image.bytes"));
    for (std::size_t i = 0; i < e.value.size(); i += 2) {
      const int hi = HexDigit(e.value[i]), lo = HexDigit(e.value[i + 1]);
      if (hi < 0 || lo < 0)
        return R::Fail(AtLine(e, "not a hex byte at digit " + std::to_string(i)));
      t.image[at.value() + i / 2] = static_cast<uint8_t>(hi * 16 + lo);
    }
  }
  if (doc.Has("c.0")) {  // C: scale-d true
    const uint64_t max =
        num::StorageBits(t.d) >= 32 ? 0xFFFFFFFF : (uint64_t{1} << num::StorageBits(t.d)) - 1;
    for (int r = 0; r < t.a.view.rows; ++r) {
      auto row = ParseHexRow(doc, "c." + std::to_string(r), static_cast<std::size_t>(t.n), max);
      if (!row.ok()) return R::Fail(row.error());
      for (const uint64_t v : row.value()) t.c.push_back(static_cast<uint32_t>(v));
    }
    if (!wgmma) return R::Fail("c.0: a C operand is wgmma's (sm_90a) only here");
  }
  if (doc.Has("observed.0")) {
    std::vector<uint32_t> d;
    for (int r = 0; r < t.a.view.rows; ++r) {
      auto row = ParseHexRow(doc, "observed." + std::to_string(r), static_cast<std::size_t>(t.n),
                             0xFFFFFFFF);
      if (!row.ok()) return R::Fail(row.error());
      d.insert(d.end(), row.value().begin(), row.value().end());
    }
    f.observed = std::move(d);
  }
  return R::Ok(std::move(f));
}

}  // namespace tcfuzz::oracle::tile
