// `tcfuzz repro --emit-cu` end to end on a device: the emitted file builds with nvcc alone and,
// for an H100 capture the oracle agrees with, reports no difference; for the open signed-zero
// case (N4) it prints what the device does today. Skips without a GPU or nvcc.
#include <gtest/gtest.h>

#include <filesystem>

#include "generators/core/random_source.h"
#include "generators/mma/dense_mma_gen.h"
#include "generators/smem/descriptor_tile_gen.h"
#include "harness/device.h"
#include "oracle/mma/dense_case_text.h"
#include "oracle/sparse/sparse_case_text.h"
#include "oracle/tile/descriptor_tile_text.h"
#include "suites/engine/atomic_file.h"
#include "suites/engine/subprocess.h"
#include "suites/tests/support/gpu_skip.h"
#include "suites/tests/support/temp_dir.h"
#include "suites/tests/support/test_seed.h"

namespace tcfuzz {
namespace {

std::string Nvcc() {
  for (const char* p : {"/usr/local/cuda/bin/nvcc", "/usr/bin/nvcc"}) {
    if (std::filesystem::exists(p)) return p;
  }
  return {};
}

suites::CommandResult Sh(const std::string& cmd) {
  suites::CommandOptions o;
  o.timeout = std::chrono::milliseconds(180000);
  return suites::RunCommand(cmd, "", o);
}

TEST(ReproCu, EmittedFileRunsOnTheDevice) {
  const harness::DeviceInfo info = harness::ProbeDevice();
  if (!info.available) GTEST_SKIP() << "no GPU: " << info.reason;
  const std::string nvcc = Nvcc();
  if (nvcc.empty()) GTEST_SKIP() << "no nvcc to build the emitted file";
  const std::string dir = test::TempDir("repro_cu");
  const std::string arch = "sm_" + std::to_string(info.cc_major) + std::to_string(info.cc_minor) +
                           (info.cc_major >= 9 ? "a" : "");
  struct Case {
    const char* file;
    int want_exit;  // -1: recorded, not asserted (an open question)
  };
  for (const Case c : {Case{"h100/m16n8k16.bf16_ordered_sel1_f32_random_084.txt", 0},
                       Case{"h100/m16n8k128.s4_ordered_sel0_s32_small_int_018.txt", 0},
                       Case{"h100/n4_tf32_m16n8k8_signed_zero.txt", info.cc_major == 9 ? 0 : -1}}) {
    const std::string in = std::string(TCFUZZ_SOURCE_DIR) + "/corpus/sparse_mma/" + c.file;
    const auto emit = Sh(std::string(TCFUZZ_BIN) + " repro " + in + " --emit-cu " + dir + "/r.cu");
    ASSERT_TRUE(emit.ok()) << emit.out << emit.err;
    const auto build = Sh(nvcc + " -arch=" + arch + " -o " + dir + "/r " + dir + "/r.cu");
    ASSERT_TRUE(build.ok()) << build.out << build.err;
    const auto run = Sh(dir + "/r");
    std::printf("%s: %s", c.file, run.out.c_str());
    if (c.want_exit >= 0) {
      EXPECT_EQ(run.exit_code, c.want_exit) << run.out;
      EXPECT_NE(run.out.find("0 of 128 elements of D differ from the oracle"), std::string::npos)
          << run.out;
    } else {
      EXPECT_TRUE(run.exit_code == 0 || run.exit_code == 1)
          << run.Describe(std::chrono::milliseconds(180000)) << run.out;
    }
  }
}

// The driver-API files of dense and descriptor-tile cases (suites/emit/launch_cu.h) on the device:
// small-integer cases the oracle gets exactly right report no difference.
TEST(ReproCu, DenseAndTileFilesRunOnTheDevice) {
  const harness::DeviceInfo info = harness::ProbeDevice();
  if (!info.available) GTEST_SKIP() << "no GPU: " << info.reason;
  if (info.cc_major != 9 || info.cc_minor != 0)
    GTEST_SKIP() << "the wgmma tile runs on sm_90a; this is " << info.name;
  const std::string nvcc = Nvcc();
  if (nvcc.empty()) GTEST_SKIP() << "no nvcc to build the emitted file";
  const std::string dir = test::TempDir("repro_launch_cu");
  gen::RandomSource s(test::Seed());
  gen::GeneratedDense dense = gen::DrawDense(s);
  while (dense.mode != gen::ValueMode::kSmallInt) dense = gen::DrawDense(s);
  gen::GeneratedTile tile = gen::DrawWgmmaTile(s);
  while (tile.values != gen::TileValues::kSmallInt) tile = gen::DrawWgmmaTile(s);
  oracle::TextWriter dw(oracle::mma::kDenseKind), tw(oracle::tile::kDescriptorTileKind);
  oracle::mma::AppendDenseCase(dw, dense.tile);
  dw.Add("origin.mode", "small_int");
  oracle::tile::AppendDescriptorTile(tw, tile.tile, tile.fill);
  ASSERT_TRUE(suites::WriteFileAtomic(dir + "/dense.txt", dw.str()).ok());
  ASSERT_TRUE(suites::WriteFileAtomic(dir + "/tile.txt", tw.str()).ok());
  for (const std::string name : {"dense", "tile"}) {
    const auto emit = Sh(std::string(TCFUZZ_BIN) + " repro " + dir + "/" + name +
                         ".txt --emit-cu " + dir + "/" + name + ".cu");
    ASSERT_TRUE(emit.ok()) << emit.out << emit.err;
    const auto build =
        Sh(nvcc + " -arch=sm_90a -o " + dir + "/" + name + " " + dir + "/" + name + ".cu -lcuda");
    ASSERT_TRUE(build.ok()) << build.out << build.err;
    const auto run = Sh(dir + "/" + name);
    std::printf("%s: %s", name.c_str(), run.out.c_str());
    EXPECT_EQ(run.exit_code, 0) << run.out;
  }
}

// The minimizer on a device, against a device result planted wrong (TCFUZZ_TEST_PLANT_WRONG_D:
// the case-file worker flips bit 0 of D[0][0] after the real run): every candidate runs the real
// instruction, the signature (D[0][0] differs) holds throughout, so the case shrinks.
TEST(Minimize, PlantedMismatchShrinksOnTheDevice) {
  TCFUZZ_SKIP_BELOW_SM(8, "mma.sp");
  const std::string dir = test::TempDir("minimize_gpu");
  const std::string in = std::string(TCFUZZ_SOURCE_DIR) +
                         "/corpus/sparse_mma/h100/m16n8k16.bf16_ordered_sel1_f32_random_084.txt";
  const auto r = Sh("TCFUZZ_TEST_PLANT_WRONG_D=1 " + std::string(TCFUZZ_BIN) + " minimize " + in +
                    " --out " + dir + "/min.txt");
  std::printf("%s%s", r.out.c_str(), r.err.c_str());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // Fewer non-zero A and B elements than the original.
  const auto nonzero = [](const std::string& path) {
    const auto doc = oracle::TextDoc::Parse(suites::ReadFile(path).value());
    const auto k = oracle::sparse::SparseCaseFromDoc(doc.value());
    int n = 0;
    for (const uint64_t v : k.value().tile.a) n += v != 0;
    for (const uint64_t v : k.value().tile.b) n += v != 0;
    return n;
  };
  EXPECT_LT(nonzero(dir + "/min.txt"), nonzero(in)) << suites::ReadFile(dir + "/min.txt").value();
  // The minimized case fails, replayed from its file alone (the planted D is in it).
  const auto replay = Sh(std::string(TCFUZZ_BIN) + " replay " + dir + "/min.txt");
  EXPECT_EQ(replay.exit_code, 1) << replay.out;
  EXPECT_NE(replay.out.find("sparse.device_mismatch"), std::string::npos) << replay.out;
  // Without the plant the same file's case passes on the device.
  const auto clean =
      Sh(std::string(TCFUZZ_BIN) + " minimize " + in + " --out " + dir + "/clean.txt");
  EXPECT_EQ(clean.exit_code, 1) << clean.out << clean.err;
}

}  // namespace
}  // namespace tcfuzz
