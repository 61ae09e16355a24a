#include "suites/kinds/descriptor_tile_cases.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>
#include <span>

#include "generators/core/random_source.h"
#include "oracle/smem/smem_case.h"
#include "oracle/sparse/sparse_metadata.h"
#include "oracle/tcgen05/zero_column_mask.h"
#include "suites/engine/case_file.h"
#include "suites/engine/worker_protocol.h"

namespace tcfuzz::suites {

using oracle::tile::DescriptorTile;

namespace {

// One case in eight breaks a descriptor rule: enough to map what the device does with each
// rule in a campaign, few enough that the legal space keeps its share.
void MaybeBreak(gen::Source& s, gen::GeneratedTile& g) {
  if (s.Below(8) == 0) gen::BreakOneDescriptor(s, g);
}

std::string OperandFamily(const oracle::smem::SmemCase& c) {
  const auto m = oracle::smem::DecodeMatrix(c.arch, c.desc);
  return std::string(oracle::smem::Name(c.view.major)) + "." +
         (m ? std::string(oracle::smem::Name(m->swizzle)) : "?");
}

std::string HexByte(uint64_t byte) {
  char b[24];
  std::snprintf(b, sizeof b, "0x%05llx", static_cast<unsigned long long>(byte));
  return b;
}

// A broken tile's D (when there is one) against the oracle's reading of its descriptors as
// decoded. The reading is computed before the D is looked at, with or without one: replay is where
// the text fuzzer reaches the oracle on a broken tile (the kind's reprint leaves it out).
std::string AsIfDetail(const DescriptorTile& t, const std::vector<uint32_t>* observed) {
  const auto want = oracle::tile::TileReference(t);
  if (!want.ok()) return "no as-if reading (" + want.error() + ")";
  if (observed == nullptr) return "no device D in the file to hold against the as-if reading";
  const std::string diff = MismatchDetail(want.value(), *observed, static_cast<std::size_t>(t.n));
  return diff.empty() ? "as-if" : "differs from the as-if reading, " + diff;
}

}  // namespace

gen::GeneratedTile DrawSmemHwCase(uint64_t seed, uint64_t index) {
  gen::RandomSource s(gen::CaseSeed(seed, kSmemHwSuite, index));
  // One tile in four is wgmma.mma_async.sp.
  gen::GeneratedTile g = s.Below(4) == 0 ? gen::DrawWgmmaSpTile(s) : gen::DrawWgmmaTile(s);
  MaybeBreak(s, g);
  return g;
}

gen::GeneratedTile DrawTcgen05Case(uint64_t seed, uint64_t index) {
  gen::RandomSource s(gen::CaseSeed(seed, kTcgen05Suite, index));
  // A third through .ws with a zero-column mask, a sixth .sp, the rest dense.
  const uint64_t form = s.Below(6);
  gen::GeneratedTile g = form == 5 ? gen::DrawTcgen05SpTile(s) : gen::DrawTcgen05Tile(s, form < 2);
  MaybeBreak(s, g);
  return g;
}

std::string TileFamily(const DescriptorTile& t) {
  std::string types = t.sparse ? "sp." + std::string(oracle::num::Name(t.ab))
                               : std::string(oracle::num::Name(t.ab));
  if (t.b_type != t.ab) types += "x" + std::string(oracle::num::Name(t.b_type));
  return types + "." + std::string(oracle::num::Name(t.d)) + " a:" + OperandFamily(t.a) +
         " b:" + OperandFamily(t.b) + (t.zero_column_mask ? " ws" : "");
}

std::string TileProbeExplanation(const gen::GeneratedTile& g,
                                 const std::vector<uint32_t>& observed) {
  const DescriptorTile& t = g.tile;
  if (g.values != gen::TileValues::kProbe) return {};
  const auto want = oracle::tile::TileReference(t);
  const auto a = oracle::tile::ReadOperand(t, oracle::smem::Operand::kA);
  const auto b = oracle::tile::ReadOperand(t, oracle::smem::Operand::kB);
  const auto map_a = oracle::smem::Map(t.a);
  if (!want.ok() || !a || !b || !map_a.ok() || observed.size() != want.value().size()) return {};
  const auto first = FirstDifference(want.value(), observed);
  if (!first) return {};
  const int k = oracle::tile::TileK(t), row = static_cast<int>(*first / t.n),
            col = static_cast<int>(*first % t.n);
  const std::string at = "probe: D[" + std::to_string(row) + "][" + std::to_string(col) + "]";
  int b_col = col;
  if (t.zero_column_mask) {
    const auto e = oracle::tcgen05::Expand(*t.zero_column_mask, t.a.view.rows, t.n);
    if (e) b_col = e->b_column[static_cast<size_t>(col)];
    if (b_col < 0) return at + " is a zeroed column: the oracle reads zeros, the device did not";
  }
  int hot = -1, hots = 0;
  for (int kk = 0; kk < k; ++kk) {
    if ((*b)[static_cast<size_t>(b_col * k + kk)] != 0) hot = kk, ++hots;
  }
  if (hots != 1)
    return at + ": B's column " + std::to_string(b_col) + " has " + std::to_string(hots) +
           " non-zero K (aliased layout)";
  // The stored A element that meets K = hot: dense, A(row, hot); sparse, the kept one whose
  // nibble names hot, if any.
  int meets = hot;
  if (t.sparse) {
    const oracle::sparse::SparseForm& f = *t.sparse->form;
    const auto cpr = static_cast<size_t>(f.chunks_per_row());
    const std::vector<int> ks = oracle::sparse::KeptK(
        f, std::span(t.sparse->nibbles).subspan(static_cast<size_t>(row) * cpr, cpr));
    const auto it = std::find(ks.begin(), ks.end(), hot);
    meets = it == ks.end() ? -1 : static_cast<int>(it - ks.begin());
  }
  std::string s =
      at + " meets B's one hot K = " + std::to_string(hot) + "; the oracle reads " +
      (meets < 0
           ? std::string("no A element (K = " + std::to_string(hot) + " is not kept in this row)")
           : "A(" + std::to_string(row) + "," + std::to_string(meets) + ") at byte " +
                 HexByte(map_a.value().Byte(row, meets)));
  const double v = oracle::num::ToDouble(t.d, observed[*first]);
  std::string holders;
  int found = 0;
  const int stored = t.sparse ? k / 2 : k;
  for (int r = 0; r < t.a.view.rows && std::isfinite(v) && v != 0; ++r) {
    for (int kk = 0; kk < stored; ++kk) {
      if (oracle::num::ToDouble(t.ab, (*a)[static_cast<size_t>(r * stored + kk)]) != v) continue;
      if (++found <= 3) {
        holders += (holders.empty() ? "" : ", ") + std::string("A(") + std::to_string(r) + "," +
                   std::to_string(kk) + ") at byte " + HexByte(map_a.value().Byte(r, kk));
      }
    }
  }
  char value[32];
  std::snprintf(value, sizeof value, "%g", v);
  if (found == 0)
    return s + "; the device's " + value +
           " is no A element's value (poison or other bytes were read)";
  return s + "; the device's " + value + " is the value of " + holders +
         (found > 3 ? " (+" + std::to_string(found - 3) + " more)" : "");
}

std::string BrokenRules(const DescriptorTile& t) {
  std::set<std::string> ids = oracle::smem::Validate(t.a).RuleIds();
  const auto b = oracle::smem::Validate(t.b).RuleIds();
  ids.insert(b.begin(), b.end());
  return ids.empty() ? std::string() : oracle::JoinRuleIds(ids);
}

std::string UndefinedDetail(const DescriptorTile& t, const std::vector<uint32_t>& observed) {
  return BrokenRules(t) + ": " + AsIfDetail(t, &observed);
}

oracle::Result<oracle::tile::DescriptorTileFile> ReadDescriptorTileCase(const std::string& path) {
  return ReadCaseFile(path, oracle::tile::kDescriptorTileKind, oracle::tile::DescriptorTileFromDoc);
}

oracle::Result<Replayed> ReplayDescriptorTile(const oracle::TextDoc& doc) {
  using R = oracle::Result<Replayed>;
  auto f = oracle::tile::DescriptorTileFromDoc(doc);
  if (!f.ok()) return R::Fail(f.error());
  const DescriptorTile& t = f.value().tile;
  // A broken descriptor is undefined by the spec: the file records what a device did, and no
  // answer is wrong; the note says what the device run's record says (descriptor_tile_device.cc).
  if (const std::string broken = BrokenRules(t); !broken.empty()) {
    const auto& observed = f.value().observed;
    return R::Ok({{},
                  "breaks " + broken +
                      ": undefined by spec, what a device returns is recorded, not judged; " +
                      AsIfDetail(t, observed ? &*observed : nullptr)});
  }
  const auto want = oracle::tile::TileReference(t);
  if (!want.ok()) return R::Fail(want.error());
  if (!f.value().observed) return R::Ok(UnobservedDeviceCase(doc, "tile"));
  Replayed out;
  if (const std::string what =
          MismatchDetail(want.value(), *f.value().observed, static_cast<std::size_t>(t.n));
      !what.empty()) {
    out.failures.push_back({"tile.device_mismatch", what});
  }
  return R::Ok(out);
}

}  // namespace tcfuzz::suites
