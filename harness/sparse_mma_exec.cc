#include "harness/sparse_mma_exec.h"

#include <span>

#include "harness/backend.h"
#include "harness/ptx_kernel.h"

namespace tcfuzz::harness {

using namespace oracle::sparse;
using oracle::num::Format;

PackedMmaSp PackMmaSp(const MmaSpSpec& spec, std::span<const MmaSpCase> cases) {
  const SparseForm& f = *spec.form;
  const int cr = CdRegisters(spec.cd);
  const std::size_t n = cases.size();
  const int per_reg = f.per_reg();
  // Where each (lane, register, position) reads A and B from: the fragment maps once per
  // batch, not once per case (they were most of the packing time).
  std::vector<std::size_t> a_from(static_cast<std::size_t>(32 * f.a_regs * per_reg));
  std::vector<std::size_t> b_from(static_cast<std::size_t>(32 * f.b_regs * per_reg));
  for (int lane = 0; lane < 32; ++lane) {
    for (int pos = 0; pos < per_reg; ++pos) {
      for (int reg = 0; reg < f.a_regs; ++reg) {
        const AElement x = MapA(f, lane, reg, pos);
        a_from[static_cast<std::size_t>((lane * f.a_regs + reg) * per_reg + pos)] =
            static_cast<std::size_t>(x.row * (f.k / 2) + x.chunk * f.kept + x.slot);
      }
      for (int reg = 0; reg < f.b_regs; ++reg) {
        const Coord x = MapB(f, lane, reg, pos);
        b_from[static_cast<std::size_t>((lane * f.b_regs + reg) * per_reg + pos)] =
            static_cast<std::size_t>(x.row * 8 + x.col);
      }
    }
  }
  PackedMmaSp p;
  p.a.assign(n * 32 * f.a_regs, 0), p.b.assign(n * 32 * f.b_regs, 0), p.c.assign(n * 32 * cr, 0),
      p.e.assign(n * 32, 0);
  for (std::size_t i = 0; i < n; ++i) {
    const SparseTile& t = cases[i].tile;
    for (int lane = 0; lane < 32; ++lane) {
      const std::size_t idx = i * 32 + static_cast<std::size_t>(lane);
      for (int reg = 0; reg < f.a_regs; ++reg) {
        const std::size_t* from =
            &a_from[static_cast<std::size_t>((lane * f.a_regs + reg) * per_reg)];
        p.a[idx * f.a_regs + reg] =
            PackRegister(per_reg, f.elem_bits(), [&](int pos) { return t.a[from[pos]]; });
      }
      for (int reg = 0; reg < f.b_regs; ++reg) {
        const std::size_t* from =
            &b_from[static_cast<std::size_t>((lane * f.b_regs + reg) * per_reg)];
        p.b[idx * f.b_regs + reg] =
            PackRegister(per_reg, f.elem_bits(), [&](int pos) { return t.b[from[pos]]; });
      }
      PackC(spec.cd, t.c, lane, &p.c[idx * static_cast<std::size_t>(cr)]);
      p.e[idx] = cases[i].op.meta[static_cast<std::size_t>(lane)];
    }
  }
  return p;
}

void PackC(Format cd, std::span<const uint32_t> c, int lane, uint32_t* regs) {
  const int cr = CdRegisters(cd);
  for (int k = 0; k < cr; ++k) regs[k] = 0;
  for (int k = 0; k < 4; ++k) {
    const Coord x = MapCD(lane, k);
    const uint32_t v = c[static_cast<std::size_t>(x.row * 8 + x.col)];
    if (cr == 2) {
      regs[k / 2] |= (v & 0xFFFF) << (16 * (k % 2));
    } else {
      regs[k] = v;
    }
  }
}

std::vector<uint32_t> UnpackD(Format cd, std::span<const uint32_t> d_regs, std::size_t i) {
  const int cr = CdRegisters(cd);
  std::vector<uint32_t> d(16 * 8);
  for (int lane = 0; lane < 32; ++lane) {
    const std::size_t idx = i * 32 + static_cast<std::size_t>(lane);
    for (int k = 0; k < 4; ++k) {
      const Coord x = MapCD(lane, k);
      d[static_cast<std::size_t>(x.row * 8 + x.col)] =
          cr == 2 ? (d_regs[idx * 2 + k / 2] >> (16 * (k % 2))) & 0xFFFF : d_regs[idx * 4 + k];
    }
  }
  return d;
}

WarpMmaCall WarpMmaCallOf(const MmaSpSpec& spec, const PackedMmaSp& p) {
  WarpMmaCall w{std::string(spec.form->shape), MmaSpInstruction(spec), {}};
  tcfuzz_warp_mma& c = w.fields;
  c.a_type = oracle::num::Name(spec.a_type).data();
  c.b_type = oracle::num::Name(spec.b_type).data();
  c.cd_type = oracle::num::Name(spec.cd).data();
  c.sparse = 1;
  c.ordered_metadata = spec.variant == Variant::kOrdered;
  c.selector = spec.selector;
  c.satfinite = spec.satfinite;
  c.warps = static_cast<uint32_t>(p.e.size() / 32);
  c.a = p.a.data(), c.a_regs = static_cast<uint32_t>(spec.form->a_regs);
  c.b = p.b.data(), c.b_regs = static_cast<uint32_t>(spec.form->b_regs);
  c.c = p.c.data(), c.cd_regs = static_cast<uint32_t>(CdRegisters(spec.cd));
  c.e = p.e.data();
  return w;
}

oracle::Result<std::vector<std::vector<uint32_t>>> RunMmaSp(const MmaSpSpec& spec,
                                                            std::span<const MmaSpCase> cases) {
  using R = oracle::Result<std::vector<std::vector<uint32_t>>>;
  const std::size_t n = cases.size();
  PackedMmaSp p = PackMmaSp(spec, cases);
  const std::size_t d_words = n * 32 * static_cast<std::size_t>(CdRegisters(spec.cd));
  const auto unpack_all = [&](std::span<const uint32_t> out) {
    std::vector<std::vector<uint32_t>> d;
    d.reserve(n);
    for (std::size_t i = 0; i < n; ++i) d.push_back(UnpackD(spec.cd, out, i));
    return R::Ok(std::move(d));
  };
  const auto on_host = RunWarpMmaOnHost(WarpMmaCallOf(spec, p));
  if (on_host) return on_host->ok() ? unpack_all(on_host->value()) : R::Fail(on_host->error());
  std::string target = DeviceTarget();
  if (target.empty()) return R::Fail("no CUDA device");
  // Arch-specific forms (sm_120a) assemble only for the suffixed target of their own device.
  if (spec.form->target == target + "a") target += "a";
  KernelLaunch l;
  l.ptx = MmaSpModule(spec, target);
  l.entry = "tcfuzz_mma_sp";
  l.inputs = {std::move(p.a), std::move(p.b), std::move(p.c), std::move(p.e)};
  l.n = static_cast<uint32_t>(n);
  l.grid = static_cast<unsigned>((n + 3) / 4);
  l.output_words = d_words;
  auto out = RunPtxKernel(l);
  if (!out.ok()) return R::Fail(out.error());
  return unpack_all(out.value());
}

}  // namespace tcfuzz::harness
