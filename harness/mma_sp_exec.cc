#include "harness/mma_sp_exec.h"

#include "harness/ptx_kernel.h"

namespace tcfuzz::harness {

using namespace oracle::sparse;
using oracle::num::Format;

oracle::Result<std::vector<std::vector<uint32_t>>> RunMmaSp(const MmaSpSpec& spec, std::span<const MmaSpCase> cases) {
  using R = oracle::Result<std::vector<std::vector<uint32_t>>>;
  const SparseForm& f = *spec.form;
  const int cr = CdRegisters(spec.cd);
  const int eb = f.elem_bits();
  const uint64_t mask = eb == 32 ? 0xFFFFFFFFull : (uint64_t{1} << eb) - 1;
  const std::size_t n = cases.size();
  std::vector<uint32_t> a(n * 32 * f.a_regs), b(n * 32 * f.b_regs), c(n * 32 * cr), e(n * 32);
  for (std::size_t i = 0; i < n; ++i) {
    const SparseTile& t = cases[i].tile;
    for (int lane = 0; lane < 32; ++lane) {
      const std::size_t idx = i * 32 + static_cast<std::size_t>(lane);
      for (int reg = 0; reg < f.a_regs; ++reg) {
        uint32_t word = 0;
        for (int pos = 0; pos < f.per_reg(); ++pos) {
          const AElement x = MapA(f, lane, reg, pos);
          const uint64_t v = t.a[static_cast<std::size_t>(x.row * (f.k / 2) + x.chunk * f.kept + x.slot)];
          word |= static_cast<uint32_t>((v & mask) << (pos * eb));
        }
        a[idx * f.a_regs + reg] = word;
      }
      for (int reg = 0; reg < f.b_regs; ++reg) {
        uint32_t word = 0;
        for (int pos = 0; pos < f.per_reg(); ++pos) {
          const Coord x = MapB(f, lane, reg, pos);
          word |= static_cast<uint32_t>((t.b[static_cast<std::size_t>(x.row * 8 + x.col)] & mask) << (pos * eb));
        }
        b[idx * f.b_regs + reg] = word;
      }
      for (int k = 0; k < 4; ++k) {
        const Coord x = MapCD(lane, k);
        const uint32_t v = t.c[static_cast<std::size_t>(x.row * 8 + x.col)];
        if (cr == 2) {
          c[idx * 2 + k / 2] |= (v & 0xFFFF) << (16 * (k % 2));
        } else {
          c[idx * 4 + k] = v;
        }
      }
      e[idx] = cases[i].op.meta[static_cast<std::size_t>(lane)];
    }
  }
  const std::string target = DeviceTarget();
  if (target.empty()) return R::Fail("no CUDA device");
  KernelLaunch l;
  l.ptx = MmaSpModule(spec, target);
  l.entry = "tcfuzz_mma_sp";
  l.inputs = {std::move(a), std::move(b), std::move(c), std::move(e)};
  l.output_words = n * 32 * cr;
  l.n = static_cast<uint32_t>(n);
  l.grid = static_cast<unsigned>((n + 3) / 4);
  auto out = RunPtxKernel(l);
  if (!out.ok()) return R::Fail(out.error());
  std::vector<std::vector<uint32_t>> d(n, std::vector<uint32_t>(16 * 8));
  for (std::size_t i = 0; i < n; ++i) {
    for (int lane = 0; lane < 32; ++lane) {
      const std::size_t idx = i * 32 + static_cast<std::size_t>(lane);
      for (int k = 0; k < 4; ++k) {
        const Coord x = MapCD(lane, k);
        const uint32_t v = cr == 2 ? (out.value()[idx * 2 + k / 2] >> (16 * (k % 2))) & 0xFFFF : out.value()[idx * 4 + k];
        d[i][static_cast<std::size_t>(x.row * 8 + x.col)] = v;
      }
    }
  }
  return R::Ok(std::move(d));
}

}  // namespace tcfuzz::harness
