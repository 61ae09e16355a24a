#include "suites/kinds/sparse_exact_device.h"

#include <algorithm>
#include <chrono>
#include <string>
#include <thread>

#include "generators/core/random_source.h"
#include "generators/sparse/device_drawn_gen.h"
#include "harness/mma_sp_exec.h"
#include "harness/ptx_kernel.h"
#include "harness/sparse_exact.h"
#include "oracle/core/counter_hash.h"
#include "oracle/numerics/formats.h"
#include "suites/checks/sparse_mma_checks.h"
#include "suites/engine/device_campaign.h"
#include "suites/engine/parallel_for.h"
#include "suites/engine/worker_protocol.h"

namespace tcfuzz::suites {

using namespace oracle::sparse;
using oracle::num::Format;

std::vector<harness::SparseExactTable> SparseExactTables(
    std::span<const gen::DrawnVariant> variants) {
  std::vector<harness::SparseExactTable> tables;
  for (const gen::DrawnVariant& v : variants) {
    const SparseForm& f = *v.form;
    harness::SparseExactTable t;
    t.instruction = {static_cast<uint8_t>(f.type == Format::kBF16), static_cast<uint8_t>(f.k == 32),
                     static_cast<uint8_t>(v.variant == Variant::kOrdered),
                     static_cast<uint8_t>(v.selector)};
    t.chunk = static_cast<uint8_t>(f.chunk);
    t.kept = static_cast<uint8_t>(f.kept);
    t.per_lane = static_cast<uint8_t>(f.a_regs * f.per_reg());
    const std::span<const uint8_t> defined = DefinedNibbles(f, v.variant);
    t.nibble_count = static_cast<uint8_t>(defined.size());
    for (std::size_t i = 0; i < defined.size(); ++i) {
      t.nibbles[i] = defined[i];
      const std::vector<int> pos = KeptPositions(f, defined[i]);
      for (std::size_t s = 0; s < pos.size(); ++s) t.kept_pos[i][s] = static_cast<uint8_t>(pos[s]);
    }
    for (int x = 0; x < oracle::sparse::drawn::kValueCount; ++x) {
      t.element_bits[x] = static_cast<uint16_t>(
          oracle::num::FromDouble(f.type, x + oracle::sparse::drawn::kMinValue));
    }
    for (int lane = 0; lane < 32; ++lane) {
      for (int x = 0; x < t.per_lane; ++x) {
        const AElement a = MapA(f, lane, x / f.per_reg(), x % f.per_reg());
        t.a_row[lane][x] = static_cast<uint8_t>(a.row);
        t.a_col[lane][x] = static_cast<uint8_t>(a.chunk * f.kept + a.slot);
        const Coord b = MapB(f, lane, x / f.per_reg(), x % f.per_reg());
        t.b_row[lane][x] = static_cast<uint8_t>(b.row);
        t.b_col[lane][x] = static_cast<uint8_t>(b.col);
      }
      for (int x = 0; x < 4; ++x) {
        const Coord cd = MapCD(lane, x);
        t.cd_row[lane][x] = static_cast<uint8_t>(cd.row);
        t.cd_col[lane][x] = static_cast<uint8_t>(cd.col);
      }
    }
    for (int row = 0; row < 16; ++row) {
      for (int chunk = 0; chunk < f.chunks_per_row(); ++chunk) {
        const MetaLocation m = MapMeta(f, v.selector, row, chunk);
        const uint8_t n = t.meta_count[m.lane]++;
        t.meta_row[m.lane][n] = static_cast<uint8_t>(row);
        t.meta_chunk[m.lane][n] = static_cast<uint8_t>(chunk);
        t.meta_bit[m.lane][n] = static_cast<uint8_t>(m.bit);
      }
    }
    tables.push_back(t);
  }
  return tables;
}

namespace {

// The oracle's D of a rebuilt case, against the device's.
std::string Judge(uint64_t index, const gen::GeneratedSparse& g, const std::vector<uint32_t>& got,
                  oracle::num::Gpu gpu, bool device_failed) {
  const std::vector<uint32_t> want =
      Reference(g.tile, SparseParams(g.tile, gpu).value_or(oracle::num::ExactParams(g.tile.cd)));
  const std::string what = MismatchDetail(want, got);
  if (what.empty()) {
    return device_failed ? CaseLine(index, CaseOutcome::kHarnessError,
                                    "the device-side check failed a D the oracle agrees with" +
                                        ObservedField(got))
                         : std::string();
  }
  return CaseLine(
      index, CaseOutcome::kMismatch,
      what + (device_failed ? "" : " (the device-side check passed it)") + ObservedField(got));
}

}  // namespace

int RunSparseExactWorker(const WorkerArgs& a, std::ostream& out) {
  using Clock = std::chrono::steady_clock;
  const auto seconds_since = [](Clock::time_point t) {
    return std::chrono::duration<double>(Clock::now() - t).count();
  };
  const IndexProgression shard = ShardProgression(a);
  const uint64_t start = shard.start, stride = shard.stride, n = shard.count;
  std::vector<uint64_t> planted;  // test-only indices in this shard's range
  for (const auto* set : {&a.plant_fault, &a.plant_hang}) {
    for (const uint64_t i : *set) {
      if (i >= start && i < a.first + a.count && (i - start) % stride == 0) planted.push_back(i);
    }
  }
  std::sort(planted.begin(), planted.end());
  if (const auto r = RunPlantedFaults(a, planted, out)) return *r;
  const auto d = DeviceOrSkip(n, out);
  if (!d) return 0;
  std::string why = d->cc_major < 8 ? "mma.sp needs sm_80" : harness::SparseExactUnsupported();
  if (!why.empty()) {
    out << "unsupported " << n << " " << why << "\nran " << n << "\ndone\n";
    return 0;
  }
  const oracle::num::Gpu gpu = GpuOf(*d);
  const std::vector<harness::SparseExactTable> tables =
      SparseExactTables(ExactSuiteVariants(a.suite));
  const uint64_t key = gen::SuiteKey(a.seed, a.suite);
  const uint64_t per_launch = std::max<uint64_t>(1, a.cases_per_launch);
  // What the host judges: every kept D (the sampled cases and the first failures of each launch),
  // gathered over the whole range and judged at the end on every host thread (a launch keeps
  // only about 16, too few to spread).
  struct Kept {
    uint64_t index;
    std::vector<uint32_t> d_regs;
    bool device_failed;
  };
  std::vector<Kept> kept;
  std::size_t kept_failures = 0;
  double device_s = 0;
  for (uint64_t done = 0; done < n; done += per_launch) {
    harness::SparseExactLaunch l;
    l.tables = tables;
    l.suite_key = key;
    l.first = start + done * stride;
    l.stride = stride;
    l.count = std::min(per_launch, n - done);
    l.sample_every = kSparseExactSampleEvery;
    // A device that fails everything must not fill the host's memory with D's: past 8,192 kept
    // failures the rest are reported by index alone.
    l.keep_mismatches = kept_failures < 8192 ? 256 : 0;
    const Clock::time_point t0 = Clock::now();
    const auto got = harness::RunSparseExact(l);
    device_s += seconds_since(t0);
    if (!got.ok()) {
      if (!harness::IsContextSafeError(got.error())) {
        out << "fault " << got.error() << "\n" << std::flush;
        return kWorkerFaultExit;
      }
      for (uint64_t w = 0; w < l.count; ++w)
        out << CaseLine(l.first + w * stride, CaseOutcome::kHarnessError, got.error()) << "\n";
      continue;
    }
    harness::SparseExactResult r = got.value();
    std::vector<uint64_t>& failed = r.failed;
    std::sort(failed.begin(), failed.end());
    std::vector<bool> has_d(failed.size(), false);
    for (harness::SparseExactCase& k : r.kept) {
      const auto it = std::lower_bound(failed.begin(), failed.end(), k.index);
      const bool device_failed = it != failed.end() && *it == k.index;
      if (device_failed) {
        has_d[static_cast<std::size_t>(it - failed.begin())] = true;
        ++kept_failures;
      }
      kept.push_back({k.index, std::move(k.d_regs), device_failed});
    }
    for (std::size_t i = 0; i < failed.size(); ++i) {
      if (!has_d[i]) {
        out << CaseLine(failed[i], CaseOutcome::kMismatch,
                        "the device-side check failed it (its D was not kept: too many failures)")
            << "\n";
      }
    }
  }
  const Clock::time_point t1 = Clock::now();
  std::vector<std::string> lines(kept.size());
  const unsigned threads =
      a.threads ? a.threads : std::max(1u, std::thread::hardware_concurrency());
  ParallelFor(kept.size(), threads, [&](std::size_t i) {
    const gen::GeneratedSparse g = DrawSparseExactCase(a.suite, a.seed, kept[i].index);
    lines[i] = Judge(kept[i].index, g, harness::UnpackD(Format::kF32, kept[i].d_regs, 0), gpu,
                     kept[i].device_failed);
  });
  for (const std::string& line : lines) {
    if (!line.empty()) out << line << "\n";
  }
  const double judge_s = seconds_since(t1);
  out << PhaseLine("draw", 0) << "\n"
      << PhaseLine("device", device_s) << "\n"
      << PhaseLine("judge", judge_s) << "\n";
  out << "ran " << n << "\ndone\n";
  return 0;
}

}  // namespace tcfuzz::suites
