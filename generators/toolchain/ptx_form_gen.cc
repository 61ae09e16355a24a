#include "generators/toolchain/ptx_form_gen.h"

#include <algorithm>
#include <array>

#include "oracle/mma/dense_mma.h"
#include "oracle/ptx/ptx_target.h"
#include "oracle/sparse/sparse_form.h"

namespace tcfuzz::gen {
namespace {

using oracle::num::Format;
using oracle::ptx::Family;
using oracle::ptx::Kind;
using oracle::ptx::PtxForm;

// The types an A type mixes with (its class), itself first.
std::vector<Format> Partners(Format a, bool kind) {
  const auto cls = [a](std::initializer_list<Format> c) {
    std::vector<Format> v{a};
    for (Format f : c)
      if (f != a) v.push_back(f);
    return v;
  };
  if (kind) return cls({Format::kE4M3, Format::kE5M2, Format::kE3M2, Format::kE2M3, Format::kE2M1});
  switch (a) {
    case Format::kS8:
    case Format::kU8:
      return cls({Format::kS8, Format::kU8});
    case Format::kS4:
    case Format::kU4:
      return cls({Format::kS4, Format::kU4});
    case Format::kE4M3:
    case Format::kE5M2:
      return cls({Format::kE4M3, Format::kE5M2});
    default:
      return {a};
  }
}

bool IsInt(Format f) {
  return f == Format::kS8 || f == Format::kU8 || f == Format::kS4 || f == Format::kU4;
}

std::string Shape(int m, int n, int k) {
  return "m" + std::to_string(m) + "n" + std::to_string(n) + "k" + std::to_string(k);
}

class Out {
 public:
  void Form(const PtxForm& f) { all_.push_back({f, false, ""}); }
  void Neighbour(PtxForm f, std::string what, bool pinned = false) {
    all_.push_back({std::move(f), pinned, std::move(what)});
  }
  // The neighbour `change` makes of `base`.
  template <class Change>
  void Vary(PtxForm base, Change change, std::string what) {
    change(base);
    Neighbour(std::move(base), std::move(what));
  }
  // One step below the form's first version (8.5 -> 8.4, 8.0 -> 7.8 as PTX numbered them).
  void TooOld(PtxForm f) {
    const int v = oracle::ptx::FormMinVersion(f);
    f.ptx = v % 10 == 0 ? v - 2 : v - 1;
    Neighbour(std::move(f), "PTX version below the form's", true);
  }
  std::vector<gen::EnumeratedForm> Take() { return std::move(all_); }

 private:
  std::vector<gen::EnumeratedForm> all_;
};

void WarpDense(Out& out) {
  for (const auto& df : oracle::mma::AllDenseForms()) {
    for (Format b : Partners(df.type, false)) {
      PtxForm f;
      f.family = Family::kMma;
      f.shape = std::string(df.shape);
      f.a = df.type;
      f.b = b;
      std::vector<std::pair<Format, Format>> dc;
      if (df.type == Format::kF16)
        dc = {{Format::kF32, Format::kF32}, {Format::kF16, Format::kF16}};
      else if (IsInt(df.type))
        dc = {{Format::kS32, Format::kS32}};
      else if (df.type == Format::kE4M3 || df.type == Format::kE5M2)
        dc = {{Format::kF32, Format::kF32}, {Format::kF16, Format::kF16}};
      else
        dc = {{Format::kF32, Format::kF32}};
      for (auto [d, c] : dc) {
        f.d = d;
        f.c = c;
        for (bool sat : {false, true}) {
          if (sat && !IsInt(df.type)) continue;
          f.satfinite = sat;
          out.Form(f);
        }
      }
      if (b != df.type) continue;
      f.satfinite = false;
      out.Vary(
          f, [&](PtxForm& g) { g.shape = Shape(16, 8, df.k * 2); }, "K of the sparse shape");
      out.TooOld(f);
      if (!IsInt(df.type)) {
        out.Vary(
            f, [&](PtxForm& g) { g.satfinite = true; }, ".satfinite on a float type");
      }
      if (df.type == Format::kF16) {
        out.Vary(
            f,
            [&](PtxForm& g) {
              g.d = Format::kF32;
              g.c = Format::kF16;
            },
            "D type differs from C");
      }
    }
  }
}

void WarpSparse(Out& out) {
  for (const auto& sf : oracle::sparse::AllForms()) {
    const bool fp8 = sf.type == Format::kE4M3 || sf.type == Format::kE5M2;
    for (bool kind : {false, true}) {
      if (kind && !(fp8 || sf.ordered_only)) continue;
      if (!kind && sf.ordered_only) continue;
      for (Family fam : {Family::kMmaSp, Family::kMmaSpOrdered}) {
        if (kind && fam == Family::kMmaSp) continue;
        for (Format b : Partners(sf.type, kind)) {
          PtxForm f;
          f.family = fam;
          f.shape = std::string(sf.shape);
          f.a = sf.type;
          f.b = b;
          f.kind_f8f6f4 = kind;
          std::vector<Format> ds;
          // (fp8 with f16 D is a PTX 8.7 form: ::ordered_metadata only.)
          if (sf.type == Format::kF16 || kind || (fp8 && fam == Family::kMmaSpOrdered))
            ds = {Format::kF32, Format::kF16};
          else if (fp8)
            ds = {Format::kF32};
          else if (IsInt(sf.type))
            ds = {Format::kS32};
          else
            ds = {Format::kF32};
          for (Format d : ds) {
            f.d = f.c = d;
            for (int sel = 0; sel <= sf.max_selector(); ++sel) {
              f.selector = sel;
              for (bool sat : {false, true}) {
                if (sat && !IsInt(sf.type)) continue;
                f.satfinite = sat;
                out.Form(f);
              }
            }
          }
          if (b != sf.type) continue;
          f.d = f.c = ds.front();
          f.satfinite = false;
          f.selector = sf.max_selector() + 1;
          out.Neighbour(f, "selector past its range");
          f.selector = 0;
          out.TooOld(f);
          // Twice the type's largest sparse K: a shape no sparse form of the type has.
          int max_k = 0;
          for (const auto& other : oracle::sparse::AllForms()) {
            if (other.type == sf.type) max_k = std::max(max_k, other.k);
          }
          PtxForm n = f;
          n.shape = Shape(16, 8, max_k * 2);
          if (sf.k == max_k) out.Neighbour(n, "K past the type's sparse shapes");
          if (fp8 && !kind && fam == Family::kMmaSp) {
            out.Vary(
                f, [&](PtxForm& g) { g.d = g.c = Format::kF16; }, "fp8 with f16 D on plain mma.sp");
          }
          if (kind) {
            out.Vary(
                f, [&](PtxForm& g) { g.family = Family::kMmaSp; }, ".kind::f8f6f4 on plain mma.sp");
          }
          if (sf.type == Format::kF16) {
            out.Vary(
                f, [&](PtxForm& g) { g.c = Format::kF16; }, "D type differs from C");
          }
          if (sf.type == Format::kBF16) {
            out.Vary(
                f, [&](PtxForm& g) { g.d = g.c = Format::kF16; }, "f16 accumulators with bf16");
          }
        }
      }
    }
  }
}

void Wgmma(Out& out) {
  for (const auto& ty : oracle::ptx::WgmmaTypes()) {
    const bool is_int = ty.d_s32;
    for (Family fam : {Family::kWgmma, Family::kWgmmaSp}) {
      const bool sp = fam == Family::kWgmmaSp;
      for (Format b : Partners(ty.a, false)) {
        std::vector<Format> ds;
        if (ty.d_f32) ds.push_back(Format::kF32);
        if (ty.d_f16) ds.push_back(Format::kF16);
        if (ty.d_s32) ds.push_back(Format::kS32);
        for (Format d : ds) {
          for (bool regs : {false, true}) {
            PtxForm f;
            f.family = fam;
            f.a = ty.a;
            f.b = b;
            f.d = f.c = d;
            f.a_in_regs = regs;
            f.trans_a = ty.trans && !regs ? 0 : -1;
            f.trans_b = ty.trans ? 0 : -1;
            for (int n = 8; n <= 256; n += 8) {
              if (!oracle::ptx::WgmmaNLegal(ty.a, n)) continue;
              f.shape = Shape(64, n, ty.k * (sp ? 2 : 1));
              out.Form(f);
            }
            // The other immediates and qualifiers once, at N = 64.
            f.shape = Shape(64, 64, ty.k * (sp ? 2 : 1));
            if (ty.trans) {
              PtxForm t = f;
              if (!regs) t.trans_a = 1;
              t.trans_b = 1;
              out.Form(t);
            }
            if (is_int) {
              PtxForm t = f;
              t.satfinite = true;
              out.Form(t);
            }
            if (sp && ty.sparse_pairs) {
              PtxForm t = f;
              t.selector = 1;
              out.Form(t);
            }
          }
        }
        if (b != ty.a) continue;
        PtxForm f;
        f.family = fam;
        f.a = f.b = ty.a;
        f.d = f.c = ds.front();
        f.trans_a = f.trans_b = ty.trans ? 0 : -1;
        const int k = ty.k * (sp ? 2 : 1);
        f.shape = Shape(64, 64, k);
        out.TooOld(f);
        PtxForm n = f;
        n.shape = Shape(64, 264, k);
        out.Neighbour(n, "N past 256");
        if (is_int) {
          n.shape = Shape(64, 40, k);
          out.Neighbour(n, "N not a multiple of 16 past 24 (integer types)");
        }
        n.shape = Shape(64, 64, sp ? ty.k : ty.k * 2);
        out.Neighbour(n, "K of the other sparsity");
        n.shape = Shape(128, 64, k);
        out.Neighbour(n, "M other than 64");
        n = f;
        if (ty.trans) {
          n.trans_b = 2;
          out.Neighbour(n, "imm-trans-b = 2");
        } else {
          n.trans_a = n.trans_b = 0;
          out.Neighbour(n, "imm-trans operands on a K-major-only type");
        }
        if (!is_int) {
          out.Vary(
              f, [&](PtxForm& g) { g.satfinite = true; }, ".satfinite on a float type");
        }
        if (sp) {
          out.Vary(
              f, [&](PtxForm& g) { g.selector = ty.sparse_pairs ? 2 : 1; },
              "selector past its range");
        }
        if (ty.a == Format::kBF16) {
          out.Vary(
              f, [&](PtxForm& g) { g.d = g.c = Format::kF16; }, "f16 D with bf16");
        }
      }
    }
  }
}

void Tcgen05(Out& out) {
  constexpr std::array<Kind, 4> kKinds{Kind::kF16, Kind::kTf32, Kind::kF8f6f4, Kind::kI8};
  for (Family fam :
       {Family::kTcgen05, Family::kTcgen05Sp, Family::kTcgen05Ws, Family::kTcgen05WsSp}) {
    const bool ws = fam == Family::kTcgen05Ws || fam == Family::kTcgen05WsSp;
    for (Kind kind : kKinds) {
      for (int cta : {1, 2}) {
        if (ws && cta == 2) continue;
        for (bool tmem : {false, true}) {
          PtxForm f;
          f.family = fam;
          f.kind = kind;
          f.cta_group = cta;
          f.a_tmem = tmem;
          out.Form(f);
          // Each option on its own, over the base form.
          for (std::string_view op : {"fill", "use", "lastuse", "discard"}) {
            PtxForm c = f;
            c.collector = (ws ? "b0::" : "a::") + std::string(op);
            out.Form(c);
          }
          if (ws) {
            for (int b = 1; b < 4; ++b) {
              PtxForm c = f;
              c.collector = "b" + std::to_string(b) + "::fill";
              out.Form(c);
            }
            PtxForm z = f;
            z.zero_column_mask = true;
            out.Form(z);
            z.collector = "b1::use";
            out.Form(z);
          } else {
            PtxForm l = f;
            l.disable_lanes = 4 * cta;
            out.Form(l);
            if (kind == Kind::kF16 || kind == Kind::kTf32) {
              for (int s : {0, 15}) {
                PtxForm c = f;
                c.scale_input_d = s;
                out.Form(c);
                c.disable_lanes = 4 * cta;
                out.Form(c);
              }
            }
          }
        }
      }
      PtxForm f;
      f.family = fam;
      f.kind = kind;
      out.TooOld(f);
      out.Vary(
          f, [&](PtxForm& g) { g.collector = ws ? "a::fill" : "b0::fill"; },
          "collector buffer of the other variant");
      if (ws) {
        out.Vary(
            f, [&](PtxForm& g) { g.cta_group = 2; }, ".ws with cta_group::2");
        out.Vary(
            f, [&](PtxForm& g) { g.disable_lanes = 4; }, "disable-output-lane on .ws");
        // (A lone immediate after enable-input-d is a legal zero-column mask on .ws, so the
        // neighbour carries both.)
        out.Vary(
            f,
            [&](PtxForm& g) {
              g.scale_input_d = 0;
              g.zero_column_mask = true;
            },
            "scale-input-d on .ws");
      } else {
        out.Vary(
            f, [&](PtxForm& g) { g.zero_column_mask = true; }, "zero-column mask on a non-ws form");
        out.Vary(
            f,
            [&](PtxForm& g) {
              g.cta_group = 2;
              g.disable_lanes = 4;
            },
            "4-register disable-output-lane with cta_group::2");
        const bool scales = kind == Kind::kF16 || kind == Kind::kTf32;
        out.Vary(
            f, [&](PtxForm& g) { g.scale_input_d = scales ? 16 : 0; },
            scales ? "scale-input-d = 16" : "scale-input-d on this kind");
      }
    }
  }
}

}  // namespace

std::vector<EnumeratedForm> EnumerateForms() {
  Out out;
  WarpDense(out);
  WarpSparse(out);
  Wgmma(out);
  Tcgen05(out);
  return out.Take();
}

oracle::ptx::PtxForm AtTarget(const EnumeratedForm& e, std::string_view target) {
  PtxForm f = e.form;
  if (!e.pinned_version) {
    const auto* t = oracle::ptx::FindTarget(target);
    f.ptx = std::max(oracle::ptx::FormMinVersion(f), t != nullptr ? t->min_ptx : 0);
  }
  return f;
}

}  // namespace tcfuzz::gen
