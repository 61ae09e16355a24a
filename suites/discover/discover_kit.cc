#include "suites/discover/discover_kit.h"

#include <algorithm>
#include <filesystem>

#include "generators/smem/descriptor_tile_gen.h"
#include "harness/mma_dense.h"
#include "harness/tcgen05_exec.h"
#include "harness/wgmma_exec.h"
#include "oracle/mma/dense_case_text.h"
#include "oracle/smem/smem_case.h"
#include "oracle/tile/descriptor_tile_text.h"
#include "suites/discover/numerics_probes.h"
#include "suites/engine/atomic_file.h"

namespace tcfuzz::suites::discover {
namespace {

using oracle::num::Format;
namespace num = oracle::num;
namespace smem = oracle::smem;
using R = oracle::Result<std::vector<KitProgram>>;

constexpr int kProbesPerTile = 8;  // on D's diagonal: probe i in A's row i and B's column i

std::string Stem(const NumericsQuestion& q) {
  return "numerics_" + std::string(num::Name(q.instr)) + "_" + std::string(num::Name(q.ab)) + "_" +
         std::string(num::Name(q.cd));
}

// What the program compares against when it runs alone (its exit code): the sm_90 row.
num::DotParams ShownRow(const NumericsQuestion& q) {
  return num::ParamsFor(num::Gpu::kSm90, q.instr, q.ab, q.cd).value_or(num::ExactParams(q.cd));
}

oracle::Result<KitProgram> DenseProgram(const NumericsQuestion& q,
                                        const std::vector<Probe>& probes) {
  using PR = oracle::Result<KitProgram>;
  const bool fp8 = oracle::num::IsFp8(q.ab);
  const char* shape = q.k == 8 ? "m16n8k8" : q.k == 16 ? "m16n8k16" : "m16n8k32";
  const oracle::mma::DenseForm* f = oracle::mma::FindDenseForm(shape, q.ab);
  if (f == nullptr) return PR::Fail("no dense form " + std::string(shape) + " for " + q.Name());
  std::vector<oracle::mma::DenseTile> tiles;
  for (std::size_t at = 0; at < probes.size(); at += kProbesPerTile) {
    oracle::mma::DenseTile t{f, q.ab, q.ab, q.cd, false, {}, {}, {}};
    t.a.assign(static_cast<std::size_t>(16 * q.k), 0);
    t.b.assign(static_cast<std::size_t>(q.k * 8), 0);
    t.c.assign(128, 0);
    for (std::size_t i = 0; i < kProbesPerTile && at + i < probes.size(); ++i) {
      const Probe& p = probes[at + i];
      for (std::size_t k = 0; k < static_cast<std::size_t>(q.k); ++k) {
        t.a[i * static_cast<std::size_t>(q.k) + k] = p.a[k];
        t.b[k * 8 + i] = p.b[k];
      }
      t.c[i * 8 + i] = p.c;
    }
    tiles.push_back(std::move(t));
  }
  KitProgram prog;
  prog.id = Stem(q);
  prog.arch = fp8 ? "sm_89" : "sm_80";
  prog.question = "numerics of " + q.Name() + " (F, L, e_zero, rounding, zero sign, C, fp8 path)";
  const harness::MmaDenseSpec spec{f, q.ab, q.ab, q.cd, false};
  prog.cu.from = "tcfuzz discover: " + q.Name();
  prog.cu.instruction = harness::MmaDenseInstruction(spec);
  prog.cu.arch = prog.arch;
  prog.cu.oracle_row = "sm_90";
  prog.cu.launch = harness::PrepareMmaDense(spec, tiles, prog.arch);
  prog.cu.half_words = q.cd == Format::kF16;
  for (const auto& t : tiles) {
    const auto d = oracle::mma::DenseReference(t, ShownRow(q));
    prog.cu.expected.insert(prog.cu.expected.end(), d.begin(), d.end());
    oracle::TextWriter w(oracle::mma::kDenseKind);
    w.Add("origin.question", "numerics " + q.Name());
    oracle::mma::AppendDenseCase(w, t);
    prog.cu.case_texts.push_back(w.str());
  }
  return PR::Ok(std::move(prog));
}

// wgmma m64n8 (gen::PlainWgmmaTile) in a 4 KiB image; C loaded (scale-d true).
oracle::Result<KitProgram> WgmmaProgram(const NumericsQuestion& q,
                                        const std::vector<Probe>& probes) {
  using PR = oracle::Result<KitProgram>;
  std::vector<oracle::tile::DescriptorTile> tiles;
  for (std::size_t at = 0; at < probes.size(); at += kProbesPerTile) {
    std::vector<uint64_t> a(static_cast<std::size_t>(64 * q.k), 0),
        b(static_cast<std::size_t>(8 * q.k), 0);
    std::vector<uint32_t> c(64 * 8, 0);
    for (std::size_t i = 0; i < kProbesPerTile && at + i < probes.size(); ++i) {
      const Probe& p = probes[at + i];
      std::copy(p.a.begin(), p.a.end(), a.begin() + static_cast<std::ptrdiff_t>(i * q.k));
      std::copy(p.b.begin(), p.b.end(), b.begin() + static_cast<std::ptrdiff_t>(i * q.k));
      c[i * 8 + i] = p.c;
    }
    oracle::tile::DescriptorTile t =
        gen::PlainWgmmaTile(q.ab, q.ab, q.cd, 8, a, b, std::move(c), 4096);
    tiles.push_back(std::move(t));
  }
  KitProgram prog;
  prog.id = Stem(q);
  prog.arch = "sm_90a";
  prog.question = "numerics of " + q.Name() + " (F, L, e_zero, rounding, zero sign, C)";
  const harness::WgmmaSpec spec = harness::SpecOf(tiles.front());
  std::vector<const oracle::tile::DescriptorTile*> ptrs;
  for (const auto& t : tiles) ptrs.push_back(&t);
  auto launch = harness::PrepareWgmma(spec, ptrs);
  if (!launch.ok()) return PR::Fail(launch.error());
  prog.cu.from = "tcfuzz discover: " + q.Name();
  prog.cu.instruction = harness::WgmmaInstruction(spec);
  prog.cu.arch = prog.arch;
  prog.cu.oracle_row = "sm_90";
  prog.cu.launch = std::move(launch).value();
  prog.cu.half_words = q.cd == Format::kF16;
  prog.cu.address_word = true;
  for (const auto& t : tiles) {
    const auto d = oracle::tile::TileReference(t);
    if (!d.ok()) return PR::Fail(d.error());
    prog.cu.expected.insert(prog.cu.expected.end(), d.value().begin(), d.value().end());
    oracle::TextWriter w(oracle::tile::kDescriptorTileKind);
    w.Add("origin.question", "numerics " + q.Name());
    oracle::tile::AppendDescriptorTile(w, t, 0);
    prog.cu.case_texts.push_back(w.str());
  }
  return PR::Ok(std::move(prog));
}

// A deciding tile of the corpus, without what a device returned before.
oracle::Result<KitProgram> TileProgram(const std::filesystem::path& file) {
  using PR = oracle::Result<KitProgram>;
  auto text = ReadFile(file.string());
  if (!text.ok()) return PR::Fail(text.error());
  std::string kept;
  for (std::size_t at = 0; at < text.value().size();) {
    std::size_t end = text.value().find('\n', at);
    if (end == std::string::npos) end = text.value().size();
    const std::string line = text.value().substr(at, end - at);
    at = end + 1;
    if (line.starts_with("observed.") || line.starts_with("origin.device") ||
        line.starts_with("origin.question"))
      continue;
    kept += line + "\n";
  }
  auto doc = oracle::TextDoc::Parse(kept);
  if (!doc.ok()) return PR::Fail(file.string() + ": " + doc.error());
  auto f = oracle::tile::DescriptorTileFromDoc(doc.value());
  if (!f.ok()) return PR::Fail(file.string() + ": " + f.error());
  const oracle::tile::DescriptorTile& t = f.value().tile;
  const bool tcgen05 = t.a.arch != smem::Arch::kSm90a;
  KitProgram prog;
  prog.id = file.stem().string();
  prog.arch = tcgen05 ? "sm_100a" : "sm_90a";
  std::string reading = prog.id.substr(0, prog.id.find('_'));
  std::transform(reading.begin(), reading.end(), reading.begin(),
                 [](unsigned char ch) { return static_cast<char>(std::toupper(ch)); });
  prog.question = "reading " + reading + " (docs/doc-vs-hardware.md), deciding tile " + prog.id;
  const oracle::tile::DescriptorTile* one[] = {&t};
  oracle::Result<harness::PreparedLaunch> launch =
      oracle::Result<harness::PreparedLaunch>::Fail("");
  if (tcgen05) {
    const harness::Tcgen05Spec spec = harness::Tcgen05SpecOf(t);
    prog.cu.instruction = harness::Tcgen05Instruction(spec);
    launch = harness::PrepareTcgen05(spec, one, prog.arch);
  } else {
    prog.cu.instruction = harness::WgmmaInstruction(harness::SpecOf(t));
    launch = harness::PrepareWgmma(harness::SpecOf(t), one);
  }
  if (!launch.ok()) return PR::Fail(file.string() + ": " + launch.error());
  const auto d = oracle::tile::TileReference(t);
  if (!d.ok()) return PR::Fail(file.string() + ": " + d.error());
  prog.cu.from = file.filename().string();
  prog.cu.arch = prog.arch;
  prog.cu.oracle_row = tcgen05 ? "sm_100 tcgen05" : "sm_90 wgmma";
  prog.cu.launch = std::move(launch).value();
  prog.cu.half_words = t.d == Format::kF16;
  prog.cu.address_word = true;
  prog.cu.cols = static_cast<std::size_t>(t.n);
  prog.cu.expected = d.value();
  prog.cu.case_texts = {kept + "origin.question = " + reading + " " + prog.id + "\n"};
  return PR::Ok(std::move(prog));
}

constexpr const char* kRunSh = R"SH(#!/bin/sh
# tcfuzz discover: builds each program this GPU can run (nvcc on PATH, the CUDA driver), runs it,
# and writes every case with the D the device returned into one result file (default
# results.txt). Send that file back, or run `tcfuzz oracle readings --ingest results.txt`.
set -u
cd "$(dirname "$0")"
out=${1:-results.txt}
cc=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -n 1 | tr -d ' .')
[ -n "$cc" ] || { echo "run.sh: no GPU found by nvidia-smi" >&2; exit 2; }
command -v nvcc >/dev/null || { echo "run.sh: nvcc is not on PATH" >&2; exit 2; }
mkdir -p bin
{
  echo "# tcfuzz discover results, $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "# nvidia-smi: $(nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader | head -n 1)"
  echo "# nvcc: $(nvcc --version | tail -n 1)"
} > "$out.tmp"
for f in *.cu; do
  arch=$(sed -n 's|^// tcfuzz-arch: ||p' "$f")
  need=$(echo "$arch" | tr -dc 0-9)
  case "$arch" in
    *a) [ "$need" = "$cc" ] || { echo "# skipped $f: $arch runs on CC $need only" >> "$out.tmp"; continue; } ;;
    *) [ "$cc" -ge "$need" ] || { echo "# skipped $f: needs $arch" >> "$out.tmp"; continue; } ;;
  esac
  exe="bin/${f%.cu}"
  if ! nvcc -arch="$arch" -o "$exe" "$f" -lcuda > "$exe.log" 2>&1; then
    echo "# $f: nvcc failed (see $exe.log)" >> "$out.tmp"; continue
  fi
  "$exe" >> "$out.tmp"
  [ $? -le 1 ] || echo "# $f: CUDA error (see above)" >> "$out.tmp"
done
mv "$out.tmp" "$out"
echo "wrote $out"
)SH";

}  // namespace

oracle::Result<std::vector<KitProgram>> KitPrograms(const std::vector<std::string>& tile_folders) {
  std::vector<KitProgram> out;
  for (const NumericsQuestion& q : NumericsQuestions()) {
    const std::vector<Probe> probes = DecidingProbes(q);
    auto p = q.instr == num::Instr::kMma ? DenseProgram(q, probes) : WgmmaProgram(q, probes);
    if (!p.ok()) return R::Fail(p.error());
    out.push_back(std::move(p).value());
  }
  for (const std::string& folder : tile_folders) {
    std::vector<std::filesystem::path> files;
    std::error_code ec;
    for (const auto& e : std::filesystem::directory_iterator(folder, ec)) files.push_back(e.path());
    if (ec) return R::Fail(folder + ": " + ec.message());
    std::sort(files.begin(), files.end());
    for (const auto& f : files) {
      auto p = TileProgram(f);
      if (!p.ok()) return R::Fail(p.error());
      out.push_back(std::move(p).value());
    }
  }
  return R::Ok(std::move(out));
}

oracle::Result<int> EmitKit(const std::string& dir, const std::vector<std::string>& tile_folders) {
  using IR = oracle::Result<int>;
  auto programs = KitPrograms(tile_folders);
  if (!programs.ok()) return IR::Fail(programs.error());
  std::string readme =
      "tcfuzz discover: one program per question. Run ./run.sh on a machine with a GPU, nvcc and\n"
      "its driver; it writes results.txt. Each program:\n\n";
  for (const KitProgram& p : programs.value()) {
    auto text = LaunchCuText(p.cu);
    if (!text.ok()) return IR::Fail(p.id + ": " + text.error());
    auto w = WriteFileAtomic(dir + "/" + p.id + ".cu",
                             "// tcfuzz-arch: " + p.arch + "\n" + text.value());
    if (!w.ok()) return IR::Fail(w.error());
    readme += p.id + ".cu (" + p.arch + "): " + p.question + "\n";
  }
  auto w = WriteFileAtomic(dir + "/run.sh", kRunSh);
  if (!w.ok()) return IR::Fail(w.error());
  std::error_code ec;
  std::filesystem::permissions(dir + "/run.sh",
                               std::filesystem::perms::owner_exec |
                                   std::filesystem::perms::group_exec |
                                   std::filesystem::perms::others_exec,
                               std::filesystem::perm_options::add, ec);
  w = WriteFileAtomic(dir + "/README.txt", readme);
  if (!w.ok()) return IR::Fail(w.error());
  return IR::Ok(static_cast<int>(programs.value().size()));
}

}  // namespace tcfuzz::suites::discover
