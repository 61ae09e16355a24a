#include "harness/emulator/smem_mma_emulator.h"

#include <algorithm>
#include <cstdio>
#include <tuple>
#include <utility>

#include "oracle/core/text_format.h"
#include "oracle/numerics/targets.h"
#include "oracle/smem/smem_case.h"
#include "oracle/smem/swizzle.h"
#include "oracle/sparse/sparse_metadata.h"
#include "oracle/tcgen05/instr_descriptor.h"
#include "oracle/tcgen05/zero_column_mask.h"
#include "oracle/tile/descriptor_tile.h"

namespace tcfuzz::harness::emulator {

using oracle::num::Format;
using oracle::smem::Major;
using oracle::smem::OperandView;
using oracle::smem::SmemMatrix;

namespace {

namespace idf = oracle::tcgen05::idesc_field;

// Table 42's type codes of each kind (PTX 9.1 §9.7.16.4.2); nullopt for a code the kind lacks.
std::optional<Format> KindType(std::string_view kind, uint32_t code) {
  if (kind == "f16") {
    if (code == 0) return Format::kF16;
    if (code == 1) return Format::kBF16;
  } else if (kind == "tf32") {
    if (code == 2) return Format::kTF32;
  } else if (kind == "f8f6f4") {
    static constexpr std::pair<uint32_t, Format> kCodes[] = {{0, Format::kE4M3},
                                                             {1, Format::kE5M2},
                                                             {3, Format::kE2M3},
                                                             {4, Format::kE3M2},
                                                             {5, Format::kE2M1}};
    for (const auto& [c, f] : kCodes)
      if (c == code) return f;
  } else if (kind == "i8") {
    if (code == 0) return Format::kU8;
    if (code == 1) return Format::kS8;
  }
  return std::nullopt;
}

std::optional<Format> DType(uint32_t code) {
  static constexpr Format kD[] = {Format::kF16, Format::kF32, Format::kS32};
  return code < 3 ? std::optional<Format>(kD[code]) : std::nullopt;
}

oracle::Result<Format> TypeNamed(const char* text, const char* which) {
  const auto t = text ? oracle::num::ParseFormat(text) : std::nullopt;
  if (!t)
    return oracle::Result<Format>::Fail(std::string("no ") + which + " type '" +
                                        (text ? text : "(null)") + "'");
  return oracle::Result<Format>::Ok(*t);
}

oracle::smem::DType StorageType(Format f) {
  return oracle::smem::ParseDType(oracle::num::Name(f)).value_or(oracle::smem::DType::kF16);
}

Major Other(Major m) { return m == Major::kK ? Major::kMN : Major::kK; }

}  // namespace

oracle::Result<SmemMmaForm> DecodeSmemMma(const tcfuzz_smem_mma& call, uint32_t tile,
                                          std::string_view target, const Mutant& mutant) {
  using R = oracle::Result<SmemMmaForm>;
  SmemMmaForm f;
  f.mutant = mutant;
  const std::string_view family = call.family ? call.family : "";
  const std::string_view ins = call.instruction ? call.instruction : "";
  const auto t = oracle::num::FindTarget(target);
  if (!t.ok()) return R::Fail(t.error());
  const std::string_view base = t.value().target;
  const bool arch_specific = target.ends_with('a') || target.ends_with('f');
  Products& p = f.products;
  bool sparse = false;
  int shape_k = 0;  // wgmma: the K its shape names
  if (family == "wgmma") {
    if (base != "sm_90" || !arch_specific)
      return R::Fail("wgmma.mma_async is an instruction of sm_90a, not " + std::string(target));
    for (auto [into, text, which] :
         {std::tuple{&p.a, call.a_type, "A"}, std::tuple{&p.b, call.b_type, "B"},
          std::tuple{&p.cd, call.d_type, "D"}}) {
      const auto ty = TypeNamed(text, which);
      if (!ty.ok()) return R::Fail(ty.error());
      *into = ty.value();
    }
    const std::string shape = call.shape ? call.shape : "";
    int m = 0, n = 0, k = 0;
    if (std::sscanf(shape.c_str(), "m%dn%dk%d", &m, &n, &k) != 3 || m != 64 || n < 8 || n > 256 ||
        n % 8 != 0)
      return R::Fail("no wgmma shape '" + shape + "'");
    f.m = m, f.n = n, shape_k = k;
    f.a_major = call.trans_a ? Major::kMN : Major::kK;
    f.b_major = call.trans_b ? Major::kMN : Major::kK;
    sparse = call.sparse != 0;
    f.selector = call.selector;
  } else if (family == "tcgen05") {
    if (!base.starts_with("sm_10") || !arch_specific)
      return R::Fail("tcgen05.mma is an instruction of the sm_100a family, not " +
                     std::string(target));
    if (call.idesc == nullptr) return R::Fail("tcgen05.mma without an instruction descriptor");
    f.tcgen05 = true;
    f.arch = oracle::smem::Arch::kSm100a;
    const uint32_t idesc = call.idesc[tile];
    const std::size_t at = ins.find("kind::");
    const std::string_view kind =
        at == std::string_view::npos
            ? ""
            : ins.substr(at + 6, ins.find_first_of(" .;", at + 6) - at - 6);
    const auto a = KindType(kind, static_cast<uint32_t>(idf::kAType.Get(idesc)));
    const auto b = KindType(kind, static_cast<uint32_t>(idf::kBType.Get(idesc)));
    const auto d = DType(static_cast<uint32_t>(idf::kDType.Get(idesc)));
    if (!a || !b || !d)
      return R::Fail("instruction descriptor " + oracle::Hex(idesc, 8) +
                     ": no A, B or D type of kind::" + std::string(kind));
    if (*d == Format::kF16)
      return R::Fail("f16 D in tensor memory is not modelled (its column packing is unread)");
    p.a = *a, p.b = *b, p.cd = *d;
    const oracle::tcgen05::InstrDescriptor id{idesc};
    f.m = id.m();
    f.n = id.n();
    if (f.m != 128 || f.n < 8 || f.n > 256)
      return R::Fail("tcgen05.mma M = " + std::to_string(f.m) + ", N = " + std::to_string(f.n) +
                     ": the emulator executes M = 128 and N of 8..256");
    bool ta = idf::kTransposeA.Get(idesc) != 0, tb = idf::kTransposeB.Get(idesc) != 0;
    if (mutant.At("idesc.transpose_swapped")) std::swap(ta, tb);
    f.a_major = ta ? Major::kMN : Major::kK;
    f.b_major = tb ? Major::kMN : Major::kK;
    sparse = idf::kSparsity.Get(idesc) != 0;
    f.selector = static_cast<int>(idf::kSparseSelector.Get(idesc));
    f.ws = call.zero_column_mask != nullptr;
    p.satfinite = idf::kSaturate.Get(idesc) != 0;
  } else {
    return R::Fail("no instruction family '" + std::string(family) + "' (wgmma or tcgen05)");
  }
  f.k = (sparse ? 64 : 32) * 8 / oracle::num::StorageBits(p.a);  // 32 bytes, twice when sparse
  if (shape_k != 0 && shape_k != f.k)
    return R::Fail("wgmma shape K " + std::to_string(shape_k) + " is not 32 bytes of " +
                   std::string(oracle::num::Name(p.a)) + (sparse ? " (64, sparse)" : ""));
  if (sparse) {
    f.sparse = oracle::sparse::FindForm("m16n8k" + std::to_string(f.k), p.a);
    if (f.sparse == nullptr)
      return R::Fail("no sparse form of K = " + std::to_string(f.k) + " for " +
                     std::string(oracle::num::Name(p.a)));
  }
  if (mutant.At("layout.transpose_a")) f.a_major = Other(f.a_major);
  if (mutant.At("layout.transpose_b")) f.b_major = Other(f.b_major);
  if (oracle::num::IsFloat(p.a)) {
    const auto instr = f.tcgen05 ? oracle::num::Instr::kTcgen05 : oracle::num::Instr::kWgmma;
    const auto row =
        t.value().row ? oracle::num::ParamsFor(*t.value().row, instr, p.a, p.cd) : std::nullopt;
    p.params = row.value_or(oracle::num::ExactParams(p.cd));  // as warp_mma_emulator.h
    PlantNumerics(mutant, p.a, p.cd, p.params);
  }
  return R::Ok(std::move(f));
}

std::optional<SmemMatrix> DecodeDescriptor(const SmemMmaForm& f, uint64_t desc) {
  auto m = oracle::smem::DecodeMatrix(f.arch, desc);
  if (!m) return m;
  const Mutant& x = f.mutant;
  if (x.At("descriptor.lbo_sbo_swapped")) std::swap(m->lbo, m->sbo);
  if (x.At("descriptor.base_offset_ignored")) m->base_offset = 0;
  if (const int64_t bits = x.At("descriptor.start_aligned"))
    m->start &= ~((uint64_t{1} << bits) - 1);
  if (x.At("descriptor.lbo_mode_inverted") && f.tcgen05) m->lbo_absolute = !m->lbo_absolute;
  return m;
}

OperandView ViewOf(const SmemMmaForm& f, bool b, int rows) {
  OperandView v;
  v.major = b ? f.b_major : f.a_major;
  v.dtype = StorageType(b ? f.products.b : f.products.a);
  v.rows = rows;
  v.kbytes = b && f.sparse ? 64 : 32;  // A holds the kept half of a sparse K
  return v;
}

uint64_t AddressOfElement(const SmemMmaForm& f, const SmemMatrix& m, const OperandView& v, int row,
                          int k) {
  const auto krows = f.mutant.At("layout.atom_k_rows")
                         ? oracle::spec_choice::Base32BAtomKRows::kEightAsOtherModes
                         : oracle::spec_choice::kBase32BAtomKRows;
  SmemMatrix relative = m;
  if (m.lbo_absolute) relative.lbo = 0;  // the field is an address, not a stride
  uint64_t base = m.start;
  uint64_t off = oracle::smem::CanonicalOffsetBits(relative, v, row, 0, krows);
  const uint64_t k_off = oracle::smem::CanonicalOffsetBits(relative, v, 0, k, krows);
  // Absolute LBO mode (spec choice S4): the K bytes past the start's 128-byte boundary are read
  // from the LBO address.
  const uint64_t first_part = m.lbo_absolute ? (128 - m.start % 128) * 8 : ~uint64_t{0};
  off += k_off;
  if (k_off >= first_part) {
    base = m.lbo;
    off -= first_part;
  }
  // Swizzle: the functor's XORed bits, the row phase counted from the pattern start (S1).
  const uint64_t byte = base + off / 8;
  oracle::smem::SwizzleFunctor sw = oracle::smem::FunctorOf(m.swizzle);
  if (sw.b > 0)
    sw.b = std::clamp<int>(sw.b + static_cast<int>(f.mutant.At("swizzle.xor_bits")), 0, 4);
  uint64_t swizzled = byte;
  if (sw.b > 0) {
    const uint64_t mask = (uint64_t{1} << sw.b) - 1;
    const uint64_t phase = ((byte >> (sw.m + sw.s)) - static_cast<uint64_t>(m.base_offset)) & mask;
    swizzled = byte ^ (phase << sw.m);
  }
  return swizzled * 8 + off % 8;
}

std::vector<uint64_t> ReadOperand(const SmemMmaForm& f, const SmemMatrix& m, const OperandView& v,
                                  const uint8_t* image, uint32_t image_bytes) {
  const int bits = oracle::smem::StorageBits(v.dtype);
  const int cols = v.kbytes * 8 / bits;
  std::vector<uint64_t> out(static_cast<std::size_t>(v.rows) * static_cast<std::size_t>(cols));
  for (int r = 0; r < v.rows; ++r) {
    for (int k = 0; k < cols; ++k) {
      const uint64_t at = AddressOfElement(f, m, v, r, k);
      uint64_t value = 0;
      for (int i = 0; i < bits; i += 8) {  // the bytes holding the element, then its bits
        const uint64_t byte = at / 8 + static_cast<uint64_t>(i / 8);
        if (byte < image_bytes) value |= uint64_t{image[byte]} << i;
      }
      const uint64_t w = bits >= 8 ? value : (value >> (at % 8)) & ((uint64_t{1} << bits) - 1);
      out[static_cast<std::size_t>(r) * static_cast<std::size_t>(cols) +
          static_cast<std::size_t>(k)] = w;
    }
  }
  return out;
}

std::optional<std::vector<int>> MeetsOfTile(const SmemMmaForm& f, const tcfuzz_smem_mma& call,
                                            uint32_t tile) {
  const int stored = f.sparse ? f.k / 2 : f.k;
  std::vector<int> meets(static_cast<std::size_t>(f.m * stored));
  if (f.sparse == nullptr) {
    for (std::size_t i = 0; i < meets.size(); ++i) meets[i] = static_cast<int>(i) % stored;
    return meets;
  }
  const oracle::sparse::SparseForm& s = *f.sparse;
  const Mutant& x = f.mutant;
  const int selectors = f.tcgen05 ? 2 : 4 / s.meta_threads();
  if (f.selector < 0 || f.selector >= selectors || (!f.tcgen05 && f.selector > s.max_selector()))
    return std::nullopt;
  const int selector =
      static_cast<int>((f.selector + x.At("metadata.selector_offset")) % selectors);
  const uint32_t* e = call.e;
  for (int row = 0; row < f.m; ++row) {
    const int warp = x.At("metadata.warp0") ? 0 : row / (f.tcgen05 ? 32 : 16);
    const int in_warp = (row % (f.tcgen05 ? 32 : 16)) ^ (x.At("metadata.row_halves") ? 8 : 0);
    for (int chunk = 0; chunk < s.chunks_per_row(); ++chunk) {
      uint8_t nibble = 0;
      if (f.tcgen05) {  // lane = row; 32 bits a row sit in the column the selector names (TM1)
        const uint32_t* pair =
            e + (std::size_t{tile} * 128 + static_cast<std::size_t>(32 * warp + in_warp)) * 2;
        const bool wide = s.chunks_per_row() * 4 > 32;
        const uint32_t word = wide ? pair[chunk / 8] : pair[selector];
        nibble = static_cast<uint8_t>((word >> (4 * (chunk % 8))) & 0xF);
      } else {  // warp w's lanes, as the mma.sp form of the same K (SP6)
        const auto where = oracle::sparse::MapMeta(s, selector, in_warp, chunk);
        const uint32_t reg =
            e[std::size_t{tile} * 128 + static_cast<std::size_t>(32 * warp + where.lane)];
        nibble = static_cast<uint8_t>((reg >> where.bit) & 0xF);
      }
      SelectKept(s, nibble, x, row, chunk, stored, meets);
    }
  }
  return meets;
}

std::optional<std::vector<int>> ColumnsOfTile(const SmemMmaForm& f, const tcfuzz_smem_mma& call,
                                              uint32_t tile) {
  if (!f.ws) {
    std::vector<int> cols(static_cast<std::size_t>(f.n));
    for (int j = 0; j < f.n; ++j) cols[static_cast<std::size_t>(j)] = j;
    return cols;
  }
  return MaskColumns(call.zero_column_mask[tile], f.m, f.n, f.mutant);
}

std::optional<std::vector<int>> MaskColumns(uint64_t mask, int m, int n, const Mutant& mutant) {
  std::vector<int> cols(static_cast<std::size_t>(n));
  for (int j = 0; j < n; ++j) cols[static_cast<std::size_t>(j)] = j;
  if (mutant.At("zcm.ignored")) return cols;
  if (mutant.At("zcm.first_span_inverted")) {
    for (const auto& fs : oracle::tcgen05::zcm_field::kFirstSpan)
      mask = fs.Put(mask, !fs.Get(mask));
  }
  const auto e = oracle::tcgen05::Expand(mask, m, n,
                                         mutant.At("zcm.spans_swapped")
                                             ? oracle::spec_choice::ZcmSpanMeaning::kTableText
                                             : oracle::spec_choice::kZcmSpans);
  if (!e) return std::nullopt;
  for (int j = 0; j < n; ++j) {
    const int c = e->b_column[static_cast<std::size_t>(j)];
    int& out = cols[static_cast<std::size_t>(j)];
    out = c;
    if (mutant.At("zcm.inverted")) out = c < 0 ? j : -1;  // the zeroed and the kept swapped
    if (mutant.At("zcm.shift_ignored") && c >= 0) out = j;
  }
  return cols;
}

std::vector<uint32_t> UnpackC(const SmemMmaForm& f, const tcfuzz_smem_mma& call, uint32_t tile) {
  std::vector<uint32_t> c;
  if (!call.scale_d || call.c == nullptr || f.mutant.At("fragment.c_dropped")) return c;
  c.assign(static_cast<std::size_t>(f.m * f.n), 0);
  const uint32_t* w = call.c + std::size_t{tile} * 128 * call.d_words;
  if (f.tcgen05) {
    for (int row = 0; row < f.m; ++row)
      for (int col = 0; col < f.n; ++col)
        c[static_cast<std::size_t>(row * f.n + col)] =
            w[static_cast<std::size_t>(row) * call.d_words + static_cast<std::size_t>(col)];
    return c;
  }
  const bool half = f.products.cd == Format::kF16;
  for (int th = 0; th < 128; ++th) {
    for (int i = 0; i < f.n / 2; ++i) {
      const uint32_t reg = w[static_cast<std::size_t>(th) * call.d_words +
                             static_cast<std::size_t>(half ? i / 2 : i)];
      const auto at = oracle::tile::MapD(th, i);
      c[static_cast<std::size_t>(at.row * f.n + at.col)] =
          half ? (reg >> (16 * (i % 2))) & 0xFFFF : reg;
    }
  }
  return c;
}

void PackD(const SmemMmaForm& f, const std::vector<uint32_t>& d, const tcfuzz_smem_mma& call,
           uint32_t tile) {
  uint32_t* w = call.d + std::size_t{tile} * 128 * call.d_words;
  std::fill(w, w + std::size_t{128} * call.d_words, 0u);
  const int swap = f.mutant.At("fragment.d_row_halves") ? 8 : 0;
  if (f.tcgen05) {
    for (int row = 0; row < f.m; ++row)
      for (int col = 0; col < f.n && col < static_cast<int>(call.d_words); ++col)
        w[static_cast<std::size_t>(row) * call.d_words + static_cast<std::size_t>(col)] =
            d[static_cast<std::size_t>((row ^ swap) * f.n + col)];
    return;
  }
  const bool half = f.products.cd == Format::kF16;
  for (int th = 0; th < 128; ++th) {
    for (int i = 0; i < f.n / 2; ++i) {
      const auto at = oracle::tile::MapD(th, i);
      const uint32_t v = d[static_cast<std::size_t>((at.row ^ swap) * f.n + at.col)];
      const std::size_t r = static_cast<std::size_t>(half ? i / 2 : i);
      if (r >= call.d_words) continue;
      uint32_t& reg = w[static_cast<std::size_t>(th) * call.d_words + r];
      reg |= half ? (v & 0xFFFF) << (16 * (i % 2)) : v;
    }
  }
}

int ExecuteSmemMma(const tcfuzz_smem_mma& call, std::string_view target, std::string* error,
                   const Mutant& mutant) {
  if (call.tiles > 0 && (call.image == nullptr || call.a_desc == nullptr ||
                         call.b_desc == nullptr || call.d == nullptr)) {
    *error = "smem_mma without an image, descriptors or D";
    return TCFUZZ_UNSUPPORTED;
  }
  for (uint32_t tile = 0; tile < call.tiles; ++tile) {
    const auto form = DecodeSmemMma(call, tile, target, mutant);
    if (!form.ok()) {
      *error = form.error();
      return TCFUZZ_UNSUPPORTED;
    }
    const SmemMmaForm& f = form.value();
    const uint32_t want =
        f.tcgen05 ? static_cast<uint32_t>(f.n)
                  : static_cast<uint32_t>(f.products.cd == Format::kF16 ? f.n / 4 : f.n / 2);
    if (call.d_words != want || (f.sparse && call.e == nullptr)) {
      *error = "d_words " + std::to_string(call.d_words) + " (" + std::to_string(want) +
               ") or metadata do not fit the instruction";
      return TCFUZZ_UNSUPPORTED;
    }
    if (mutant.At("result.fault")) {
      *error = "mutant result.fault: every batch faults";
      return TCFUZZ_FAULT;
    }
    const auto meets = MeetsOfTile(f, call, tile);
    if (!meets) {
      *error = "sparsity selector " + std::to_string(f.selector) + " past the form's range";
      return TCFUZZ_FAULT;
    }
    const auto columns = ColumnsOfTile(f, call, tile);
    if (!columns) {
      *error = "the zero-column mask does not expand for M = " + std::to_string(f.m) +
               ", N = " + std::to_string(f.n);
      return TCFUZZ_FAULT;
    }
    // B's rows: N, or as far as a shifted column reaches (the layout read on: an as-if choice).
    int b_rows = f.n;
    for (const int c : *columns) b_rows = std::max(b_rows, c + 1);
    const uint8_t* image = call.image + std::size_t{tile} * call.image_bytes;
    const auto da = DecodeDescriptor(f, call.a_desc[tile]);
    const auto db = DecodeDescriptor(f, call.b_desc[tile]);
    if (!da || !db) {
      *error = "a matrix descriptor's swizzle code names no layout";
      return TCFUZZ_FAULT;
    }
    const OperandView va = ViewOf(f, false, f.m), vb = ViewOf(f, true, b_rows);
    const std::vector<uint64_t> a = ReadOperand(f, *da, va, image, call.image_bytes);
    const std::vector<uint64_t> b = ReadOperand(f, *db, vb, image, call.image_bytes);
    const std::vector<uint32_t> c = UnpackC(f, call, tile);
    TileOperands x;
    x.m = f.m;
    x.n = f.n;
    x.stored = f.sparse ? f.k / 2 : f.k;
    x.kb = f.k;
    x.a = a;
    x.b = b;
    x.meets = *meets;
    x.b_column = *columns;
    x.c = c;
    std::vector<uint32_t> d = Accumulate(f.products, x);
    if (mutant.At("result.zero")) std::fill(d.begin(), d.end(), 0u);
    if (const int64_t bit = mutant.At("result.flip_bit"))
      d[0] ^= uint32_t{1} << ((bit - 1) % (f.products.cd == Format::kF16 ? 16 : 32));
    PackD(f, d, call, tile);
  }
  return TCFUZZ_OK;
}

}  // namespace tcfuzz::harness::emulator
