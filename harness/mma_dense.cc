#include "harness/mma_dense.h"

#include <algorithm>
#include <span>

#include "harness/backend.h"
#include "harness/ptx_kernel.h"
#include "harness/sparse_mma_exec.h"
#include "harness/sparse_mma_ptx.h"
#include "harness/warp_mma_ptx.h"
#include "oracle/ptx/instruction_form.h"

namespace tcfuzz::harness {

using namespace oracle::mma;
using oracle::num::Format;

namespace {

// The oracle's spelling of the form (its opcode and the PTX version that first has it).
oracle::ptx::PtxForm SpellingOf(const MmaDenseSpec& s) {
  const DenseForm& f = *s.form;
  oracle::ptx::PtxForm spelling;
  spelling.family = oracle::ptx::Family::kMma;
  spelling.shape = std::string(f.shape);
  spelling.satfinite = s.satfinite;
  spelling.a = s.a_type;
  spelling.b = s.b_type;
  spelling.d = spelling.c = s.cd;
  return spelling;
}

}  // namespace

std::string MmaDenseInstruction(const MmaDenseSpec& s) {
  const DenseForm& f = *s.form;
  const std::string ins = SpellingOf(s).Opcode();
  const int cr = CdRegisters(s.cd);
  return ins + " " + PtxRegList("d", cr) + ", " + PtxRegList("a", f.a_regs()) + ", " +
         PtxRegList("b", f.b_regs()) + ", " + PtxRegList("c", cr) + ";";
}

std::string MmaDenseModule(const MmaDenseSpec& s, const std::string& target) {
  // 8.5 at least (the targets' own minimum); fp8 with an f16 D first appears in 8.7.
  const oracle::ptx::PtxVersion v = std::max(85, oracle::ptx::FormMinVersion(SpellingOf(s)));
  return WarpMmaModule(
      {"tcfuzz_mma_dense", ".version " + oracle::ptx::VersionText(v), MmaDenseInstruction(s),
       s.form->a_regs(), s.form->b_regs(), CdRegisters(s.cd), false},
      target);
}

PackedMmaDense PackMmaDense(const MmaDenseSpec& spec, std::span<const DenseTile> tiles) {
  const DenseForm& f = *spec.form;
  const int cr = CdRegisters(spec.cd);
  const std::size_t n = tiles.size();
  PackedMmaDense p;
  p.a.assign(n * 32 * static_cast<std::size_t>(f.a_regs()), 0);
  p.b.assign(n * 32 * static_cast<std::size_t>(f.b_regs()), 0);
  p.c.assign(n * 32 * static_cast<std::size_t>(cr), 0);
  for (std::size_t i = 0; i < n; ++i) {
    const DenseTile& t = tiles[i];
    for (int lane = 0; lane < 32; ++lane) {
      const std::size_t idx = i * 32 + static_cast<std::size_t>(lane);
      for (int reg = 0; reg < f.a_regs(); ++reg) {
        p.a[idx * static_cast<std::size_t>(f.a_regs()) + static_cast<std::size_t>(reg)] =
            PackRegister(f.per_reg(), f.elem_bits(), [&](int pos) {
              const Coord x = MapDenseA(f, lane, reg, pos);
              return t.a[static_cast<std::size_t>(x.row * f.k + x.col)];
            });
      }
      for (int reg = 0; reg < f.b_regs(); ++reg) {
        p.b[idx * static_cast<std::size_t>(f.b_regs()) + static_cast<std::size_t>(reg)] =
            PackRegister(f.per_reg(), f.elem_bits(), [&](int pos) {
              const Coord x = MapDenseB(f, lane, reg, pos);
              return t.b[static_cast<std::size_t>(x.row * 8 + x.col)];
            });
      }
      PackC(spec.cd, t.c, lane, &p.c[idx * static_cast<std::size_t>(cr)]);
    }
  }
  return p;
}

PreparedLaunch PrepareMmaDense(const MmaDenseSpec& spec, std::span<const DenseTile> tiles,
                               const std::string& target) {
  PackedMmaDense p = PackMmaDense(spec, tiles);
  const int cr = CdRegisters(spec.cd);
  PreparedLaunch l;
  l.launch.ptx = MmaDenseModule(spec, target);
  l.launch.entry = "tcfuzz_mma_dense";
  l.launch.inputs = {std::move(p.a), std::move(p.b), std::move(p.c)};
  l.launch.output_words = tiles.size() * 32 * static_cast<std::size_t>(cr);
  l.launch.n = static_cast<uint32_t>(tiles.size());
  l.launch.grid = static_cast<unsigned>((tiles.size() + 3) / 4);
  l.cases = tiles.size();
  l.unpack = [cd = spec.cd](std::span<const uint32_t> out, std::size_t i) {
    return oracle::Result<std::vector<uint32_t>>::Ok(UnpackD(cd, out, i));
  };
  return l;
}

WarpMmaCall WarpMmaCallOf(const MmaDenseSpec& spec, const PackedMmaDense& p) {
  WarpMmaCall w{std::string(spec.form->shape), MmaDenseInstruction(spec), {}};
  tcfuzz_warp_mma& c = w.fields;
  c.a_type = oracle::num::Name(spec.a_type).data();
  c.b_type = oracle::num::Name(spec.b_type).data();
  c.cd_type = oracle::num::Name(spec.cd).data();
  c.satfinite = spec.satfinite;
  c.cd_regs = static_cast<uint32_t>(CdRegisters(spec.cd));
  c.warps = static_cast<uint32_t>(p.c.size() / (32 * c.cd_regs));
  c.a = p.a.data(), c.a_regs = static_cast<uint32_t>(spec.form->a_regs());
  c.b = p.b.data(), c.b_regs = static_cast<uint32_t>(spec.form->b_regs());
  c.c = p.c.data();
  return w;
}

oracle::Result<std::vector<std::vector<uint32_t>>> RunMmaDense(const MmaDenseSpec& spec,
                                                               std::span<const DenseTile> tiles) {
  using R = oracle::Result<std::vector<std::vector<uint32_t>>>;
  const std::size_t n = tiles.size();
  if (const auto host = HostBackend(); !host.ok() || host.value() != nullptr) {
    const PackedMmaDense p = PackMmaDense(spec, tiles);
    const auto on_host = RunWarpMmaOnHost(WarpMmaCallOf(spec, p));
    if (on_host) {
      if (!on_host->ok()) return R::Fail(on_host->error());
      std::vector<std::vector<uint32_t>> d;
      d.reserve(n);
      for (std::size_t i = 0; i < n; ++i) d.push_back(UnpackD(spec.cd, on_host->value(), i));
      return R::Ok(std::move(d));
    }
  }
  const std::string target = DeviceTarget();
  if (target.empty()) return R::Fail("no CUDA device");
  return RunPrepared(PrepareMmaDense(spec, tiles, target));
}

}  // namespace tcfuzz::harness
