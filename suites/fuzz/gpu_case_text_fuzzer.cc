// libFuzzer target for the case files of the GPU suites (sparse_mma, dense_mma, wgmma_tile), the
// reproducers `tcfuzz replay`, `repro` and `minimize` read. A text input must parse to a one-line
// error or to a case whose text form is a fixed point (written, read back and written again, the
// same text), and the oracle computes its D without crashing; any other input draws a case of
// one of the three generators from the bytes and holds it to the same round trip.
#include <string>

#include "generators/core/bytes_source.h"
#include "generators/mma/dense_mma_gen.h"
#include "generators/smem/wgmma_tile_gen.h"
#include "generators/sparse/sparse_mma_gen.h"
#include "oracle/mma/dense_case_text.h"
#include "oracle/sparse/sparse_case_text.h"
#include "oracle/wgmma/wgmma_tile_text.h"
#include "suites/fuzz/fuzz_target.h"

namespace {

using namespace tcfuzz;

// The case's text form, or "" when the document is not a case of a GPU kind.
std::string Rewrite(const oracle::TextDoc& doc) {
  const auto kind = doc.String("kind");
  if (!kind.ok()) return {};
  if (kind.value() == oracle::sparse::kSparseKind) {
    const auto f = oracle::sparse::SparseCaseFromDoc(doc);
    if (!f.ok()) return {};
    oracle::sparse::Reference(f.value().tile, oracle::num::ExactParams(f.value().tile.cd));
    oracle::TextWriter w(oracle::sparse::kSparseKind);
    oracle::sparse::AppendSparseCase(w, f.value().op, f.value().tile, f.value().observed ? &*f.value().observed : nullptr);
    return w.str();
  }
  if (kind.value() == oracle::mma::kDenseKind) {
    const auto f = oracle::mma::DenseCaseFromDoc(doc);
    if (!f.ok()) return {};
    oracle::mma::DenseReference(f.value().tile, oracle::num::ExactParams(f.value().tile.cd));
    oracle::TextWriter w(oracle::mma::kDenseKind);
    oracle::mma::AppendDenseCase(w, f.value().tile, f.value().observed ? &*f.value().observed : nullptr);
    return w.str();
  }
  if (kind.value() == oracle::wgmma::kWgmmaTileKind) {
    const auto f = oracle::wgmma::WgmmaTileFromDoc(doc);
    if (!f.ok()) return {};
    (void)oracle::wgmma::WgmmaReference(f.value().tile);  // any descriptor: a result or an error
    oracle::TextWriter w(oracle::wgmma::kWgmmaTileKind);
    oracle::wgmma::AppendWgmmaTile(w, f.value().tile, f.value().fill, f.value().observed ? &*f.value().observed : nullptr);
    return w.str();
  }
  return {};
}

// The written text reads back and writes the same text again.
void CheckFixedPoint(const std::string& text) {
  const auto doc = oracle::TextDoc::Parse(text);
  if (!doc.ok()) suites::AbortOn({{"text.reparse", doc.error()}});
  const std::string again = Rewrite(doc.value());
  if (again != text) suites::AbortOn({{"text.fixed_point", "the written case reads back to a different text"}});
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  if (input.starts_with(oracle::kTextMagic)) {
    const auto doc = oracle::TextDoc::Parse(input);
    if (!doc.ok()) {
      if (doc.error().find('\n') != std::string::npos) suites::AbortOn({{"text.one_line", doc.error()}});
      return -1;
    }
    const std::string text = Rewrite(doc.value());
    if (text.empty()) return -1;
    CheckFixedPoint(text);
    return 0;
  }
  gen::BytesSource source(std::span<const uint8_t>(data, size));
  switch (source.Below(4)) {
    case 0: {
      const gen::GeneratedSparse g = gen::DrawSparse(source, gen::Intent::kLegal);
      oracle::TextWriter w(oracle::sparse::kSparseKind);
      oracle::sparse::AppendSparseCase(w, g.op, g.tile);
      CheckFixedPoint(w.str());
      break;
    }
    case 1: {
      const gen::GeneratedDense g = gen::DrawDense(source);
      oracle::TextWriter w(oracle::mma::kDenseKind);
      oracle::mma::AppendDenseCase(w, g.tile);
      CheckFixedPoint(w.str());
      break;
    }
    default: {
      // wgmma dense and .sp; tcgen05 dense, .ws and .sp.
      const uint64_t which = source.Below(5);
      const gen::GeneratedWgmma g = which == 0   ? gen::DrawWgmmaSpTile(source)
                                    : which == 1 ? gen::DrawWgmmaTile(source)
                                    : which == 2 ? gen::DrawTcgen05SpTile(source)
                                                 : gen::DrawTcgen05Tile(source, which == 3);
      oracle::TextWriter w(oracle::wgmma::kWgmmaTileKind);
      oracle::wgmma::AppendWgmmaTile(w, g.tile, g.fill);
      CheckFixedPoint(w.str());
    }
  }
  return 0;
}
