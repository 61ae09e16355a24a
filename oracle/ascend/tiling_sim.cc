#include "oracle/ascend/tiling_sim.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <numeric>
#include <optional>
#include <vector>

#include "oracle/ascend/k_loop.h"
#include "oracle/ascend/tiling_math.h"

namespace tcfuzz::oracle::ascend {
namespace {

// One finding per kind: the first instance names the problem; the rest would repeat it.
void Note(SimResult& r, std::string_view id, const std::string& line) {
  r.clean = false;
  for (SimFinding& f : r.findings) {
    if (f.id == "tiling.sim." + std::string(id)) {
      ++f.count;
      return;
    }
  }
  r.findings.push_back({"tiling.sim." + std::string(id), line, 1});
}

std::string Range(int64_t a, int64_t b) {
  return "[" + std::to_string(a) + ", " + std::to_string(b) + ")";
}

// What the copy of one operand reads, along its row dimension R (M for A, N for B): ND rows as
// asked, NZ rows in whole 16-row fractals. `unit` is how many elements one row past R moves the
// address on: the K length for a row-major K-inner layout, 1 where R is the contiguous dimension,
// C0 inside an NZ column block.
struct OperandReads {
  char name;
  bool nz;
  int64_t rows, k, unit, size_x2;
  int64_t worst_end = 0;  // the furthest row any tile reads, and who reads it
  int64_t worst_core = -1, worst_r0 = 0;

  void Read(int64_t core, int64_t r0, int64_t r1) {
    const int64_t end = nz ? r0 + AlignUp(r1 - r0, 16) : r1;
    if (end > rows && end > worst_end) worst_end = end, worst_core = core, worst_r0 = r0;
  }
  void Report(SimResult& r) const {
    if (worst_core < 0) return;
    const int64_t total = nz ? AlignUp(k, CeilDiv(64, size_x2)) * AlignUp(rows, 16) : rows * k;
    const auto bytes = [&](int64_t elems) { return CeilDiv(SatMul({elems, size_x2}), 2); };
    const int64_t over = SatMul({worst_end - rows, unit});
    const std::string dim = name == 'A' ? "M" : "N";
    std::string line = std::string(1, name) + (nz ? " (NZ, read in 16-row fractals)" : " (ND)") +
                       ": core " + std::to_string(worst_core) + " reads rows " +
                       Range(worst_r0, worst_end) + " of " + dim + " = " + std::to_string(rows) +
                       ": bytes " + Range(bytes(total), bytes(total) + bytes(over)) + " past " +
                       std::string(1, name) + "'s " + std::to_string(bytes(total)) + " bytes";
    if (nz) line += ", and in every other K block rows of the next block's fractals";
    Note(r, name == 'A' ? "read_past_a" : "read_past_b", line);
  }
};

}  // namespace

bool SimResult::Has(std::string_view id) const {
  for (const SimFinding& f : findings) {
    if (f.id == id || f.id == "tiling.sim." + std::string(id)) return true;
  }
  return false;
}

namespace {

// The (mTile, nTile) sequence of one core: ORDER_M (0) walks stepN-wide N blocks outermost and M
// fastest inside a stepM x stepN block; ORDER_N (1) the transpose.
std::vector<std::pair<int64_t, int64_t>> TileOrder(int64_t m_iter, int64_t n_iter, int64_t step_m,
                                                   int64_t step_n, int order) {
  std::vector<std::pair<int64_t, int64_t>> seq;
  seq.reserve(static_cast<std::size_t>(m_iter * n_iter));
  if (order == 0) {
    for (int64_t nb = 0; nb < n_iter; nb += step_n) {
      for (int64_t mb = 0; mb < m_iter; mb += step_m) {
        for (int64_t m = mb; m < std::min(mb + step_m, m_iter); ++m) {
          for (int64_t n = nb; n < std::min(nb + step_n, n_iter); ++n) seq.push_back({m, n});
        }
      }
    }
  } else {
    for (int64_t mb = 0; mb < m_iter; mb += step_m) {
      for (int64_t nb = 0; nb < n_iter; nb += step_n) {
        for (int64_t n = nb; n < std::min(nb + step_n, n_iter); ++n) {
          for (int64_t m = mb; m < std::min(mb + step_m, m_iter); ++m) seq.push_back({m, n});
        }
      }
    }
  }
  return seq;
}

struct Rect {
  int64_t m0, m1, n0, n1;  // [m0, m1) x [n0, n1), inside C
};

struct Cover {
  int64_t missing = 0, twice = 0;  // elements of C written 0 times, and more than once
};

// The cuts of one axis of C: every tile edge on it, in order, and where a value is among them.
// Tile edges share a large divisor (the base tile), so a table of value / divisor finds a cut in
// O(1) and the cuts come out sorted without a sort; a sort and a search where the table would be
// too long.
class Cuts {
 public:
  Cuts(const std::vector<Rect>& rects, int64_t Rect::*lo, int64_t Rect::*hi, int64_t end) {
    int64_t g = end;
    for (const Rect& x : rects) {  // a remainder is cheaper than a gcd, and seldom nonzero
      if (g > 0 && x.*lo % g != 0) g = std::gcd(g, x.*lo);
      if (g > 0 && x.*hi % g != 0) g = std::gcd(g, x.*hi);
    }
    // A table a few times the edges long (an odd M makes the divisor 1: then sorting the few
    // edges is cheaper than a table of M entries).
    const auto edges = static_cast<int64_t>(rects.size());
    if (g > 0 && end / g <= std::min(int64_t{1} << 22, 8 * edges + 64)) {
      step_ = g;
      slot_.assign(static_cast<std::size_t>(end / g + 1), -1);
      slot_[0] = slot_.back() = 0;
      for (const Rect& x : rects) slot_[Slot(x.*lo)] = slot_[Slot(x.*hi)] = 0;
      for (std::size_t s = 0; s < slot_.size(); ++s) {
        if (slot_[s] < 0) continue;
        slot_[s] = static_cast<int64_t>(at_.size());
        at_.push_back(static_cast<int64_t>(s) * g);
      }
      return;
    }
    at_ = {0, end};
    for (const Rect& x : rects) at_.insert(at_.end(), {x.*lo, x.*hi});
    std::sort(at_.begin(), at_.end());
    at_.erase(std::unique(at_.begin(), at_.end()), at_.end());
  }
  int64_t count() const { return static_cast<int64_t>(at_.size()) - 1; }  // cells between cuts
  int64_t width(int64_t i) const {
    return at_[static_cast<std::size_t>(i + 1)] - at_[static_cast<std::size_t>(i)];
  }
  int64_t index(int64_t v) const {
    if (step_ > 0) return slot_[Slot(v)];
    return static_cast<int64_t>(std::lower_bound(at_.begin(), at_.end(), v) - at_.begin());
  }

 private:
  std::size_t Slot(int64_t v) const { return static_cast<std::size_t>(v / step_); }
  int64_t step_ = 0;           // the divisor of the table; 0: no table
  std::vector<int64_t> slot_;  // value / step_ -> its cut's index (-1: not a cut)
  std::vector<int64_t> at_;    // the cuts, ascending
};

// Exact write counts without a counter per element: the tile edges cut C into at most
// rows x cols cells, each written a uniform number of times. Tiles on a grid give about one cell
// per tile; nullopt when the cells would be too many (the caller falls back to the total area).
std::optional<Cover> CountWrites(const std::vector<Rect>& rects, int64_t M, int64_t N) {
  const Cuts rows(rects, &Rect::m0, &Rect::m1, M), cols(rects, &Rect::n0, &Rect::n1, N);
  const int64_t R = rows.count(), C = cols.count();
  if (R * C > (int64_t{1} << 24)) return std::nullopt;
  std::vector<uint8_t> count(static_cast<std::size_t>(R * C), 0);  // saturates at 2: enough
  for (const Rect& x : rects) {
    const int64_t i1 = rows.index(x.m1), j0 = cols.index(x.n0), j1 = cols.index(x.n1);
    for (int64_t i = rows.index(x.m0); i < i1; ++i) {
      for (int64_t j = j0; j < j1; ++j) {
        uint8_t& c = count[static_cast<std::size_t>(i * C + j)];
        c = static_cast<uint8_t>(std::min(c + 1, 2));
      }
    }
  }
  Cover out;
  for (int64_t i = 0; i < R; ++i) {
    for (int64_t j = 0; j < C; ++j) {
      const int64_t cells = rows.width(i) * cols.width(j);
      const uint8_t c = count[static_cast<std::size_t>(i * C + j)];
      if (c == 0) out.missing += cells;
      if (c > 1) out.twice += cells;
    }
  }
  return out;
}

}  // namespace

// A few seconds of symbolic walking; real kernels use far fewer tiles.
constexpr int64_t kMaxSimulatedTiles = int64_t{1} << 24;

SimResult Simulate(const Problem& p, const TCubeTiling& t, const SimOptions& options) {
  SimResult r;
  const int64_t sM = t[kSingleCoreM], sN = t[kSingleCoreN], sK = t[kSingleCoreK];
  const int64_t bM = t[kBaseM], bN = t[kBaseN], bK = t[kBaseK];
  const int64_t stM = t[kStepM], stN = t[kStepN];
  if (sM <= 0 || sN <= 0 || sK <= 0 || bM <= 0 || bN <= 0 || bK <= 0 || stM <= 0 || stN <= 0) {
    Note(r, "not_positive", "a size or step is not positive: nothing to simulate");
    return r;
  }
  const int64_t M = p.m, N = p.n, K = p.k;
  const int64_t m_blocks = CeilDiv(M, sM), n_blocks = CeilDiv(N, sN);
  const int64_t cores = t[kUsedCoreNum];
  if (sK > K)
    Note(r, "k_past_end",
         "singleCoreK " + std::to_string(sK) + " reads K columns past K = " + std::to_string(K));
  r.k_steps = CeilDiv(sK, bK);
  if (auto fault = KLoopFault(p, t)) Note(r, "k_loop", *fault);
  // A raw image can ask for 2^62 tiles; walking them would hang, so past a budget the tiling
  // is reported unsimulated (not clean) instead.
  // A core walks its block clipped to C, or (unclipped kernels) the whole singleCore block.
  const int64_t rows = options.clip_tails ? std::min(sM, M) : sM;
  const int64_t cols = options.clip_tails ? std::min(sN, N) : sN;
  const int64_t per_core = SatMul({CeilDiv(rows, bM), CeilDiv(cols, bN)});
  const int64_t all_tiles = SatMul({std::min(cores, m_blocks * n_blocks), per_core});
  if (all_tiles > kMaxSimulatedTiles || cores > kMaxSimulatedTiles) {
    Note(r, "too_large",
         "not simulated: " + std::to_string(all_tiles) + " C tiles on " + std::to_string(cores) +
             " cores exceed the simulator's budget of 2^24");
    return r;
  }
  // The operands as the copies read them (see OperandReads).
  OperandReads read_a{'A', p.a_format == Format::kNZ, M, K, 0, SizeTimes2(p.a)};
  read_a.unit = read_a.nz ? C0(p.a) : (p.trans_a ? 1 : K);
  OperandReads read_b{'B', p.b_format == Format::kNZ, N, K, 0, SizeTimes2(p.b)};
  read_b.unit = read_b.nz ? C0(p.b) : (p.trans_b ? K : 1);
  int64_t c_over = 0;  // the furthest element of C written past its end, and by whom
  std::string c_where;
  // Coverage: area written by valid tiles, and every tile inside C and inside its core's block.
  int64_t area = 0;
  const bool keep = SatMul({m_blocks, n_blocks, per_core}) <= 4096;
  std::vector<Rect> rects;                         // every tile, clipped to C, for exactly-once
  const bool small = M * N <= (int64_t{1} << 22);  // the numeric mode's bound
  for (int64_t core = 0; core < cores; ++core) {
    const int64_t m_idx = core % m_blocks, n_idx = core / m_blocks;
    const int64_t m_base = m_idx * sM, n_base = n_idx * sN;
    const int64_t tail_m = options.clip_tails ? std::min(sM, M - m_base) : sM;
    const int64_t tail_n = options.clip_tails ? std::min(sN, N - n_base) : sN;
    if (n_idx >= n_blocks || tail_m <= 0 || tail_n <= 0) {
      Note(r, "core_outside_grid",
           "core " + std::to_string(core) + " maps to C block (" + std::to_string(m_idx) + ", " +
               std::to_string(n_idx) + ") outside the " + std::to_string(m_blocks) + "x" +
               std::to_string(n_blocks) +
               " grid: its A/B/C offsets fall outside the matrices unless the kernel guards (K2)");
      continue;
    }
    const int64_t m_iter = CeilDiv(tail_m, bM), n_iter = CeilDiv(tail_n, bN);
    const auto seq = TileOrder(m_iter, n_iter, stM, stN, t[kIterateOrder] == 1 ? 1 : 0);
    if (static_cast<int64_t>(seq.size()) != m_iter * n_iter)
      Note(r, "tile_order", "core " + std::to_string(core) + ": tile order skips tiles");
    int order = 0;
    for (const auto& [mt, nt] : seq) {
      const int64_t m0 = m_base + mt * bM, m1 = std::min(m0 + bM, m_base + tail_m);
      const int64_t n0 = n_base + nt * bN, n1 = std::min(n0 + bN, n_base + tail_n);
      read_a.Read(core, m0, m1);
      read_b.Read(core, n0, n1);
      if (m1 > M || n1 > N) {
        // Row-major C: the tile's last element lands this many elements past C's end.
        const int64_t past = SatAdd(SatMul({m1 - 1, N}), n1) - M * N;
        if (c_where.empty() || past > c_over) {
          c_over = past;
          c_where = "core " + std::to_string(core) + " writes C rows " + Range(m0, m1) +
                    " x columns " + Range(n0, n1) + " of the " + std::to_string(M) + "x" +
                    std::to_string(N) + " C";
        }
      }
      const Rect in{std::max<int64_t>(m0, 0), std::min(m1, M), std::max<int64_t>(n0, 0),
                    std::min(n1, N)};
      if (in.m1 > in.m0 && in.n1 > in.n0) {
        area += (in.m1 - in.m0) * (in.n1 - in.n0);
        rects.push_back(in);
      }
      ++r.tiles;
      if (keep) r.visits.push_back({static_cast<int>(core), order, m0, m1, n0, n1});
      ++order;
    }
  }
  read_a.Report(r);
  read_b.Report(r);
  if (!c_where.empty()) {
    const auto bytes = [&](int64_t elems) { return CeilDiv(SatMul({elems, SizeTimes2(p.c)}), 2); };
    Note(r, "write_past_c",
         c_where + (c_over > 0 ? ": up to " + std::to_string(bytes(c_over)) + " bytes past C's end"
                               : ": outside its rows or columns"));
  }
  if (const auto cover = CountWrites(rects, M, N)) {
    if (cover->missing)
      Note(r, "c_unwritten", std::to_string(cover->missing) + " elements of C are never written");
    if (cover->twice)
      Note(r, "c_written_twice",
           std::to_string(cover->twice) + " elements of C are written more than once");
  } else if (area != M * N) {
    Note(r, "c_unwritten",
         "the C tiles cover " + std::to_string(area) + " elements of " + std::to_string(M * N));
  }
  // Numeric mode: small-integer matrices, so every accumulation order is exact.
  if (options.numeric && small && M * N * K <= (int64_t{1} << 24) && r.clean) {
    r.numeric_run = true;
    std::vector<int64_t> a(static_cast<std::size_t>(M * K)), b(static_cast<std::size_t>(K * N)),
        c(static_cast<std::size_t>(M * N), 0);
    for (int64_t i = 0; i < M * K; ++i) a[static_cast<std::size_t>(i)] = (i * 7 + 3) % 5 - 2;
    for (int64_t i = 0; i < K * N; ++i) b[static_cast<std::size_t>(i)] = (i * 11 + 1) % 7 - 3;
    std::vector<int64_t> bias(static_cast<std::size_t>(N));
    for (int64_t n = 0; n < N; ++n) bias[static_cast<std::size_t>(n)] = p.is_bias ? n % 3 : 0;
    const std::vector<KStep> k_steps = KLoopSteps(p, t, K);
    for (const auto& [m0, m1, n0, n1] : rects) {  // the tiles the coverage walk found, in order
      for (int64_t m = m0; m < m1; ++m) {
        for (int64_t n = n0; n < n1; ++n) {
          int64_t acc = bias[static_cast<std::size_t>(n)];
          for (const KStep& s : k_steps) {  // the kernel's K loop (Norm or MDL), tails included
            for (int64_t k = s.k0; k < s.k0 + s.len; ++k) {
              acc +=
                  a[static_cast<std::size_t>(m * K + k)] * b[static_cast<std::size_t>(k * N + n)];
            }
          }
          c[static_cast<std::size_t>(m * N + n)] = acc;
        }
      }
    }
    for (int64_t m = 0; m < M && r.clean; ++m) {
      for (int64_t n = 0; n < N; ++n) {
        int64_t want = bias[static_cast<std::size_t>(n)];
        for (int64_t k = 0; k < K; ++k)
          want += a[static_cast<std::size_t>(m * K + k)] * b[static_cast<std::size_t>(k * N + n)];
        if (c[static_cast<std::size_t>(m * N + n)] != want) {
          Note(r, "numeric_mismatch",
               "C[" + std::to_string(m) + "][" + std::to_string(n) +
                   "] = " + std::to_string(c[static_cast<std::size_t>(m * N + n)]) +
                   ", plain matmul gives " + std::to_string(want));
          break;
        }
      }
    }
  }
  return r;
}

std::string SimPicture(const Problem& p, const TCubeTiling& t, const SimResult& r) {
  if (r.visits.empty()) return "(too many tiles for a picture)\n";
  // Rows: distinct m0 values; columns: distinct n0 values.
  std::map<int64_t, int> rows, cols;
  for (const TileVisit& v : r.visits) {
    rows[v.m0] = 0;
    cols[v.n0] = 0;
  }
  if (rows.size() > 24 || cols.size() > 16) return "(too many tiles for a picture)\n";
  int i = 0;
  for (auto& [k, idx] : rows) idx = i++;
  i = 0;
  for (auto& [k, idx] : cols) idx = i++;
  std::vector<std::vector<std::string>> grid(rows.size(),
                                             std::vector<std::string>(cols.size(), "  .  "));
  for (const TileVisit& v : r.visits) {
    char cell[16];
    std::snprintf(cell, sizeof cell, "%2d:%-2d", v.core, v.order);
    grid[static_cast<std::size_t>(rows[v.m0])][static_cast<std::size_t>(cols[v.n0])] = cell;
  }
  std::string out = "C tiles (core:iteration), rows of baseM = " + std::to_string(t[kBaseM]) +
                    ", columns of baseN = " + std::to_string(t[kBaseN]) +
                    " (M = " + std::to_string(p.m) + ", N = " + std::to_string(p.n) + ")\n";
  for (const auto& row : grid) {
    out += " ";
    for (const auto& c : row) out += " " + c;
    out += "\n";
  }
  return out;
}

}  // namespace tcfuzz::oracle::ascend
