// The discovery kit without a GPU: every numerics row of the oracle is a candidate and the
// probes tell it from its near neighbours; the programs are written and compile for sm_80,
// sm_90a and sm_100a; a result file made of the oracle's own answers is ingested as fitting, and
// one element changed is reported as a contradiction.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

#include "oracle/core/text_format.h"
#include "suites/discover/discover_kit.h"
#include "suites/discover/ingest.h"
#include "suites/discover/numerics_probes.h"
#include "suites/engine/atomic_file.h"
#include "suites/tests/support/temp_dir.h"

namespace tcfuzz::suites::discover {
namespace {

namespace num = oracle::num;

bool Same(const num::DotParams& a, const num::DotParams& b) {
  return a.F == b.F && a.L == b.L && a.e_zero == b.e_zero && a.rho == b.rho &&
         a.negative_zero == b.negative_zero && a.fp8_via_f16 == b.fp8_via_f16;
}

std::vector<num::DotParams> TableRows(const NumericsQuestion& q) {
  std::vector<num::DotParams> rows;
  for (num::Gpu g :
       {num::Gpu::kSm70, num::Gpu::kSm80, num::Gpu::kSm89, num::Gpu::kSm90, num::Gpu::kSm100}) {
    if (const auto p = num::ParamsFor(g, q.instr, q.ab, q.cd)) rows.push_back(*p);
  }
  return rows;
}

TEST(DiscoverProbes, EveryRowOfTheTableIsACandidate) {
  for (const NumericsQuestion& q : NumericsQuestions()) {
    const auto cands = CandidateRows(q);
    for (const num::DotParams& row : TableRows(q)) {
      EXPECT_TRUE(std::any_of(cands.begin(), cands.end(),
                              [&](const CandidateRow& c) { return Same(c.params, row); }))
          << q.Name() << " row " << row.row;
    }
  }
}

// Each row against its neighbours in every parameter the results can show: F one more or less,
// half or twice L (within K, and within a group of 16 on the f16-MMA path), the other rounding of
// an f32 D, the fp8 path flipped. And every two rows of the table that differ are told apart.
TEST(DiscoverProbes, ProbesTellEachRowFromItsNeighbours) {
  for (const NumericsQuestion& q : NumericsQuestions()) {
    const std::vector<Probe> probes = DecidingProbes(q);
    ASSERT_FALSE(probes.empty()) << q.Name();
    const auto differs = [&](const num::DotParams& a, const num::DotParams& b) {
      for (const Probe& p : probes) {
        if (ProbeD(q, p, a) != ProbeD(q, p, b)) return true;
      }
      return false;
    };
    const std::vector<num::DotParams> rows = TableRows(q);
    for (const num::DotParams& row : rows) {
      std::vector<num::DotParams> near;
      for (int dF : {-1, 1}) {
        num::DotParams p = row;
        p.F += dF;
        near.push_back(p);
      }
      const int group = row.fp8_via_f16 ? 16 : q.k;
      for (int L : {row.L / 2, row.L * 2}) {
        if (L < 4 || L > group) continue;
        num::DotParams p = row;
        p.L = L;
        near.push_back(p);
      }
      if (q.cd == num::Format::kF32) {
        num::DotParams p = row;
        p.rho = row.rho == num::Rounding::kRzF32 ? num::Rounding::kRzE8M13 : num::Rounding::kRzF32;
        near.push_back(p);
      }
      if (q.ab == num::Format::kE4M3 || q.ab == num::Format::kE5M2) {
        num::DotParams p = row;
        p.fp8_via_f16 = !row.fp8_via_f16;
        near.push_back(p);
      }
      for (const num::DotParams& p : near) {
        EXPECT_TRUE(differs(row, p)) << q.Name() << " row " << row.row << ": F " << p.F << " L "
                                     << p.L << " via-f16 " << p.fp8_via_f16;
      }
      for (const num::DotParams& other : rows) {
        if (Same(row, other)) continue;
        const bool only_zero_sign_on_f16_path =  // C is added last: a zero's sign never shows
            row.fp8_via_f16 && other.fp8_via_f16 && row.F == other.F && row.L == other.L;
        if (!only_zero_sign_on_f16_path) {
          EXPECT_TRUE(differs(row, other)) << q.Name() << ": " << row.row << " vs " << other.row;
        }
      }
    }
  }
}

// A result file as run.sh writes it, made of the oracle's own answers (the sm_90 rows the
// programs embed): every case with origin.device and observed rows.
std::string ResultsFromOracle(const std::vector<KitProgram>& programs, const std::string& device) {
  std::string out = "# tcfuzz discover results (made by the test)\n";
  for (const KitProgram& p : programs) {
    const std::size_t per = p.cu.expected.size() / p.cu.case_texts.size();
    for (std::size_t i = 0; i < p.cu.case_texts.size(); ++i) {
      out += p.cu.case_texts[i] + "origin.device = " + device + "\n";
      for (std::size_t r = 0; r * p.cu.cols < per; ++r) {
        const auto first =
            p.cu.expected.begin() + static_cast<std::ptrdiff_t>(i * per + r * p.cu.cols);
        const std::vector<uint64_t> row(first, first + static_cast<std::ptrdiff_t>(p.cu.cols));
        out += "observed." + std::to_string(r) + " = " + oracle::HexRow(row, 8) + "\n";
      }
    }
  }
  return out;
}

std::vector<std::string> Folders() {
  std::vector<std::string> f;
  for (const char* d : kDecidingFolders)
    f.push_back(std::string(TCFUZZ_SOURCE_DIR) + "/corpus/" + d);
  return f;
}

TEST(DiscoverIngest, OwnAnswersFitAndAChangedElementContradicts) {
  const auto programs = KitPrograms(Folders());
  ASSERT_TRUE(programs.ok()) << programs.error();
  // Only what an H100 runs: mma, wgmma and the sm_90a deciding tiles.
  std::vector<KitProgram> h100;
  for (const KitProgram& p : programs.value())
    if (p.arch != "sm_100a") h100.push_back(p);
  const std::string device = "NVIDIA H100 80GB HBM3, CC 9.0, driver 13000";
  const std::string text = ResultsFromOracle(h100, device);
  const auto fits = Ingest(text, "own.txt");
  ASSERT_TRUE(fits.ok()) << fits.error();
  EXPECT_EQ(fits.value().target, "sm_90");
  EXPECT_EQ(fits.value().contradicted, 0);
  for (const std::string& line : fits.value().lines) {
    EXPECT_EQ(line.find("CONTRADICTS"), std::string::npos) << line;
    if (line.starts_with("mma e4m3 -> f32")) {
      EXPECT_NE(line.find("two f16 MMAs then C. The oracle's row R90-mma-fp8 fits"),
                std::string::npos)
          << line;
    }
  }
  EXPECT_EQ(fits.value().lines.size(), 16u + 17u);  // 16 numerics questions, 17 sm_90a tiles

  // One element of D changed in the first mma e4m3 -> f32 case and in an S1 tile.
  std::string changed = text;
  for (const std::string marker : {"numerics mma e4m3 -> f32", "s1_a_128b_base_offset_3"}) {
    const std::size_t at = changed.find("observed.0 = ", changed.find(marker));
    ASSERT_NE(at, std::string::npos) << marker;
    char& digit = changed[at + std::string("observed.0 = ").size()];
    digit = digit == '1' ? '2' : '1';
  }
  const auto contradicts = Ingest(changed, "changed.txt");
  ASSERT_TRUE(contradicts.ok()) << contradicts.error();
  EXPECT_EQ(contradicts.value().contradicted, 2);

  // Not a result file; cases from two devices.
  EXPECT_FALSE(Ingest("# nothing\n", "empty.txt").ok());
  std::string two = text;
  two.replace(two.rfind(device), device.size(), "NVIDIA A100, CC 8.0, driver 13000");
  const auto mixed = Ingest(two, "two.txt");
  ASSERT_FALSE(mixed.ok());
  EXPECT_NE(mixed.error().find("one device per file"), std::string::npos) << mixed.error();
}

// Result files contributed from real GPUs (corpus/discover, docs/discover.md): each must fit the
// oracle's rows and readings for its device; a row changed so that a file contradicts it fails
// here, with the file as the evidence.
TEST(DiscoverIngest, ContributedResultsFitTheOracle) {
  int files = 0;
  for (const auto& e :
       std::filesystem::directory_iterator(std::string(TCFUZZ_SOURCE_DIR) + "/corpus/discover")) {
    const auto text = ReadFile(e.path().string());
    ASSERT_TRUE(text.ok()) << text.error();
    const auto rep = Ingest(text.value(), e.path().filename().string());
    ASSERT_TRUE(rep.ok()) << rep.error();
    EXPECT_EQ(rep.value().contradicted, 0) << e.path();
    for (const std::string& line : rep.value().lines) {
      EXPECT_EQ(line.find("CONTRADICTS"), std::string::npos) << e.path() << ": " << line;
      EXPECT_EQ(line.find("no row"), std::string::npos) << e.path() << ": " << line;
    }
    ++files;
  }
  EXPECT_GE(files, 1);  // the H100's, 2026-11-25
}

TEST(DiscoverKit, WritesProgramsThatCompileForEachTarget) {
  const std::string dir = test::TempDir("discover_kit");
  const auto n = EmitKit(dir, Folders());
  ASSERT_TRUE(n.ok()) << n.error();
  EXPECT_EQ(n.value(), 16 + 17 + 3);
  EXPECT_TRUE(std::filesystem::exists(dir + "/run.sh"));
  EXPECT_TRUE(std::filesystem::exists(dir + "/README.txt"));
  // A program of several tiles launches every one of them (the first H100 run of the kit found
  // only the first tile launched).
  const auto cu = ReadFile(dir + "/numerics_mma_bf16_f32.cu");
  ASSERT_TRUE(cu.ok()) << cu.error();
  const std::size_t at = cu.value().find("kCases = ");
  ASSERT_NE(at, std::string::npos);
  const int cases = std::atoi(cu.value().c_str() + at + 9);
  EXPECT_GT(cases, 1);
  EXPECT_NE(cu.value().find("unsigned n = " + std::to_string(cases) + ";"), std::string::npos);
#ifdef TCFUZZ_NVCC
  for (const auto& [stem, arch] :
       {std::pair{"numerics_mma_f16_f32", "sm_80"}, std::pair{"numerics_mma_e4m3_f16", "sm_89"},
        std::pair{"numerics_wgmma_e5m2_f16", "sm_90a"},
        std::pair{"s7_a_mn_tf32_sbo_768", "sm_100a"}}) {
    const std::string cmd = std::string(TCFUZZ_NVCC) + " -arch=" + arch + " -o " + dir + "/" +
                            stem + " " + dir + "/" + stem + ".cu -lcuda 2>&1";
    EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
  }
#else
  GTEST_SKIP() << "no nvcc: the programs were written, not compiled";
#endif
}

}  // namespace
}  // namespace tcfuzz::suites::discover
