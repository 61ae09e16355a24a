#include "harness/tcgen05_exec.h"

#include <algorithm>
#include <span>

#include "harness/backend.h"
#include "harness/ptx_kernel.h"
#include "harness/smem_tile_kernel.h"
#include "oracle/ptx/instruction_form.h"
#include "oracle/ptx/ptx_target.h"
#include "oracle/tcgen05/instr_descriptor.h"
#include "oracle/tcgen05/zero_column_mask.h"

namespace tcfuzz::harness {
namespace {

using oracle::num::Format;

oracle::ptx::PtxForm FormOf(const Tcgen05Spec& s) {
  oracle::ptx::PtxForm f;
  f.family = s.ws ? (s.sparse ? oracle::ptx::Family::kTcgen05WsSp : oracle::ptx::Family::kTcgen05Ws)
                  : (s.sparse ? oracle::ptx::Family::kTcgen05Sp : oracle::ptx::Family::kTcgen05);
  f.kind = oracle::ptx::Tcgen05KindOf(s.ab);
  f.zero_column_mask = s.ws;
  return f;
}

// Tensor memory columns to allocate: a power of two, at least 32; D's n columns, then the
// metadata's pair for .sp.
int AllocColumns(const Tcgen05Spec& s) {
  int c = 32;
  while (c < s.n + (s.sparse ? 2 : 0)) c *= 2;
  return c;
}

// Bytes of a tile's descriptor record: A, B, the mask, the instruction descriptor (and padding);
// .sp: then two metadata words per row.
int DescBytes(const Tcgen05Spec& s) { return 32 + (s.sparse ? 128 * 8 : 0); }

// The instruction descriptor of a tile of the batch (Table 42), or nullopt for types no kind
// takes.
std::optional<uint32_t> IdescOf(const Tcgen05Spec& spec, const oracle::tile::DescriptorTile& t) {
  oracle::tcgen05::IdescFields f;
  f.a = t.ab;
  f.b = t.b_type;
  f.d = t.d;
  f.m = 128;
  f.n = t.n;
  f.transpose_a = t.a.view.major == oracle::smem::Major::kMN;
  f.transpose_b = t.b.view.major == oracle::smem::Major::kMN;
  f.sparse = spec.sparse;
  f.sparse_selector = spec.sparse ? t.sparse->selector : 0;
  // .ws: a descriptor whose max shift admits the mask's column shift.
  if (t.zero_column_mask)
    f.max_shift_code = oracle::tcgen05::IdescMaxShiftCodeFor(*t.zero_column_mask);
  return oracle::tcgen05::EncodeInstrDescriptor(f);
}

// Why a tile cannot join the batch of `spec`; empty when it can.
std::string MisfitOf(const Tcgen05Spec& spec, const oracle::tile::DescriptorTile& t) {
  if (t.a.view.rows != 128)
    return std::string(kHostError) + "a tile does not fit the spec (M = 128)";
  if (t.sparse.has_value() != spec.sparse || (spec.sparse && spec.ws) || t.n != spec.n ||
      t.zero_column_mask.has_value() != spec.ws ||
      oracle::ptx::Tcgen05KindOf(t.ab) != oracle::ptx::Tcgen05KindOf(spec.ab))
    return std::string(kHostError) + "a tile does not fit the batch's module (" +
           Tcgen05BatchKey(spec) + ")";
  return "";
}

}  // namespace

std::string Tcgen05Instruction(const Tcgen05Spec& s) {
  return FormOf(s).Opcode() + " [%taddr], %da, %db, " + (s.sparse ? "[%tmeta], " : "") +
         "%idesc, %sd" + (s.ws ? ", %mask;" : ";");
}

std::string Tcgen05BatchKey(const Tcgen05Spec& s) {
  return Tcgen05Instruction(s) + " n=" + std::to_string(s.n) +
         " image=" + std::to_string(s.image_bytes);
}

std::string Tcgen05Module(const Tcgen05Spec& s, const std::string& target) {
  const std::string n = std::to_string(s.n);
  const std::string cols = std::to_string(AllocColumns(s));
  const auto* t = oracle::ptx::FindTarget(target);
  const int version =
      std::max(oracle::ptx::FormMinVersion(FormOf(s)), t != nullptr ? t->min_ptx : 0);
  std::string p = ".version " + oracle::ptx::VersionText(version) + "\n.target " + target +
                  "\n.address_size 64\n\n"
                  ".shared .align 8 .b64 tcfuzz_bar;\n.shared .align 4 .b32 tcfuzz_tmem;\n" +
                  SmemTileKernelHead("tcfuzz_tcgen05", s.image_bytes, DescBytes(s));
  p += "  .reg .b64 %mask;\n  .reg .b32 %idesc, %taddr, %tmeta;\n  .reg .b32 %r<" + n + ">;\n";
  p += R"(  ld.global.u64 %mask, [%q7+16];
  ld.global.u32 %idesc, [%q7+24];
  shr.u32 %t12, %t3, 5;
  setp.eq.u32 %p4, %t12, 0;
  setp.eq.u32 %p5, %t3, 0;
  @!%p4 bra ALLOCATED;
  tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [tcfuzz_tmem], )" +
       cols + R"(;
  tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;
ALLOCATED:
  @%p5 mbarrier.init.shared::cta.b64 [tcfuzz_bar], 1;
  bar.sync 0;
  fence.proxy.async.shared::cta;
  tcgen05.fence::after_thread_sync;
  ld.shared.b32 %taddr, [tcfuzz_tmem];
)";
  if (s.sparse) {  // thread t: row t's metadata pair into lane t, the columns after D (TM1)
    p += R"(  mul.wide.u32 %q11, %t3, 8;
  add.s64 %q11, %q7, %q11;
  ld.global.v2.u32 {%t15, %t16}, [%q11+32];
  add.u32 %tmeta, %taddr, )" +
         n + R"(;
  shl.b32 %t17, %t12, 21;
  add.u32 %t17, %t17, %tmeta;
  tcgen05.st.sync.aligned.32x32b.x2.b32 [%t17], {%t15, %t16};
  tcgen05.wait::st.sync.aligned;
  tcgen05.fence::before_thread_sync;
  bar.sync 0;
  tcgen05.fence::after_thread_sync;
)";
  }
  p += R"(  @!%p5 bra WAIT;
  )" + Tcgen05Instruction(s) +
       R"(
  tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [tcfuzz_bar];
WAIT:
  mbarrier.try_wait.parity.shared::cta.b64 %p6, [tcfuzz_bar], 0;
  @!%p6 bra WAIT;
  tcgen05.fence::after_thread_sync;
  shl.b32 %t13, %t12, 21;
  add.u32 %t14, %taddr, %t13;
  tcgen05.ld.sync.aligned.32x32b.x)" +
       n + ".b32 {";
  for (int i = 0; i < s.n; ++i) p += (i ? ", %r" : "%r") + std::to_string(i);
  p += R"(}, [%t14];
  tcgen05.wait::ld.sync.aligned;
  mul.wide.u32 %q9, %t2, )" +
       std::to_string(128 * s.n + 1) + R"(;
  shl.b64 %q9, %q9, 2;
  add.s64 %q9, %q3, %q9;
  @%p5 st.global.u32 [%q9], %t4;
  mul.wide.u32 %q10, %t3, )" +
       std::to_string(4 * s.n) + R"(;
  add.s64 %q10, %q9, %q10;
)";
  for (int i = 0; i < s.n; ++i)
    p += "  st.global.b32 [%q10+" + std::to_string(4 + 4 * i) + "], %r" + std::to_string(i) + ";\n";
  p += "  tcgen05.fence::before_thread_sync;\n  bar.sync 0;\n  @!%p4 bra DONE;\n"
       "  tcgen05.fence::after_thread_sync;\n  tcgen05.dealloc.cta_group::1.sync.aligned.b32 "
       "%taddr, " +
       cols + ";\nDONE:\n  ret;\n}\n";
  return p;
}

Tcgen05Spec Tcgen05SpecOf(const oracle::tile::DescriptorTile& t) {
  return {t.ab,
          t.b_type,
          t.d,
          t.n,
          t.zero_column_mask.has_value(),
          static_cast<int>(t.image.size()),
          t.sparse.has_value()};
}

oracle::Result<PreparedLaunch> PrepareTcgen05(
    const Tcgen05Spec& spec, std::span<const oracle::tile::DescriptorTile* const> tiles,
    const std::string& target) {
  using R = oracle::Result<PreparedLaunch>;
  const size_t per_case = static_cast<size_t>(128 * spec.n + 1);
  std::vector<uint32_t> desc;
  for (const oracle::tile::DescriptorTile* tile : tiles) {
    const oracle::tile::DescriptorTile& t = *tile;
    if (const std::string why = MisfitOf(spec, t); !why.empty()) return R::Fail(why);
    const auto idesc = IdescOf(spec, t);
    if (!idesc)
      return R::Fail(std::string(kHostError) + "no tcgen05 instruction descriptor for these types");
    for (uint64_t d : {t.a.desc, t.b.desc, t.zero_column_mask.value_or(0)}) {
      desc.push_back(static_cast<uint32_t>(d));
      desc.push_back(static_cast<uint32_t>(d >> 32));
    }
    desc.push_back(*idesc);
    desc.push_back(0);
    if (spec.sparse) {
      const std::vector<uint32_t> meta = oracle::tile::Tcgen05MetadataColumns(*t.sparse);
      desc.insert(desc.end(), meta.begin(), meta.end());
    }
  }
  // Thread t holds row t (TMEM lane t), its n columns in order: the output is D as it comes.
  const auto unpack = [](std::span<const uint32_t> w) {
    return std::vector<uint32_t>(w.begin(), w.end());
  };
  return PrepareSmemTileKernel(Tcgen05Module(spec, target), "tcfuzz_tcgen05", tiles,
                               std::move(desc), spec.image_bytes, per_case, unpack);
}

SmemMmaCall SmemMmaCallHead(const Tcgen05Spec& spec, uint32_t tiles) {
  SmemMmaCall call;
  call.instruction = Tcgen05Instruction(spec);
  call.family = "tcgen05";
  call.shape = "m128n" + std::to_string(spec.n);
  call.a_type = oracle::num::Name(spec.ab);
  call.b_type = oracle::num::Name(spec.b_type);
  call.d_type = oracle::num::Name(spec.d);
  tcfuzz_smem_mma& f = call.fields;
  f.sparse = spec.sparse ? 1 : 0;
  f.tiles = tiles;
  f.image_bytes = static_cast<uint32_t>(spec.image_bytes);
  f.d_words = static_cast<uint32_t>(spec.n);
  return call;
}

oracle::Result<SmemMmaCall> SmemMmaCallOf(
    const Tcgen05Spec& spec, std::span<const oracle::tile::DescriptorTile* const> tiles) {
  using R = oracle::Result<SmemMmaCall>;
  SmemMmaCall call = SmemMmaCallHead(spec, static_cast<uint32_t>(tiles.size()));
  call.image.reserve(tiles.size() * static_cast<size_t>(spec.image_bytes));
  for (const oracle::tile::DescriptorTile* tile : tiles) {
    const oracle::tile::DescriptorTile& t = *tile;
    if (const std::string why = MisfitOf(spec, t); !why.empty()) return R::Fail(why);
    if (t.image.size() != static_cast<size_t>(spec.image_bytes))
      return R::Fail(std::string(kHostError) + "a tile's image is not the batch's size");
    const auto idesc = IdescOf(spec, t);
    if (!idesc)
      return R::Fail(std::string(kHostError) + "no tcgen05 instruction descriptor for these types");
    call.image.insert(call.image.end(), t.image.begin(), t.image.end());
    call.a_desc.push_back(t.a.desc);
    call.b_desc.push_back(t.b.desc);
    call.idesc.push_back(*idesc);
    if (spec.ws) call.zero_column_mask.push_back(*t.zero_column_mask);
    if (spec.sparse) {
      const std::vector<uint32_t> meta = oracle::tile::Tcgen05MetadataColumns(*t.sparse);
      call.e.insert(call.e.end(), meta.begin(), meta.end());
    }
  }
  return R::Ok(std::move(call));
}

oracle::Result<std::vector<std::vector<uint32_t>>> RunTcgen05(
    const Tcgen05Spec& spec, std::span<const oracle::tile::DescriptorTile* const> tiles) {
  using R = oracle::Result<std::vector<std::vector<uint32_t>>>;
  if (!BackendIsCuda()) {  // D as it comes: lane = row, its n columns
    const auto call = SmemMmaCallOf(spec, tiles);
    if (!call.ok()) return R::Fail(call.error());
    const auto d = RunSmemMmaOnHost(call.value());
    if (!d->ok()) return R::Fail(d->error());
    const size_t per_tile = static_cast<size_t>(128 * spec.n);
    std::vector<std::vector<uint32_t>> out;
    for (size_t i = 0; i < tiles.size(); ++i) {
      const auto first = d->value().begin() + static_cast<std::ptrdiff_t>(i * per_tile);
      out.emplace_back(first, first + static_cast<std::ptrdiff_t>(per_tile));
    }
    return R::Ok(std::move(out));
  }
  const std::string device =
      DeviceTarget();  // "sm_100", "sm_103": the arch-specific target adds "a"
  const auto p = PrepareTcgen05(spec, tiles, device.empty() ? "sm_100a" : device + "a");
  if (!p.ok()) return oracle::Result<std::vector<std::vector<uint32_t>>>::Fail(p.error());
  return RunPrepared(p.value());
}

oracle::Result<std::vector<std::vector<uint32_t>>> RunTcgen05(
    const Tcgen05Spec& spec, std::span<const oracle::tile::DescriptorTile> tiles) {
  return RunTcgen05(spec, PointersTo(tiles));
}

}  // namespace tcfuzz::harness
