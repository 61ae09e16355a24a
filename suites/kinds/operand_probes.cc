#include "suites/kinds/operand_probes.h"

#include <span>
#include <string_view>

#include "harness/emulator/accumulate.h"
#include "harness/emulator/mutant.h"
#include "harness/emulator/smem_mma_emulator.h"
#include "harness/emulator/warp_mma_emulator.h"

namespace tcfuzz::suites {
namespace {

using harness::emulator::Mutant;

// A probe's mutant, parsed once; its text is the probe's name (static: counted per case).
struct Probe {
  std::string_view text;
  Mutant mutant;
};
template <std::size_t N>
std::vector<Probe> Parse(const std::string_view (&texts)[N]) {
  std::vector<Probe> out;
  for (const std::string_view t : texts)
    out.push_back({t, harness::emulator::ParseMutant(t).value()});
  return out;
}

// The catalogue's zcm defects (corpus/mutants/catalogue.txt).
constexpr std::string_view kZcm[] = {"zcm.ignored=1", "zcm.inverted=1", "zcm.shift_ignored=1",
                                     "zcm.first_span_inverted=1", "zcm.spans_swapped=1"};
// Descriptor defects every architecture has, and those only tcgen05's descriptor can show.
constexpr std::string_view kSmem[] = {
    "descriptor.lbo_sbo_swapped=1", "descriptor.base_offset_ignored=1",
    "descriptor.start_aligned=7", "swizzle.xor_bits=-1", "swizzle.xor_bits=1"};
constexpr std::string_view kSmemTcgen05[] = {"descriptor.lbo_mode_inverted=1",
                                             "layout.atom_k_rows=1"};
constexpr std::string_view kSparse[] = {"metadata.nibble_order=1", "select.chunk_shift=1",
                                        "fragment.c_dropped=1"};
constexpr std::string_view kSparseFloat[] = {"numerics.alignment_bits=-1"};

std::span<const uint32_t> Words(const std::vector<uint32_t>& v) { return v; }

std::optional<std::vector<uint64_t>> SmemMap(const oracle::smem::SmemCase& c, const Mutant& m) {
  harness::emulator::SmemMmaForm f;
  f.arch = c.arch;
  f.tcgen05 = c.arch != oracle::smem::Arch::kSm90a;
  f.mutant = m;
  const auto matrix = harness::emulator::DecodeDescriptor(f, c.desc);
  if (!matrix) return std::nullopt;
  const int cols = c.view.kbytes * 8 / oracle::smem::StorageBits(c.view.dtype);
  std::vector<uint64_t> bits;
  bits.reserve(static_cast<std::size_t>(c.view.rows) * static_cast<std::size_t>(cols));
  for (int r = 0; r < c.view.rows; ++r) {
    for (int k = 0; k < cols; ++k)
      bits.push_back(harness::emulator::AddressOfElement(f, *matrix, c.view, r, k));
  }
  return bits;
}

// The warp emulator's select and accumulate steps on the tile's operands, as its decode step
// would set them up (the mutant's numerics points on the row, C dropped when it says so).
std::vector<uint32_t> SparseD(const oracle::sparse::SparseTile& t, oracle::num::DotParams p,
                              const Mutant& m) {
  harness::emulator::WarpMmaForm f;
  f.sparse = t.form;
  f.a = t.a_type;
  f.b = t.b_type;
  f.cd = t.cd;
  f.satfinite = t.satfinite;
  f.k = t.form->k;
  f.params = p;
  harness::emulator::PlantNumerics(m, f.a, f.cd, f.params);
  const int stored = f.k / 2, cpr = t.form->chunks_per_row();
  std::vector<int> meets(static_cast<std::size_t>(16 * stored));
  for (int row = 0; row < 16; ++row) {
    for (int chunk = 0; chunk < cpr; ++chunk)
      harness::emulator::SelectKept(*t.form, t.nibbles[static_cast<std::size_t>(row * cpr + chunk)],
                                    m, row, chunk, stored, meets);
  }
  harness::emulator::WarpOperands x{t.a, t.b, {}};
  if (!m.At("fragment.c_dropped")) x.c = t.c;
  return harness::emulator::Accumulate(f, x, meets);
}

}  // namespace

void ZcmProbes(const oracle::tcgen05::ZcmCase& c, std::vector<ProbeResult>& out) {
  static const std::vector<Probe> probes = Parse(kZcm);
  const auto want = harness::emulator::MaskColumns(c.desc, c.shape.m, c.shape.n, {});
  if (!want) return;
  out.push_back(
      {kProbeDEqualsC, !std::all_of(want->begin(), want->end(), [](int col) { return col < 0; })});
  for (const Probe& p : probes) {
    const auto wrong = harness::emulator::MaskColumns(c.desc, c.shape.m, c.shape.n, p.mutant);
    out.push_back(wrong ? ProbeAgainst<int>(p.text, *want, *wrong) : ProbeResult{p.text, true});
  }
}

void SmemProbes(const oracle::smem::SmemCase& c, const oracle::smem::AddressMap& want,
                std::vector<ProbeResult>& out) {
  static const std::vector<Probe> every = Parse(kSmem), tcgen05 = Parse(kSmemTcgen05);
  const auto probe = [&](std::span<const Probe> probes) {
    for (const Probe& p : probes) {
      const auto wrong = SmemMap(c, p.mutant);
      out.push_back(wrong ? ProbeAgainst<uint64_t>(p.text, want.bits, *wrong)
                          : ProbeResult{p.text, true});
    }
  };
  probe(every);
  if (c.arch == oracle::smem::Arch::kSm90a) return;
  probe(std::span(tcgen05).first(1));
  if (c.view.major == oracle::smem::Major::kMN) probe(std::span(tcgen05).subspan(1));
}

void SparseProbes(const oracle::sparse::SparseTile& t, const oracle::num::DotParams& p,
                  const std::vector<uint32_t>& want, bool mutants, std::vector<ProbeResult>& out) {
  static const std::vector<Probe> every = Parse(kSparse), floats = Parse(kSparseFloat);
  ProbeZeroAndC(want, t.c, out);
  if (!mutants) return;
  for (const Probe& probe : every)
    out.push_back(ProbeAgainst(probe.text, Words(want), Words(SparseD(t, p, probe.mutant))));
  if (!oracle::num::IsFloat(t.a_type)) return;
  for (const Probe& probe : floats)
    out.push_back(ProbeAgainst(probe.text, Words(want), Words(SparseD(t, p, probe.mutant))));
}

std::vector<uint32_t> EmulatedSparseD(const oracle::sparse::SparseTile& t,
                                      const oracle::num::DotParams& p) {
  return SparseD(t, p, {});
}

std::optional<std::vector<uint64_t>> EmulatedSmemMap(const oracle::smem::SmemCase& c) {
  return SmemMap(c, {});
}

}  // namespace tcfuzz::suites
