#include "suites/kinds/emit_cu.h"

#include <cstdio>
#include <span>

#include "generators/core/mma_values.h"
#include "harness/mma_dense.h"
#include "harness/sparse_mma_exec.h"
#include "harness/tcgen05_exec.h"
#include "harness/wgmma_exec.h"
#include "oracle/mma/dense_case_text.h"
#include "oracle/sparse/sparse_case_text.h"
#include "oracle/tile/descriptor_tile_text.h"
#include "suites/checks/sparse_mma_checks.h"
#include "suites/emit/launch_cu.h"
#include "suites/engine/device_campaign.h"
#include "suites/kinds/dense_device_cases.h"
#include "suites/kinds/descriptor_tile_cases.h"

namespace tcfuzz::suites {
namespace {

using namespace oracle::sparse;

std::string Words(const std::vector<uint32_t>& v, std::size_t per_row) {
  std::string s = "{";
  char buf[16];
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (i % per_row == 0) s += i ? "},\n    {" : "\n    {";
    std::snprintf(buf, sizeof buf, "0x%08xu%s", v[i], (i + 1) % per_row ? ", " : "");
    s += buf;
  }
  return s + "}}";
}

std::string AsmOperands(const char* array, int regs, const char* constraint) {
  std::string s;
  for (int i = 0; i < regs; ++i) {
    s += std::string(i ? ", " : "") + "\"" + constraint + "\"(" + array + "[lane * " +
         std::to_string(regs) + " + " + std::to_string(i) + "])";
  }
  return s;
}

// A case of an exact value mode (small integers, probes): D is the same in every arithmetic row,
// so ExactParams serves where the device's row is unknown.
bool ExactCase(const oracle::TextDoc& doc) {
  return doc.Has("origin.mode") && gen::IsExact(doc.String("origin.mode").value());
}

// Dense mma.sync and descriptor tiles: the harness's prepared launch in a driver-API file.
oracle::Result<EmittedCu> FromLaunch(const LaunchCu& c) {
  auto text = LaunchCuText(c);
  if (!text.ok()) return oracle::Error(c.from + ": " + text.error());
  return oracle::Result<EmittedCu>::Ok({std::move(text).value(), c.instruction});
}

using R = oracle::Result<EmittedCu>;

}  // namespace

oracle::Result<EmittedCu> EmitDenseCu(const std::string& file, const oracle::TextDoc& doc,
                                      const std::string& row_name) {
  const auto f = oracle::mma::DenseCaseFromDoc(doc);
  if (!f.ok()) return oracle::Error(file + ": " + f.error());
  const oracle::mma::DenseTile& t = f.value().tile;
  const auto gpu = oracle::num::ParseGpu(row_name);
  if (!gpu)
    return oracle::Error("--gpu-row: '" + row_name +
                         "' is not one of sm_70 sm_80 sm_89 sm_90 sm_100");
  const auto params = DenseParams(t, *gpu);
  if (!params && !ExactCase(doc) && oracle::num::IsFloat(t.a_type))
    return oracle::Error(file + ": the oracle has no arithmetic row for this form on " + row_name);
  const harness::MmaDenseSpec spec{t.form, t.a_type, t.b_type, t.cd, t.satfinite};
  LaunchCu c;
  c.from = file;
  c.instruction = harness::MmaDenseInstruction(spec);
  c.arch = std::string(t.form->target);
  c.oracle_row = row_name;
  c.launch = harness::PrepareMmaDense(spec, std::span<const oracle::mma::DenseTile>(&t, 1), c.arch);
  c.half_words = t.cd == oracle::num::Format::kF16;
  c.expected = oracle::mma::DenseReference(t, params.value_or(oracle::num::ExactParams(t.cd)));
  c.found = f.value().observed;
  return FromLaunch(c);
}

oracle::Result<EmittedCu> EmitTileCu(const std::string& file, const oracle::TextDoc& doc,
                                     const std::string&) {
  const auto f = oracle::tile::DescriptorTileFromDoc(doc);
  if (!f.ok()) return oracle::Error(file + ": " + f.error());
  const oracle::tile::DescriptorTile& t = f.value().tile;
  const bool tcgen05 = t.a.arch != oracle::smem::Arch::kSm90a;
  const auto expected = oracle::tile::TileReference(t);
  if (!expected.ok()) return oracle::Error(file + ": " + expected.error());
  LaunchCu c;
  c.from = file;
  c.arch = tcgen05 ? "sm_100a" : "sm_90a";
  c.oracle_row = tcgen05 ? "sm_100 tcgen05" : "sm_90 wgmma";
  const oracle::tile::DescriptorTile* one[] = {&t};
  oracle::Result<harness::PreparedLaunch> launch =
      oracle::Result<harness::PreparedLaunch>::Fail("");
  if (tcgen05) {
    const harness::Tcgen05Spec spec = harness::Tcgen05SpecOf(t);
    c.instruction = harness::Tcgen05Instruction(spec);
    launch = harness::PrepareTcgen05(spec, one, c.arch);
  } else {
    c.instruction = harness::WgmmaInstruction(harness::SpecOf(t));
    launch = harness::PrepareWgmma(harness::SpecOf(t), one);
  }
  if (!launch.ok()) return oracle::Error(file + ": " + launch.error());
  if (const std::string broken = BrokenRules(t); !broken.empty()) {
    c.instruction += "  [breaks " + broken +
                     ": undefined by spec; the oracle's D reads the descriptors as decoded]";
  }
  c.launch = std::move(launch).value();
  c.half_words = t.d == oracle::num::Format::kF16;
  c.address_word = true;
  c.cols = static_cast<std::size_t>(t.n);
  c.expected = expected.value();
  c.found = f.value().observed;
  return FromLaunch(c);
}

oracle::Result<EmittedCu> EmitSparseCu(const std::string& file, const oracle::TextDoc& doc,
                                       const std::string& row_name) {
  const auto sparse_case = SparseCaseFromDoc(doc);
  if (!sparse_case.ok()) return oracle::Error(file + ": " + sparse_case.error());
  const auto gpu = oracle::num::ParseGpu(row_name);
  if (!gpu)
    return oracle::Error("--gpu-row: '" + row_name +
                         "' is not one of sm_70 sm_80 sm_89 sm_90 sm_100");
  const SparseCaseFile& k = sparse_case.value();
  const auto params = SparseParams(k.tile, *gpu);
  if (!params && !ExactCase(doc) && oracle::num::IsFloat(k.tile.a_type)) {
    return oracle::Error(file + ": the oracle has no arithmetic row for this form on " + row_name);
  }
  const std::vector<uint32_t> expected =
      Reference(k.tile, params.value_or(oracle::num::ExactParams(k.tile.cd)));
  const harness::MmaSpSpec spec{k.op.form,     k.op.variant, k.op.selector,   k.tile.a_type,
                                k.tile.b_type, k.tile.cd,    k.tile.satfinite};
  const harness::MmaSpCase one{k.op, k.tile};
  const harness::PackedMmaSp p =
      harness::PackMmaSp(spec, std::span<const harness::MmaSpCase>(&one, 1));
  const int cr = harness::CdRegisters(spec.cd);
  const SparseForm& f = *spec.form;
  std::vector<uint32_t> where(32 * 4);  // lane, k -> row * 8 + col
  for (int lane = 0; lane < 32; ++lane) {
    for (int i = 0; i < 4; ++i) {
      const Coord x = MapCD(lane, i);
      where[static_cast<std::size_t>(lane * 4 + i)] = static_cast<uint32_t>(x.row * 8 + x.col);
    }
  }
  std::string cu;
  cu += "// Reproducer emitted by tcfuzz from " + oracle::OneLine(file) + "\n";
  cu += "// Instruction: " + harness::MmaSpInstruction(spec) + "\n";
  cu += "// Build and run: nvcc -arch=" + std::string(f.target) +
        " repro.cu -o repro && ./repro   (a GPU that runs " + std::string(f.target) +
        (f.target.ends_with("a") ? ")\n" : " or newer)\n");
  cu +=
      "// Prints every element of D where the device differs from tcfuzz's oracle (numerics row " +
      row_name + ")";
  cu += k.observed ? ", and the value the device returned when tcfuzz found the case.\n" : ".\n";
  cu +=
      "// Exit code: 0 when the device agrees with the oracle everywhere, 1 when not, 2 on a CUDA "
      "error.\n";
  cu += "#include <cstdint>\n#include <cstdio>\n\n";
  cu += "static const uint32_t kA[32][" + std::to_string(f.a_regs) +
        "] = " + Words(p.a, static_cast<std::size_t>(f.a_regs)) + ";\n";
  cu += "static const uint32_t kB[32][" + std::to_string(f.b_regs) +
        "] = " + Words(p.b, static_cast<std::size_t>(f.b_regs)) + ";\n";
  cu += "static const uint32_t kC[32][" + std::to_string(cr) +
        "] = " + Words(p.c, static_cast<std::size_t>(cr)) + ";\n";
  cu += "static const uint32_t kE[32][1] = " + Words(p.e, 1) + ";  // sparsity metadata\n";
  cu += "// Where d register element i of a lane lands in D (row * 8 + column); " +
        std::string(cr == 2 ? "two f16 elements per register, low half first"
                            : "one element per register") +
        ".\n";
  cu += "static const uint32_t kWhere[32][4] = " + Words(where, 4) + ";\n";
  cu += "static const uint32_t kExpected[16][8] = " + Words(expected, 8) + ";\n";
  if (k.observed) cu += "static const uint32_t kFound[16][8] = " + Words(*k.observed, 8) + ";\n";
  cu +=
      "\n__global__ void Run(const uint32_t* a, const uint32_t* b, const uint32_t* c, const "
      "uint32_t* e, uint32_t* d) {\n";
  cu += "  const int lane = threadIdx.x;\n  uint32_t r[" + std::to_string(cr) + "];\n";
  std::string outs;
  for (int i = 0; i < cr; ++i)
    outs += std::string(i ? ", " : "") + "\"=r\"(r[" + std::to_string(i) + "])";
  cu += "  asm volatile(\"" + harness::MmaSpAsm(spec) + "\"\n               : " + outs +
        "\n               : " + AsmOperands("a", f.a_regs, "r") + ",\n                 " +
        AsmOperands("b", f.b_regs, "r") + ",\n                 " + AsmOperands("c", cr, "r") +
        ", \"r\"(e[lane]));\n";
  cu += "  for (int i = 0; i < " + std::to_string(cr) + "; ++i) d[lane * " + std::to_string(cr) +
        " + i] = r[i];\n}\n\n";
  cu += R"(#define CHECK(x) do { cudaError_t err = (x); if (err != cudaSuccess) { \
  std::printf("CUDA error: %s (%s)\n", cudaGetErrorName(err), cudaGetErrorString(err)); return 2; } } while (0)

int main() {
  uint32_t *a, *b, *c, *e, *d;
  CHECK(cudaMalloc(&a, sizeof kA));
  CHECK(cudaMalloc(&b, sizeof kB));
  CHECK(cudaMalloc(&c, sizeof kC));
  CHECK(cudaMalloc(&e, sizeof kE));
  CHECK(cudaMalloc(&d, sizeof kC));
  CHECK(cudaMemcpy(a, kA, sizeof kA, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(b, kB, sizeof kB, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(c, kC, sizeof kC, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(e, kE, sizeof kE, cudaMemcpyHostToDevice));
  Run<<<1, 32>>>(a, b, c, e, d);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  uint32_t regs[sizeof kC / sizeof(uint32_t)];
  CHECK(cudaMemcpy(regs, d, sizeof kC, cudaMemcpyDeviceToHost));
  const int per_lane = sizeof kC[0] / sizeof(uint32_t);
  uint32_t got[128];
  for (int lane = 0; lane < 32; ++lane) {
    for (int i = 0; i < 4; ++i) {
      const uint32_t v = per_lane == 4 ? regs[lane * 4 + i] : (regs[lane * 2 + i / 2] >> (16 * (i % 2))) & 0xFFFFu;
      got[kWhere[lane][i]] = v;
    }
  }
  int differ = 0;
  for (int x = 0; x < 128; ++x) {
    const uint32_t want = kExpected[x / 8][x % 8];
    if (got[x] == want) continue;
    ++differ;
    std::printf("D[%d][%d]: device %08x, oracle %08x)";
  cu += k.observed ? R"(, found %08x\n", x / 8, x % 8, got[x], want, kFound[x / 8][x % 8]);)"
                   : R"(\n", x / 8, x % 8, got[x], want);)";
  cu += R"(
  }
  std::printf("%d of 128 elements of D differ from the oracle\n", differ);
  return differ ? 1 : 0;
}
)";
  return R::Ok({std::move(cu), harness::MmaSpInstruction(spec)});
}

}  // namespace tcfuzz::suites
