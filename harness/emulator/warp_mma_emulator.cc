#include "harness/emulator/warp_mma_emulator.h"

#include <algorithm>
#include <cstring>
#include <utility>

#include "harness/emulator/accumulate.h"
#include "oracle/core/span.h"
#include "oracle/numerics/targets.h"
#include "oracle/sparse/sparse_metadata.h"

namespace tcfuzz::harness::emulator {

using oracle::num::Format;

namespace {

uint32_t Field(uint32_t word, int pos, int bits) {
  return bits >= 32 ? word : (word >> (pos * bits)) & ((uint32_t{1} << bits) - 1);
}

const uint32_t* LaneRegs(const uint32_t* regs, uint32_t warp, int lane, uint32_t per_lane) {
  return regs + (static_cast<std::size_t>(warp) * 32 + static_cast<std::size_t>(lane)) * per_lane;
}

// C and D: every m16n8 shape's lane map (four values a lane; f16 two to a register).
uint32_t CdElement(Format cd, const uint32_t* regs, int index) {
  return cd == Format::kF16 ? (regs[index / 2] >> (16 * (index % 2))) & 0xFFFF : regs[index];
}

}  // namespace

oracle::Result<WarpMmaForm> DecodeWarpMma(const tcfuzz_warp_mma& call, std::string_view target,
                                          const Mutant& mutant) {
  using R = oracle::Result<WarpMmaForm>;
  WarpMmaForm f;
  f.mutant = mutant;
  const auto type = [&](const char* text, const char* which) -> oracle::Result<Format> {
    const auto t = text ? oracle::num::ParseFormat(text) : std::nullopt;
    if (!t)
      return oracle::Result<Format>::Fail(std::string("no ") + which + " type '" +
                                          (text ? text : "(null)") + "'");
    return oracle::Result<Format>::Ok(*t);
  };
  struct Operand {
    Format* into;
    const char* text;
    const char* which;
  };
  for (const Operand& o : {Operand{&f.a, call.a_type, "A"}, Operand{&f.b, call.b_type, "B"},
                           Operand{&f.cd, call.cd_type, "C/D"}}) {
    auto t = type(o.text, o.which);
    if (!t.ok()) return R::Fail(t.error());
    *o.into = t.value();
  }
  const std::string_view shape = call.shape ? call.shape : "";
  if (call.sparse) {
    f.sparse = oracle::sparse::FindForm(shape, f.a);
    if (f.sparse == nullptr) return R::Fail("no mma.sp form " + std::string(shape));
    f.k = f.sparse->k;
  } else {
    f.dense = oracle::mma::FindDenseForm(shape, f.a);
    if (f.dense == nullptr) return R::Fail("no mma.sync form " + std::string(shape));
    f.k = f.dense->k;
  }
  f.ordered = call.ordered_metadata != 0;
  f.satfinite = call.satfinite != 0 && !mutant.At("decode.ignore_satfinite");
  f.selector = call.selector;
  const auto t = oracle::num::FindTarget(target);
  if (!t.ok()) return R::Fail(t.error());
  const auto row = t.value().row
                       ? oracle::num::ParamsFor(*t.value().row, oracle::num::Instr::kMma, f.a, f.cd)
                       : std::nullopt;
  f.params = row.value_or(oracle::num::ExactParams(f.cd));
  PlantNumerics(mutant, f.a, f.cd, f.params);
  return R::Ok(f);
}

WarpOperands UnpackFragments(const WarpMmaForm& f, const tcfuzz_warp_mma& call, uint32_t warp) {
  WarpOperands x;
  x.a.assign(static_cast<std::size_t>(16 * (f.sparse ? f.k / 2 : f.k)), 0);
  x.b.assign(static_cast<std::size_t>(f.k * 8), 0);
  x.c.assign(16 * 8, 0);
  const int bits = f.sparse ? f.sparse->elem_bits() : f.dense->elem_bits();
  const int per_reg = 32 / bits;
  const bool reversed = f.mutant.At("fragment.element_order") != 0;
  for (int lane = 0; lane < 32; ++lane) {
    const uint32_t* a = LaneRegs(call.a, warp, lane, call.a_regs);
    const uint32_t* b = LaneRegs(call.b, warp, lane, call.b_regs);
    for (int pos = 0; pos < per_reg; ++pos) {
      for (int reg = 0; reg < static_cast<int>(call.a_regs); ++reg) {
        std::size_t at;
        if (f.sparse) {
          const auto e = oracle::sparse::MapA(*f.sparse, lane, reg, pos);
          at = static_cast<std::size_t>(e.row * (f.k / 2) + e.chunk * f.sparse->kept + e.slot);
        } else {
          const auto e = oracle::mma::MapDenseA(*f.dense, lane, reg, pos);
          at = static_cast<std::size_t>(e.row * f.k + e.col);
        }
        x.a[at] = Field(a[reg], reversed ? per_reg - 1 - pos : pos, bits);
      }
      for (int reg = 0; reg < static_cast<int>(call.b_regs); ++reg) {
        int row, col;
        if (f.sparse) {
          const auto e = oracle::sparse::MapB(*f.sparse, lane, reg, pos);
          row = e.row, col = e.col;
        } else {
          const auto e = oracle::mma::MapDenseB(*f.dense, lane, reg, pos);
          row = e.row, col = e.col;
        }
        x.b[static_cast<std::size_t>(row * 8 + col)] =
            Field(b[reg], reversed ? per_reg - 1 - pos : pos, bits);
      }
    }
    const uint32_t* c = LaneRegs(call.c, warp, lane, call.cd_regs);
    for (int index = 0; index < 4; ++index) {
      const auto at = oracle::sparse::MapCD(lane, index);
      x.c[static_cast<std::size_t>(at.row * 8 + at.col)] = CdElement(f.cd, c, index);
    }
  }
  const auto swap_halves = [](auto& rows, std::size_t width) {
    for (std::size_t i = 0; i < 8 * width; ++i) std::swap(rows[i], rows[i + 8 * width]);
  };
  if (f.mutant.At("fragment.a_row_halves")) swap_halves(x.a, x.a.size() / 16);
  if (f.mutant.At("fragment.c_rows_swapped")) swap_halves(x.c, 8);
  if (f.mutant.At("fragment.c_dropped")) std::fill(x.c.begin(), x.c.end(), 0u);
  if (const int64_t shift = f.mutant.At("fragment.b_column_shift")) {
    const std::vector<uint64_t> b = x.b;
    for (std::size_t i = 0; i < b.size(); ++i)
      x.b[i] = b[i / 8 * 8 + (i % 8 + static_cast<std::size_t>(shift)) % 8];
  }
  return x;
}

std::vector<int> MeetsOfWarp(const WarpMmaForm& f, const tcfuzz_warp_mma& call, uint32_t warp) {
  const int stored = f.sparse ? f.k / 2 : f.k;
  std::vector<int> meets(static_cast<std::size_t>(16 * stored));
  for (int row = 0; row < 16; ++row) {
    if (!f.sparse) {
      for (int k = 0; k < stored; ++k) meets[static_cast<std::size_t>(row * stored + k)] = k;
      continue;
    }
    const oracle::sparse::SparseForm& s = *f.sparse;
    const Mutant& m = f.mutant;
    const int selectors = 4 / s.meta_threads();
    const int selector =
        static_cast<int>((f.selector + m.At("metadata.selector_offset")) % selectors);
    const int meta_row = m.At("metadata.row_halves") ? row ^ 8 : row;
    const uint32_t meta_warp = m.At("metadata.warp0") ? 0 : warp;
    for (int chunk = 0; chunk < s.chunks_per_row(); ++chunk) {
      // Read metadata: the nibble from the lane the selector names.
      const auto where = oracle::sparse::MapMeta(s, selector, meta_row, chunk);
      const uint32_t e =
          call.e[static_cast<std::size_t>(meta_warp) * 32 + static_cast<std::size_t>(where.lane)];
      SelectKept(s, static_cast<uint8_t>((e >> where.bit) & 0xF), m, row, chunk, stored, meets);
    }
  }
  return meets;
}

std::vector<uint32_t> Accumulate(const WarpMmaForm& f, const WarpOperands& x,
                                 oracle::Span<const int> meets) {
  std::vector<uint64_t> b(x.b.size());  // K x 8 row-major, as the shared step takes it: by column
  for (int k = 0; k < f.k; ++k)
    for (int j = 0; j < 8; ++j)
      b[static_cast<std::size_t>(j * f.k + k)] = x.b[static_cast<std::size_t>(k * 8 + j)];
  TileOperands t;
  t.m = 16;
  t.n = 8;
  t.stored = f.sparse ? f.k / 2 : f.k;
  t.kb = f.k;
  t.a = x.a;
  t.b = b;
  t.meets = meets;
  t.c = x.c;
  return emulator::Accumulate(Products{f.a, f.b, f.cd, f.params, f.satfinite}, t);
}

void PackD(const WarpMmaForm& f, oracle::Span<const uint32_t> d, const tcfuzz_warp_mma& call,
           uint32_t warp) {
  for (int lane = 0; lane < 32; ++lane) {
    uint32_t* regs =
        call.d +
        (static_cast<std::size_t>(warp) * 32 + static_cast<std::size_t>(lane)) * call.cd_regs;
    for (uint32_t r = 0; r < call.cd_regs; ++r) regs[r] = 0;
    for (int index = 0; index < 4; ++index) {
      const auto at = oracle::sparse::MapCD(lane, index);
      const int row = f.mutant.At("fragment.d_row_halves") ? at.row ^ 8 : at.row;
      const uint32_t v = d[static_cast<std::size_t>(row * 8 + at.col)];
      if (f.cd == Format::kF16) {
        regs[index / 2] |= (v & 0xFFFF) << (16 * (index % 2));
      } else {
        regs[index] = v;
      }
    }
  }
}

int ExecuteWarpMma(const tcfuzz_warp_mma& call, std::string_view target, std::string* error,
                   const Mutant& mutant) {
  const auto form = DecodeWarpMma(call, target, mutant);
  if (!form.ok()) {
    *error = form.error();
    return TCFUZZ_UNSUPPORTED;
  }
  const WarpMmaForm& f = form.value();
  const auto want_a = static_cast<uint32_t>(f.sparse ? f.sparse->a_regs : f.dense->a_regs());
  const auto want_b = static_cast<uint32_t>(f.sparse ? f.sparse->b_regs : f.dense->b_regs());
  const uint32_t want_cd = f.cd == Format::kF16 ? 2 : 4;
  if (call.a_regs != want_a || call.b_regs != want_b || call.cd_regs != want_cd ||
      (f.sparse && call.e == nullptr)) {
    *error = "register counts do not fit " + std::string(call.shape) + ": a " +
             std::to_string(call.a_regs) + " (" + std::to_string(want_a) + "), b " +
             std::to_string(call.b_regs) + " (" + std::to_string(want_b) + "), c/d " +
             std::to_string(call.cd_regs) + " (" + std::to_string(want_cd) + ")";
    return TCFUZZ_UNSUPPORTED;
  }
  if (f.sparse && (f.selector < 0 || f.selector > f.sparse->max_selector())) {
    *error = "illegal instruction: sparsity selector " + std::to_string(f.selector) + " of " +
             f.sparse->Name() + " (0.." + std::to_string(f.sparse->max_selector()) + ")";
    return TCFUZZ_FAULT;
  }
  if (mutant.At("result.fault")) {
    *error = "illegal instruction (mutant result.fault)";
    return TCFUZZ_FAULT;
  }
  for (uint32_t w = 0; w < call.warps; ++w) {
    const WarpOperands x = UnpackFragments(f, call, w);
    const std::vector<int> meets = MeetsOfWarp(f, call, w);
    std::vector<uint32_t> d = Accumulate(f, x, meets);
    if (mutant.At("result.zero")) std::fill(d.begin(), d.end(), 0u);
    if (const int64_t bit = mutant.At("result.flip_bit"))
      d[0] ^= uint32_t{1} << ((bit - 1) % (f.cd == Format::kF16 ? 16 : 32));
    PackD(f, d, call, w);
  }
  return TCFUZZ_OK;
}

}  // namespace tcfuzz::harness::emulator
