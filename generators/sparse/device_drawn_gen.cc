#include "generators/sparse/device_drawn_gen.h"

#include <vector>

#include "oracle/core/span.h"
#include "oracle/numerics/formats.h"
#include "oracle/sparse/device_drawn_sparse.h"

namespace tcfuzz::gen {

using namespace oracle::sparse;
using oracle::num::Format;

oracle::Span<const DrawnVariant> DrawnVariants() {
  static const std::vector<DrawnVariant> variants = [] {
    std::vector<DrawnVariant> v;
    for (const Format type : {Format::kF16, Format::kBF16}) {
      for (const char* shape : {"m16n8k16", "m16n8k32"}) {
        const SparseForm* f = FindForm(shape, type);
        for (const Variant spelling : {Variant::kSp, Variant::kOrdered}) {
          for (int selector = 0; selector <= 3; ++selector) {
            SparseOp op;
            op.form = f;
            op.variant = spelling;
            op.selector = selector;
            // Past the form's selector range the metadata has no lane to live in; inside it, with
            // defined nibbles everywhere, the oracle's Validate has the last word.
            if (selector > f->max_selector()) continue;
            for (int row = 0; row < 16; ++row) {
              for (int chunk = 0; chunk < f->chunks_per_row(); ++chunk)
                SetNibble(op, row, chunk, DefinedNibbles(*f, spelling)[0]);
            }
            if (Validate(op).legal()) v.push_back({f, spelling, selector});
          }
        }
      }
    }
    return v;
  }();
  return variants;
}

std::vector<DrawnVariant> DrawnVariantsOf(std::string_view form_name) {
  std::vector<DrawnVariant> out;
  for (const DrawnVariant& v : DrawnVariants()) {
    if (v.form->Name() == form_name) out.push_back(v);
  }
  return out;
}

std::size_t DrawnVariantIndex(uint64_t case_seed, std::size_t count) {
  namespace d = oracle::sparse::drawn;
  return d::Pick(case_seed, d::kVariant, 0, 0, static_cast<uint32_t>(count));
}

namespace {

// The variant, the metadata (defined nibbles where selected lanes hold them, drawn bits elsewhere)
// and the types of a case; the values are the caller's.
GeneratedSparse DrawShape(uint64_t case_seed, oracle::Span<const DrawnVariant> variants) {
  namespace d = oracle::sparse::drawn;
  const DrawnVariant& v = variants[DrawnVariantIndex(case_seed, variants.size())];
  const SparseForm& f = *v.form;
  GeneratedSparse g;
  g.op.form = &f;
  g.op.variant = v.variant;
  g.op.selector = v.selector;
  for (int lane = 0; lane < 32; ++lane)
    g.op.meta[static_cast<std::size_t>(lane)] = d::UnselectedMeta(case_seed, lane);
  SparseTile& t = g.tile;
  t.form = &f;
  t.a_type = t.b_type = f.type;
  t.cd = Format::kF32;
  const int cpr = f.chunks_per_row();
  const oracle::Span<const uint8_t> defined = DefinedNibbles(f, v.variant);
  t.nibbles.resize(static_cast<std::size_t>(16 * cpr));
  for (int row = 0; row < 16; ++row) {
    for (int chunk = 0; chunk < cpr; ++chunk) {
      const uint8_t nib = defined[d::Pick(case_seed, d::kNibble, row, chunk,
                                          static_cast<uint32_t>(defined.size()))];
      t.nibbles[static_cast<std::size_t>(row * cpr + chunk)] = nib;
      SetNibble(g.op, row, chunk, nib);
    }
  }
  return g;
}

}  // namespace

GeneratedSparse DrawDeviceDrawn(uint64_t case_seed, oracle::Span<const DrawnVariant> variants) {
  namespace d = oracle::sparse::drawn;
  GeneratedSparse g = DrawShape(case_seed, variants);
  g.mode = ValueMode::kSmallInt;
  SparseTile& t = g.tile;
  const SparseForm& f = *t.form;
  const int stored = f.k / 2;
  for (int row = 0; row < 16; ++row) {
    for (int j = 0; j < stored; ++j)
      t.a.push_back(oracle::num::FromDouble(f.type, d::Value(case_seed, d::kA, row, j)));
  }
  for (int k = 0; k < f.k; ++k) {
    for (int n = 0; n < 8; ++n)
      t.b.push_back(oracle::num::FromDouble(f.type, d::Value(case_seed, d::kB, k, n)));
  }
  for (int row = 0; row < 16; ++row) {
    for (int col = 0; col < 8; ++col) {
      t.c.push_back(static_cast<uint32_t>(
          oracle::num::FromDouble(Format::kF32, d::Value(case_seed, d::kC, row, col))));
    }
  }
  return g;
}

DeviceDrawnSparseFloat DrawDeviceDrawnFloat(uint64_t case_seed,
                                            oracle::Span<const DrawnVariant> variants) {
  namespace dense = oracle::mma::drawn;
  const dense::Mode mode = oracle::sparse::drawn::FloatModeOf(case_seed);
  DeviceDrawnSparseFloat out{DrawShape(case_seed, variants), mode};
  GeneratedSparse& g = out.sparse;
  g.mode = mode == dense::kNonFinite ? ValueMode::kEdge : ValueMode::kRandom;
  SparseTile& t = g.tile;
  const SparseForm& f = *t.form;
  const uint32_t bf16 = f.type == Format::kBF16;
  const int stored = f.k / 2;
  for (int row = 0; row < 16; ++row) {
    for (int j = 0; j < stored; ++j)
      t.a.push_back(dense::HalfBits(case_seed, dense::kA, row, j, bf16, mode));
  }
  for (int k = 0; k < f.k; ++k) {
    for (int n = 0; n < 8; ++n)
      t.b.push_back(dense::HalfBits(case_seed, dense::kB, k, n, bf16, mode));
  }
  for (int row = 0; row < 16; ++row) {
    for (int col = 0; col < 8; ++col) t.c.push_back(dense::F32Bits(case_seed, row, col, mode));
  }
  return out;
}

}  // namespace tcfuzz::gen
