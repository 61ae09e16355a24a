#include <span>
#include <string>

#include "generators/core/random_source.h"
#include "oracle/tcgen05/instr_descriptor.h"
#include "oracle/tcgen05/zero_column_mask.h"
#include "suites/engine/worker_protocol.h"
#include "suites/kinds/descriptor_tile_judged.h"
#include "suites/kinds/judged_device.h"
#include "suites/kinds/judged_worker.h"

namespace tcfuzz::suites {

using oracle::num::Format;

const std::vector<oracle::tile::DescriptorTile>& Tcgen05JudgedLayoutTiles(uint64_t seed) {
  return PlaceableLayouts(seed, kTcgen05JudgedSuite, kTcgen05JudgedLayouts, [](gen::Source& s) {
    const Format type = s.Coin() ? Format::kBF16 : Format::kF16;
    // A third through .ws (N 64 or 128), as the tcgen05 suite; else N of 8..128 by 8 (Table 39,
    // cta_group::1, M = 128).
    const bool ws = s.Below(3) == 0;
    const int n = ws ? gen::kTcgen05WsN[s.Below(std::size(gen::kTcgen05WsN))]
                     : 8 * static_cast<int>(1 + s.Below(harness::kTcgen05JudgedMaxN / 8));
    return gen::DrawTcgen05Layout(s, type, n, ws);
  });
}

oracle::Result<std::vector<harness::Tcgen05JudgedLayout>> Tcgen05JudgedTable(
    const std::vector<oracle::tile::DescriptorTile>& layouts) {
  using R = oracle::Result<std::vector<harness::Tcgen05JudgedLayout>>;
  std::vector<harness::Tcgen05JudgedLayout> table;
  for (const oracle::tile::DescriptorTile& t : layouts) {
    if (t.a.view.rows != harness::kTcgen05JudgedM || t.n > harness::kTcgen05JudgedMaxN ||
        t.sparse || (t.ab != Format::kF16 && t.ab != Format::kBF16) || t.b_type != t.ab ||
        t.d != Format::kF32) {
      return R::Fail("tcgen05-judged: a layout is not a dense M = 128 f16/bf16 -> f32 tile");
    }
    harness::Tcgen05JudgedLayout l = TileLayoutOf<harness::Tcgen05JudgedLayout>(t);
    oracle::tcgen05::IdescFields f;
    f.a = f.b = t.ab;
    f.d = t.d;
    f.m = harness::kTcgen05JudgedM;
    f.n = t.n;
    f.transpose_a = l.mn_a;
    f.transpose_b = l.mn_b;
    // .ws: a descriptor whose max shift admits the mask's column shift.
    if (t.zero_column_mask)
      f.max_shift_code = oracle::tcgen05::IdescMaxShiftCodeFor(*t.zero_column_mask);
    const auto idesc =
        f.max_shift_code < 0 ? std::nullopt : oracle::tcgen05::EncodeInstrDescriptor(f);
    if (!idesc) return R::Fail("tcgen05-judged: no instruction descriptor for a layout");
    l.idesc = *idesc;
    for (int j = 0; j < t.n; ++j) l.b_column[j] = static_cast<int16_t>(j);
    if (t.zero_column_mask) {
      l.ws = 1;
      l.mask = *t.zero_column_mask;
      const auto e = oracle::tcgen05::Expand(l.mask, harness::kTcgen05JudgedM, t.n);
      if (!e) return R::Fail("tcgen05-judged: a zero-column mask does not expand");
      for (int j = 0; j < t.n; ++j) {
        const int from = e->b_column[static_cast<std::size_t>(j)];
        if (from >= t.n) return R::Fail("tcgen05-judged: a mask shifts a column past B's rows");
        l.b_column[j] = static_cast<int16_t>(from);
      }
    }
    table.push_back(l);
  }
  return R::Ok(std::move(table));
}

gen::GeneratedTile DrawTcgen05JudgedCase(uint64_t seed, uint64_t index) {
  return DrawJudgedTile(seed, kTcgen05JudgedSuite, Tcgen05JudgedLayoutTiles(seed), index);
}

std::string Tcgen05JudgedUnsupported(const harness::DeviceInfo& d) {
  if (d.cc_major != 10 || d.cc_minor != 0)
    return "tcgen05-judged runs sm_100a code: needs compute capability 10.0";
  return JudgedKernelUnsupported<harness::Tcgen05JudgedLaunch>(d, oracle::num::Instr::kTcgen05);
}

harness::Tcgen05JudgedLaunch Tcgen05JudgedLaunchFor(
    std::span<const harness::Tcgen05JudgedLayout> table, oracle::num::Gpu gpu) {
  return TileJudgedLaunchFor<harness::Tcgen05JudgedLaunch>(table, gpu,
                                                           oracle::num::Instr::kTcgen05);
}

int RunTcgen05JudgedWorker(const WorkerArgs& a, std::ostream& out) {
  const auto table = Tcgen05JudgedTable(Tcgen05JudgedLayoutTiles(a.seed));
  JudgedSuiteHalf half;
  half.unsupported = [&table](const harness::DeviceInfo& d) {
    const std::string why = Tcgen05JudgedUnsupported(d);  // the device first, then the layouts
    return why.empty() && !table.ok() ? table.error() : why;
  };
  half.launch = JudgedLaunches<harness::Tcgen05JudgedLaunch>([&table](oracle::num::Gpu gpu) {
    return Tcgen05JudgedLaunchFor(table.value(), gpu);  // ok: the predicate said so
  });
  half.judge = [&](uint64_t index, const std::vector<uint32_t>& d, bool device_failed,
                   oracle::num::Gpu) {
    // D comes back row-major.
    return JudgeKeptTile(index, DrawTcgen05JudgedCase(a.seed, index).tile, d, device_failed);
  };
  half.sample_every = kJudgedSampleEvery;
  SetTileFamilies(half, Tcgen05JudgedLayoutTiles(a.seed), a.seed, kTcgen05JudgedSuite);
  return RunJudgedWorker(a, out, half);
}

}  // namespace tcfuzz::suites
