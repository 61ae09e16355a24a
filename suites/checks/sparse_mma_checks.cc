#include "suites/checks/sparse_mma_checks.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <span>
#include <string>

#include "oracle/core/text_format.h"
#include "oracle/numerics/exact_dot.h"
#include "oracle/ptx/instruction_form.h"

namespace tcfuzz::suites {
namespace {

using namespace oracle::sparse;
using oracle::num::Format;

bool ZeroOf(Format f, uint64_t bits) {
  return oracle::num::IsFloat(f) ? oracle::num::Decode(f, bits).is_zero()
                                 : oracle::num::DecodeInt(f, bits) == 0;
}

// Dense row of A (K elements) from the tile.
std::vector<uint64_t> DenseRow(const SparseTile& t, int row) {
  const SparseForm& f = *t.form;
  std::vector<uint64_t> dense;
  for (int chunk = 0; chunk < f.chunks_per_row(); ++chunk) {
    const auto kept = std::span<const uint64_t>(t.a).subspan(
        static_cast<std::size_t>(row * (f.k / 2) + chunk * f.kept),
        static_cast<std::size_t>(f.kept));
    const auto d =
        Expand(f, kept, t.nibbles[static_cast<std::size_t>(row * f.chunks_per_row() + chunk)]);
    dense.insert(dense.end(), d.begin(), d.end());
  }
  return dense;
}

void CheckCompression(const gen::GeneratedSparse& g, CheckFailures& out) {
  const SparseTile& t = g.tile;
  const SparseForm& f = *t.form;
  for (int row = 0; row < 16; ++row) {
    const std::vector<uint64_t> dense = DenseRow(t, row);
    for (int chunk = 0; chunk < f.chunks_per_row(); ++chunk) {
      const auto part = std::span<const uint64_t>(dense).subspan(
          static_cast<std::size_t>(chunk * f.chunk), static_cast<std::size_t>(f.chunk));
      const auto c = Compress(f, t.a_type, part);
      if (!c) {
        Fail(out, "compress_total", "an expanded chunk has too many non-zeros to compress");
        return;
      }
      if (NibbleRule(f, Variant::kOrdered, c->nibble) != nullptr) {
        Fail(out, "compress_ordered", "compress produced a nibble ::ordered_metadata rejects");
      }
      const auto again = Expand(f, c->values, c->nibble);
      for (int e = 0; e < f.chunk; ++e) {
        const uint64_t x = part[static_cast<std::size_t>(e)],
                       y = again[static_cast<std::size_t>(e)];
        if (x != y && !(ZeroOf(t.a_type, x) && ZeroOf(t.a_type, y))) {
          Fail(out, "compress_expand",
               "row " + std::to_string(row) + " chunk " + std::to_string(chunk) +
                   ": expand(compress(x)) != x at position " + std::to_string(e));
          return;
        }
      }
    }
  }
}

void CheckReference(const gen::GeneratedSparse& g, CheckFailures& out,
                    std::vector<uint32_t>* expected) {
  const SparseTile& t = g.tile;
  const SparseForm& f = *t.form;
  const bool integer = !oracle::num::IsFloat(t.a_type);
  const auto params = SparseParams(t);
  if (!integer && !params) return;
  const std::vector<uint32_t> d = Reference(t, params.value_or(oracle::num::ExactParams(t.cd)));
  if (expected != nullptr) *expected = d;
  for (int i = 0; i < 16; ++i) {
    const std::vector<uint64_t> dense = DenseRow(t, i);
    for (int j = 0; j < 8; ++j) {
      std::vector<uint64_t> bcol;
      for (int k = 0; k < f.k; ++k) bcol.push_back(t.b[static_cast<std::size_t>(k * 8 + j)]);
      const uint32_t c = t.c[static_cast<std::size_t>(i * 8 + j)];
      const uint32_t got = d[static_cast<std::size_t>(i * 8 + j)];
      const std::string at = "D[" + std::to_string(i) + "][" + std::to_string(j) + "]";
      if (integer) {
        int64_t sum = static_cast<int32_t>(c);
        for (int k = 0; k < f.k; ++k) {
          sum += oracle::num::DecodeInt(t.a_type, dense[static_cast<std::size_t>(k)]) *
                 oracle::num::DecodeInt(t.b_type, bcol[static_cast<std::size_t>(k)]);
        }
        const int64_t want =
            t.satfinite ? std::clamp<int64_t>(sum, INT32_MIN, INT32_MAX)
                        : static_cast<int32_t>(static_cast<uint32_t>(static_cast<uint64_t>(sum)));
        if (static_cast<int32_t>(got) != want) {
          Fail(out, "reference_integer",
               at + " = " + std::to_string(static_cast<int32_t>(got)) + ", exact " +
                   std::to_string(want));
          return;
        }
        continue;
      }
      // The kept products (in the order the reference chains them) and their exact sum: the
      // model stays within its rigorous bound of it.
      std::vector<uint64_t> av, bv;
      const int cpr = f.chunks_per_row();
      for (int chunk = 0; chunk < cpr; ++chunk) {
        const uint8_t nib = t.nibbles[static_cast<std::size_t>(i * cpr + chunk)];
        const auto pos = KeptPositions(f, nib);
        for (int s = 0; s < f.kept; ++s) {
          av.push_back(t.a[static_cast<std::size_t>(i * (f.k / 2) + chunk * f.kept + s)]);
          bv.push_back(t.b[static_cast<std::size_t>(
              (chunk * f.chunk + pos[static_cast<std::size_t>(s)]) * 8 + j)]);
        }
      }
      const auto exact = oracle::num::ExactDotProduct(av, bv, c, t.a_type, t.b_type, t.cd);
      if (!exact) continue;  // NaN or Inf among the inputs: special-value rules, not bounds
      const auto bounded =
          oracle::num::DotProductWithBound(av, bv, c, t.a_type, t.b_type, t.cd, *params);
      if (bounded.d != got) Fail(out, "reference_consistent", at + ": two model runs disagree");
      if (!bounded.finite) continue;
      oracle::num::Exact model;
      model.AddValue(t.cd, got);
      const oracle::num::Exact err = model.Minus(*exact).Abs();
      if (!err.LessOrEqual(bounded.bound)) {
        Fail(out, "reference_bound",
             at + ": |model - exact| = " + std::to_string(err.ToDouble()) + " > bound " +
                 std::to_string(bounded.bound.ToDouble()));
        return;
      }
      if (gen::IsExact(g.mode) && !err.IsZero()) {
        Fail(out, "reference_exact",
             at + ": small integers must sum exactly, model is off by " +
                 std::to_string(err.ToDouble()));
        return;
      }
    }
  }
}

}  // namespace

std::vector<std::string_view> ChunkClasses(const SparseTile& t) {
  static constexpr std::string_view kTags[] = {"chunk.nonzeros=0", "chunk.nonzeros=1",
                                               "chunk.nonzeros=2"};
  const SparseForm& f = *t.form;
  bool seen[3] = {};
  for (std::size_t at = 0; at + static_cast<std::size_t>(f.kept) <= t.a.size();
       at += static_cast<std::size_t>(f.kept)) {
    int nonzero = 0;
    for (int s = 0; s < f.kept; ++s)
      nonzero += ZeroOf(t.a_type, t.a[at + static_cast<std::size_t>(s)]) ? 0 : 1;
    seen[std::min(nonzero, 2)] = true;
  }
  std::vector<std::string_view> tags;
  for (int n = 0; n < 3; ++n) {
    if (seen[n]) tags.push_back(kTags[n]);
  }
  return tags;
}

std::string SparseFamily(const SparseForm& form, Variant variant, oracle::num::Format a_type,
                         oracle::num::Format b_type, oracle::num::Format cd) {
  std::string family(oracle::ptx::FamilyName(variant == Variant::kOrdered
                                                 ? oracle::ptx::Family::kMmaSpOrdered
                                                 : oracle::ptx::Family::kMmaSp));
  family += "." + std::string(form.shape) + "." + std::string(oracle::num::Name(a_type));
  if (b_type != a_type) family += "x" + std::string(oracle::num::Name(b_type));
  return family + "." + std::string(oracle::num::Name(cd));
}

std::optional<oracle::num::DotParams> SparseParams(const SparseTile& t, oracle::num::Gpu gpu) {
  return oracle::num::ParamsFor(gpu, oracle::num::Instr::kMma, t.a_type, t.cd);
}

std::optional<oracle::num::DotParams> SparseParams(const SparseTile& t) {
  using oracle::num::Gpu;
  const bool fp8 = oracle::num::IsFp8(t.a_type);
  return SparseParams(t, fp8 ? Gpu::kSm89 : Gpu::kSm90);
}

CheckFailures CheckSparse(const gen::GeneratedSparse& g, std::vector<uint32_t>* expected) {
  CheckFailures out;
  const oracle::Verdict v = Validate(g.op);
  if (Validate(g.op).RuleIds() != v.RuleIds())
    Fail(out, "validate_deterministic", "two verdicts differ");
  CheckIntent(g.intent, g.broken, v, out);
  if (g.intent == gen::Intent::kRawBits) return out;  // metadata is noise: validation only
  const SparseForm& f = *g.op.form;
  // The tile's nibbles are what the selected lanes hold (the metadata map round-trips).
  if (g.op.selector <= f.max_selector()) {
    for (int row = 0; row < 16; ++row) {
      for (int chunk = 0; chunk < f.chunks_per_row(); ++chunk) {
        if (NibbleOf(g.op, row, chunk) !=
            g.tile.nibbles[static_cast<std::size_t>(row * f.chunks_per_row() + chunk)]) {
          Fail(out, "meta_map",
               "row " + std::to_string(row) + " chunk " + std::to_string(chunk) +
                   ": the lanes hold another nibble than the tile");
          return out;
        }
      }
    }
  }
  if (g.intent != gen::Intent::kLegal) return out;  // undefined patterns: not compared
  CheckCompression(g, out);
  CheckReference(g, out, expected);
  return out;
}

}  // namespace tcfuzz::suites
