#include "oracle/numerics/tile_mma.h"

#include "oracle/core/span.h"
#include "oracle/numerics/fast_dot.h"

namespace tcfuzz::oracle::num {

std::vector<uint32_t> TileMma(const TileMmaSpec& s) {
  const auto m = static_cast<std::size_t>(s.m), n = static_cast<std::size_t>(s.n),
             stored = static_cast<std::size_t>(s.stored);
  auto k_of = [&](std::size_t i, std::size_t x) {
    return s.meets.empty() ? x : static_cast<std::size_t>(s.meets[i * stored + x]);
  };
  auto col_of = [&](std::size_t j) {
    return s.b_column.empty() ? static_cast<int>(j) : s.b_column[j];
  };
  auto b_at = [&](std::size_t k, int col) {
    return k * s.b_k_stride + static_cast<std::size_t>(col) * s.b_n_stride;
  };
  auto c_at = [&](std::size_t i, std::size_t j) { return s.c.empty() ? 0u : s.c[i * n + j]; };
  std::vector<uint32_t> d(m * n);
  if (!IsFloat(s.fa)) {  // integers: exact sums of the decoded values
    std::vector<int64_t> a(s.a.size()), b(s.b.size());
    for (std::size_t x = 0; x < a.size(); ++x) a[x] = DecodeInt(s.fa, s.a[x]);
    for (std::size_t x = 0; x < b.size(); ++x) b[x] = DecodeInt(s.fb, s.b[x]);
    for (std::size_t i = 0; i < m; ++i) {
      for (std::size_t j = 0; j < n; ++j) {
        const int col = col_of(j);
        int64_t sum = static_cast<int32_t>(c_at(i, j));
        for (std::size_t x = 0; x < stored && col >= 0; ++x)
          sum += a[i * stored + x] * b[b_at(k_of(i, x), col)];
        d[i * n + j] = static_cast<uint32_t>(IntResult(sum, s.satfinite));
      }
    }
    return d;
  }
  fast::Params fp;
  if (!s.general_only && fast::Supported(s.fa) && fast::Supported(s.fb) &&
      fast::ParamsOf(s.params, s.cd, fp)) {
    // The 64-bit path (fast_dot.h): each operand decoded once, B's columns laid out contiguous
    // per (row's meets, column); an output that meets an Inf or NaN goes to DotProduct, which
    // takes the general model for it.
    std::vector<fast::Operand> a(m * stored), col(stored);  // the spec's A, however long the span
    std::vector<char> a_ok(m, 1);
    for (std::size_t x = 0; x < a.size(); ++x) {
      if (!fast::DecodeFinite(s.fa, s.a[x], a[x])) a_ok[x / stored] = 0;
    }
    const int frac = fast::FracBits(s.fa) + fast::FracBits(s.fb);
    // Dense tiles gather each column once; sparse ones per row (its meets differ).
    const bool per_row = !s.meets.empty();
    std::vector<fast::Operand> cols(per_row ? 0 : n * stored);
    std::vector<char> col_ok(n, 1);
    const auto gather = [&](std::size_t i, std::size_t j, fast::Operand* out) {
      const int c = col_of(j);
      bool ok = true;
      for (std::size_t x = 0; x < stored; ++x) {
        ok = (c < 0 ? fast::DecodeFinite(s.fb, 0, out[x])
                    : fast::DecodeFinite(s.fb, s.b[b_at(k_of(i, x), c)], out[x])) &&
             ok;
      }
      return ok;
    };
    if (!per_row) {
      for (std::size_t j = 0; j < n; ++j) col_ok[j] = gather(0, j, cols.data() + j * stored);
    }
    std::vector<uint64_t> abits(stored), bbits(stored);
    for (std::size_t i = 0; i < m; ++i) {
      for (std::size_t j = 0; j < n; ++j) {
        const fast::Operand* bj = per_row ? col.data() : cols.data() + j * stored;
        const bool ok = a_ok[i] && (per_row ? gather(i, j, col.data()) : col_ok[j] != 0);
        if (ok) {
          d[i * n + j] = fast::Dot(a.data() + i * stored, bj, s.stored, frac, c_at(i, j), fp);
          continue;
        }
        const int c = col_of(j);
        for (std::size_t x = 0; x < stored; ++x) {
          abits[x] = s.a[i * stored + x];
          bbits[x] = c < 0 ? 0 : s.b[b_at(k_of(i, x), c)];
        }
        d[i * n + j] = DotProduct(abits, bbits, c_at(i, j), s.fa, s.fb, s.cd, s.params);
      }
    }
    return d;
  }
  std::vector<Decoded> a(s.a.size()), b(s.b.size());
  for (std::size_t x = 0; x < a.size(); ++x) a[x] = DecodeOperand(s.fa, s.a[x], s.params);
  for (std::size_t x = 0; x < b.size(); ++x) b[x] = DecodeOperand(s.fb, s.b[x], s.params);
  const Decoded zero = Decode(s.fb, 0);  // a column that reads zeros: +0 in every type
  std::vector<Decoded> bv(stored);
  for (std::size_t i = 0; i < m; ++i) {
    const Span<const Decoded> row = Span<const Decoded>(a).subspan(i * stored, stored);
    for (std::size_t j = 0; j < n; ++j) {
      const int col = col_of(j);
      for (std::size_t x = 0; x < stored; ++x) bv[x] = col < 0 ? zero : b[b_at(k_of(i, x), col)];
      d[i * n + j] = DotProduct(row, bv, c_at(i, j), s.cd, s.params);
    }
  }
  return d;
}

}  // namespace tcfuzz::oracle::num
