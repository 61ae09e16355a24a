#include "harness/wgmma_exec.h"

#include <span>

#include "harness/backend.h"
#include "harness/smem_tile_kernel.h"
#include "oracle/ptx/instruction_form.h"

namespace tcfuzz::harness {
namespace {

using oracle::num::Format;

bool IsInt(Format f) { return f == Format::kS8 || f == Format::kU8; }
bool HasTrans(Format f) { return f == Format::kF16 || f == Format::kBF16; }

std::string Regs(const char* prefix, int n) {
  std::string s = "{";
  for (int i = 0; i < n; ++i) s += (i ? ", %" : "%") + std::string(prefix) + std::to_string(i);
  return s + "}";
}

// Bytes of a tile's record: the two descriptors, then (sparse) 128 metadata registers, then
// (with C) every thread's accumulator registers.
int CRecordOffset(const WgmmaSpec& s) { return s.sparse_form ? 16 + 4 * 128 : 16; }
int DescriptorRecordBytes(const WgmmaSpec& s) {
  return CRecordOffset(s) + (s.with_c ? 4 * 128 * AccumulatorRegisters(s) : 0);
}

// Thread t's C registers (t = 0..127, each AccumulatorRegisters in order), placed by the fragment
// map like D.
oracle::Result<std::vector<uint32_t>> CRegisters(const WgmmaSpec& spec,
                                                 const oracle::tile::DescriptorTile& t) {
  if (t.c.size() != static_cast<size_t>(64) * spec.n)
    return oracle::Result<std::vector<uint32_t>>::Fail(std::string(kHostError) +
                                                       "a tile without 64 x n C in a batch with C");
  const int regs = AccumulatorRegisters(spec);
  std::vector<uint32_t> out;
  out.reserve(static_cast<size_t>(128 * regs));
  for (int th = 0; th < 128; ++th) {
    for (int i = 0; i < regs; ++i) {
      const auto at = [&](int e) {
        const auto x = oracle::tile::MapD(th, e);
        return t.c[static_cast<size_t>(x.row) * spec.n + x.col];
      };
      out.push_back(spec.d == Format::kF16 ? (at(2 * i) & 0xFFFF) | at(2 * i + 1) << 16 : at(i));
    }
  }
  return oracle::Result<std::vector<uint32_t>>::Ok(std::move(out));
}

}  // namespace

std::vector<uint32_t> DOfRegisters(const WgmmaSpec& spec, std::span<const uint32_t> w) {
  const int regs = AccumulatorRegisters(spec);
  std::vector<uint32_t> d(static_cast<size_t>(64) * spec.n);
  for (int t = 0; t < 128; ++t) {
    for (int i = 0; i < regs; ++i) {
      const uint32_t v = w[static_cast<size_t>(t) * regs + i];
      if (spec.d == Format::kF16) {  // two accumulators a register, the lower index low
        for (int h = 0; h < 2; ++h) {
          const auto at = oracle::tile::MapD(t, 2 * i + h);
          d[static_cast<size_t>(at.row) * spec.n + at.col] = (v >> (16 * h)) & 0xFFFF;
        }
      } else {
        const auto at = oracle::tile::MapD(t, i);
        d[static_cast<size_t>(at.row) * spec.n + at.col] = v;
      }
    }
  }
  return d;
}

WgmmaSpec SpecOf(const oracle::tile::DescriptorTile& t) {
  WgmmaSpec s;
  s.ab = t.ab;
  s.b_type = t.b_type;
  s.d = t.d;
  s.n = t.n;
  s.trans_a = t.a.view.major == oracle::smem::Major::kMN ? 1 : 0;
  s.trans_b = t.b.view.major == oracle::smem::Major::kMN ? 1 : 0;
  s.image_bytes = static_cast<int>(t.image.size());
  if (t.sparse) {
    s.sparse_form = t.sparse->form;
    s.selector = t.sparse->selector;
  }
  s.with_c = !t.c.empty();
  return s;
}

int AccumulatorRegisters(const WgmmaSpec& s) { return s.d == Format::kF16 ? s.n / 4 : s.n / 2; }

// The oracle's form of the instruction: its spelling and first PTX version.
oracle::ptx::PtxForm FormOf(const WgmmaSpec& s) {
  oracle::ptx::PtxForm f;
  f.family = s.sparse_form ? oracle::ptx::Family::kWgmmaSp : oracle::ptx::Family::kWgmma;
  f.shape = "m64n" + std::to_string(s.n) + "k" +
            std::to_string((s.sparse_form ? 64 : 32) * 8 / oracle::num::StorageBits(s.ab));
  f.selector = s.selector;
  f.a = s.ab;
  f.b = s.b_type;
  f.d = f.c = s.d;
  return f;
}

std::string WgmmaInstruction(const WgmmaSpec& s) {
  std::string ins = FormOf(s).Opcode() + " " +
                    Regs(s.d == Format::kF32 ? "f" : "r", AccumulatorRegisters(s)) + ", %da, %db";
  if (s.sparse_form) ins += ", %meta, " + std::to_string(s.selector);  // sp-meta, sp-sel
  ins += ", %sd";
  if (!IsInt(s.ab)) ins += ", 1, 1";  // imm-scale-a, imm-scale-b
  if (HasTrans(s.ab)) ins += ", " + std::to_string(s.trans_a) + ", " + std::to_string(s.trans_b);
  return ins + ";";
}

std::string WgmmaModule(const WgmmaSpec& s) {
  const int regs = AccumulatorRegisters(s);
  const std::string per_case = std::to_string(128 * regs + 1);  // words: the base, then 128 threads
  std::string p = ".version " + oracle::ptx::VersionText(oracle::ptx::FormMinVersion(FormOf(s))) +
                  "\n.target sm_90a\n.address_size 64\n\n" +
                  SmemTileKernelHead("tcfuzz_wgmma", s.image_bytes, DescriptorRecordBytes(s));
  p += "  .reg .f32 %f<" + std::to_string(regs) + ">;\n  .reg .b32 %r<" + std::to_string(regs) +
       ">;\n";
  if (s.sparse_form) {  // this thread's metadata register: word 4 + thread of the tile's record
    p += "  .reg .b32 %meta;\n  mul.wide.u32 %q11, %t3, 4;\n  add.s64 %q11, %q7, %q11;\n  "
         "ld.global.u32 %meta, [%q11+16];\n";
  }
  if (s.with_c) {  // this thread's C: its registers in order, after the record's other words
    p +=
        "  mul.wide.u32 %q12, %t3, " + std::to_string(4 * regs) + ";\n  add.s64 %q12, %q7, %q12;\n";
    for (int i = 0; i < regs; ++i) {
      p += "  ld.global." + std::string(s.d == Format::kF32 ? "f32 %f" : "b32 %r") +
           std::to_string(i) + ", [%q12+" + std::to_string(CRecordOffset(s) + 4 * i) + "];\n";
    }
    p += "  setp.eq.b32 %sd, 0, 0;\n";
  }
  p += R"(  bar.sync 0;
  fence.proxy.async.shared::cta;
  wgmma.fence.sync.aligned;
  )" + WgmmaInstruction(s) +
       R"(
  wgmma.commit_group.sync.aligned;
  wgmma.wait_group.sync.aligned 0;
  mul.wide.u32 %q9, %t2, )" +
       per_case + R"(;
  shl.b64 %q9, %q9, 2;
  add.s64 %q9, %q3, %q9;
  setp.ne.u32 %p3, %t3, 0;
  @!%p3 st.global.u32 [%q9], %t4;
  mul.wide.u32 %q10, %t3, )" +
       std::to_string(4 * regs) + R"(;
  add.s64 %q10, %q9, %q10;
)";
  for (int i = 0; i < regs; ++i) {
    p += "  st.global." + std::string(s.d == Format::kF32 ? "f32" : "b32") + " [%q10+" +
         std::to_string(4 + 4 * i) + "], %" + (s.d == Format::kF32 ? "f" : "r") +
         std::to_string(i) + ";\n";
  }
  p += "DONE:\n  ret;\n}\n";
  return p;
}

oracle::Result<PreparedLaunch> PrepareWgmma(
    const WgmmaSpec& spec, std::span<const oracle::tile::DescriptorTile* const> tiles) {
  const int regs = AccumulatorRegisters(spec);
  const size_t per_case = static_cast<size_t>(128 * regs + 1);
  std::vector<uint32_t> desc;
  for (const oracle::tile::DescriptorTile* tile : tiles) {
    const oracle::tile::DescriptorTile& t = *tile;
    for (uint64_t d : {t.a.desc, t.b.desc}) {
      desc.push_back(static_cast<uint32_t>(d));
      desc.push_back(static_cast<uint32_t>(d >> 32));
    }
    if (spec.sparse_form) {
      if (!t.sparse)
        return oracle::Result<PreparedLaunch>::Fail(std::string(kHostError) +
                                                    "a dense tile in a wgmma.sp batch");
      const std::vector<uint32_t> meta = oracle::tile::SparseMetadataRegisters(*t.sparse);
      desc.insert(desc.end(), meta.begin(), meta.end());
    }
    if (spec.with_c) {
      const auto c = CRegisters(spec, t);
      if (!c.ok()) return oracle::Result<PreparedLaunch>::Fail(c.error());
      desc.insert(desc.end(), c.value().begin(), c.value().end());
    }
  }
  const auto unpack = [spec](std::span<const uint32_t> w) { return DOfRegisters(spec, w); };
  return PrepareSmemTileKernel(WgmmaModule(spec), "tcfuzz_wgmma", tiles, std::move(desc),
                               spec.image_bytes, per_case, unpack);
}

SmemMmaCall SmemMmaCallHead(const WgmmaSpec& spec, uint32_t tiles) {
  SmemMmaCall call;
  call.instruction = WgmmaInstruction(spec);
  call.family = "wgmma";
  call.shape = FormOf(spec).shape;
  call.a_type = oracle::num::Name(spec.ab);
  call.b_type = oracle::num::Name(spec.b_type);
  call.d_type = oracle::num::Name(spec.d);
  tcfuzz_smem_mma& f = call.fields;
  f.trans_a = spec.trans_a;
  f.trans_b = spec.trans_b;
  f.sparse = spec.sparse_form != nullptr;
  f.selector = spec.selector;
  f.scale_d = spec.with_c ? 1 : 0;
  f.tiles = tiles;
  f.image_bytes = static_cast<uint32_t>(spec.image_bytes);
  f.d_words = static_cast<uint32_t>(AccumulatorRegisters(spec));
  return call;
}

oracle::Result<SmemMmaCall> SmemMmaCallOf(
    const WgmmaSpec& spec, std::span<const oracle::tile::DescriptorTile* const> tiles) {
  using R = oracle::Result<SmemMmaCall>;
  SmemMmaCall call = SmemMmaCallHead(spec, static_cast<uint32_t>(tiles.size()));
  call.image.reserve(tiles.size() * static_cast<size_t>(spec.image_bytes));
  for (const oracle::tile::DescriptorTile* t : tiles) {
    if (t->image.size() != static_cast<size_t>(spec.image_bytes))
      return R::Fail(std::string(kHostError) + "a tile's image is not the batch's size");
    call.image.insert(call.image.end(), t->image.begin(), t->image.end());
    call.a_desc.push_back(t->a.desc);
    call.b_desc.push_back(t->b.desc);
    if (spec.sparse_form) {
      if (!t->sparse) return R::Fail(std::string(kHostError) + "a dense tile in a wgmma.sp batch");
      const std::vector<uint32_t> meta = oracle::tile::SparseMetadataRegisters(*t->sparse);
      call.e.insert(call.e.end(), meta.begin(), meta.end());
    }
    if (spec.with_c) {
      const auto c = CRegisters(spec, *t);
      if (!c.ok()) return R::Fail(c.error());
      call.c.insert(call.c.end(), c.value().begin(), c.value().end());
    }
  }
  return R::Ok(std::move(call));
}

oracle::Result<std::vector<std::vector<uint32_t>>> RunWgmma(
    const WgmmaSpec& spec, std::span<const oracle::tile::DescriptorTile* const> tiles) {
  using R = oracle::Result<std::vector<std::vector<uint32_t>>>;
  if (!BackendIsCuda()) {
    const auto call = SmemMmaCallOf(spec, tiles);
    if (!call.ok()) return R::Fail(call.error());
    const auto d = RunSmemMmaOnHost(call.value());
    if (!d->ok()) return R::Fail(d->error());
    const size_t per_tile = static_cast<size_t>(128 * AccumulatorRegisters(spec));
    std::vector<std::vector<uint32_t>> out;
    for (size_t i = 0; i < tiles.size(); ++i)
      out.push_back(DOfRegisters(spec, std::span(d->value()).subspan(i * per_tile, per_tile)));
    return R::Ok(std::move(out));
  }
  const auto p = PrepareWgmma(spec, tiles);
  if (!p.ok()) return oracle::Result<std::vector<std::vector<uint32_t>>>::Fail(p.error());
  return RunPrepared(p.value());
}

oracle::Result<std::vector<std::vector<uint32_t>>> RunWgmma(
    const WgmmaSpec& spec, std::span<const oracle::tile::DescriptorTile> tiles) {
  return RunWgmma(spec, PointersTo(tiles));
}

}  // namespace tcfuzz::harness
