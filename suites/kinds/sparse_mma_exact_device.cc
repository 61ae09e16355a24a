#include <span>
#include <string>

#include "generators/core/random_source.h"
#include "generators/sparse/device_drawn_gen.h"
#include "harness/judged_suites.h"
#include "harness/ptx_kernel.h"
#include "harness/sparse_mma_exec.h"
#include "oracle/core/counter_hash.h"
#include "oracle/numerics/formats.h"
#include "suites/checks/sparse_mma_checks.h"
#include "suites/engine/device_campaign.h"
#include "suites/kinds/judged_device.h"
#include "suites/kinds/judged_worker.h"

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

std::vector<std::string> SparseVariantFamilies(std::span<const gen::DrawnVariant> variants) {
  std::vector<std::string> names;
  for (const gen::DrawnVariant& v : variants)
    names.push_back(
        SparseFamily(*v.form, v.variant, v.form->type, v.form->type, oracle::num::Format::kF32));
  return names;
}

void SetSparseFamilies(JudgedSuiteHalf& half, std::span<const gen::DrawnVariant> variants,
                       uint64_t seed, std::string_view suite) {
  SetFamilies(half, SparseVariantFamilies(variants), seed, suite,
              [count = variants.size()](uint64_t case_seed) {
                return gen::DrawnVariantIndex(case_seed, count);
              });
}

std::string SparseExactUnsupported(const harness::DeviceInfo& d) {
  if (d.cc_major < 8) return "mma.sp needs sm_80";
  return JudgedKernelUnsupported<harness::SparseExactLaunch>(d, std::nullopt);  // exact sums
}

int RunSparseExactWorker(const WorkerArgs& a, std::ostream& out) {
  const std::vector<harness::SparseExactTable> tables =
      SparseExactTables(ExactSuiteVariants(a.suite));
  JudgedSuiteHalf half;
  half.unsupported = SparseExactUnsupported;
  half.launch = JudgedLaunches<harness::SparseExactLaunch>([&tables](oracle::num::Gpu) {
    harness::SparseExactLaunch l;
    l.tables = tables;
    return l;
  });
  half.judge = [&](uint64_t index, const std::vector<uint32_t>& d_regs, bool device_failed,
                   oracle::num::Gpu gpu) {
    const gen::GeneratedSparse g = DrawSparseExactCase(a.suite, a.seed, index);
    const std::vector<uint32_t> want =
        Reference(g.tile, SparseParams(g.tile, gpu).value_or(oracle::num::ExactParams(g.tile.cd)));
    return JudgeKept(index, want, harness::UnpackD(Format::kF32, d_regs, 0), device_failed);
  };
  half.sample_every = kJudgedSampleEvery;
  SetSparseFamilies(half, ExactSuiteVariants(a.suite), a.seed, a.suite);
  return RunJudgedWorker(a, out, half);
}

}  // namespace tcfuzz::suites
