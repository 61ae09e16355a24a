// The smem-hw and tcgen05 GPU suites end to end on a device, through the real `tcfuzz worker`:
// every legal descriptor tile agrees with the oracle, and the broken ones come back as
// undefined_by_spec records, each with the device's D. Skips visibly without an sm_90 (smem-hw)
// or compute capability 10.x (tcgen05) device. Also the deciding cases of the descriptor rows
// (S1, S2, S6 for wgmma; S7 for tcgen05).
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <span>
#include <sstream>

#include "harness/device.h"
#include "harness/tcgen05_exec.h"
#include "harness/wgmma_exec.h"
#include "suites/engine/atomic_file.h"
#include "suites/engine/device_campaign.h"
#include "suites/engine/worker_protocol.h"
#include "suites/kinds/descriptor_tile_cases.h"
#include "suites/tests/support/gpu_campaign.h"
#include "suites/tests/support/temp_dir.h"

namespace tcfuzz::suites {
namespace {

void RunsClean(const char* suite, bool (*fits)(const DeviceProbe&), const char* needs) {
  const DeviceProbe device = ProbeInWorker({TCFUZZ_BIN});
  if (!device.available) GTEST_SKIP() << "no GPU: " << device.reason;
  if (!fits(device)) GTEST_SKIP() << suite << " needs " << needs << "; this is " << device.name;
  const test::GpuCampaign c = test::RunGpuCampaign(suite, 20261122, 3000);
  test::ExpectClean(c, 3000);
  uint64_t broken = 0;
  for (uint64_t i = 0; i < 3000; ++i) {
    broken += (std::string(suite) == kSmemHwSuite ? DrawSmemHwCase(c.options.seed, i)
                                                  : DrawTcgen05Case(c.options.seed, i))
                  .broken != nullptr;
  }
  EXPECT_EQ(c.suite["outcomes"]["undefined_by_spec"], broken) << c.log;
}

TEST(SmemHwCampaign, WgmmaDescriptorTilesRunCleanOnSm90) {
  RunsClean(
      kSmemHwSuite, [](const DeviceProbe& d) { return d.cc_major == 9 && d.cc_minor == 0; },
      "sm_90a");
}

TEST(SmemHwCampaign, Tcgen05DescriptorTilesRunCleanOnBlackwell) {
  RunsClean(
      kTcgen05Suite, [](const DeviceProbe& d) { return d.cc_major == 10; },
      "compute capability 10.x");
}

// With TCFUZZ_CAPTURE_DIR set, a deciding file is kept again with the D the device returned (its
// text as it is, plus origin.device and observed.* lines): our own captures for corpus/.
void KeepCapture(const std::filesystem::path& file, const oracle::tile::DescriptorTileFile& f,
                 const std::vector<uint32_t>& got, const harness::DeviceInfo& info) {
  const char* dir = std::getenv("TCFUZZ_CAPTURE_DIR");
  if (dir == nullptr) return;
  oracle::TextWriter w(oracle::tile::kDescriptorTileKind);
  AppendDescriptorTile(w, f.tile, f.fill, &got);
  std::string text = ReadFile(file.string()).value();
  text += "origin.device = " + info.name + ", CC " + std::to_string(info.cc_major) + "." +
          std::to_string(info.cc_minor) + ", driver " + std::to_string(info.driver_version) + "\n";
  std::istringstream lines(w.str());
  for (std::string line; std::getline(lines, line);) {
    if (line.starts_with("observed.")) text += line + "\n";
  }
  EXPECT_TRUE(WriteFileAtomic(std::string(dir) + "/" + file.filename().string(), text).ok()) << dir;
}

// The deciding cases of the descriptor rows (S1 base offsets, S2 LBO of swizzled K-major, S6
// LBO/SBO roles without swizzle): each tile on the device against the oracle. A disagreement is
// a doc-vs-hardware finding: the message names the A element the device read and the byte the
// oracle's map predicted; record it in docs/doc-vs-hardware.md.
TEST(SmemHwDeciding, DescriptorRowsOnTheDevice) {
  const harness::DeviceInfo info = harness::ProbeDevice();
  if (!info.available) GTEST_SKIP() << "no GPU: " << info.reason;
  if (info.cc_major != 9 || info.cc_minor != 0)
    GTEST_SKIP() << "wgmma runs on sm_90a; this is " << info.name;
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(std::string(TCFUZZ_SOURCE_DIR) +
                                                               "/corpus/smem_hw/deciding")) {
    const auto f = ReadDescriptorTileCase(entry.path().string());
    ASSERT_TRUE(f.ok()) << f.error();
    const oracle::tile::DescriptorTile& t = f.value().tile;
    const auto got =
        harness::RunWgmma(harness::SpecOf(t), std::span<const oracle::tile::DescriptorTile>(&t, 1));
    ASSERT_TRUE(got.ok()) << entry.path().filename() << ": " << got.error();
    const auto want = oracle::tile::TileReference(t).value();
    gen::GeneratedTile g;
    g.tile = t;
    g.values = gen::TileValues::kProbe;
    const std::string what = MismatchDetail(want, got.value()[0], static_cast<std::size_t>(t.n));
    std::printf("%s: %s\n", entry.path().filename().c_str(),
                what.empty() ? "agrees with the oracle" : what.c_str());
    KeepCapture(entry.path(), f.value(), got.value()[0], info);
    EXPECT_TRUE(what.empty()) << entry.path().filename() << ": " << what << "; "
                              << TileProbeExplanation(g, got.value()[0]);
    ++files;
  }
  EXPECT_GE(files, 17);
}

// The deciding tiles of spec choice S7 (corpus/tcgen05_hw/deciding: MN-major tf32 with 128B
// swizzle of 32-byte atoms and SBO != 512) on a CC 10.x device. The message says which reading the
// device followed: tcfuzz's (Table 55: 4 K rows per atom) or the 8-row one; record it in
// docs/doc-vs-hardware.md row S7. TCFUZZ_CAPTURE_DIR keeps each file with the D returned.
TEST(Tcgen05Deciding, S7OnTheDevice) {
  const harness::DeviceInfo info = harness::ProbeDevice();
  if (!info.available) GTEST_SKIP() << "no GPU: " << info.reason;
  if (info.cc_major != 10)
    GTEST_SKIP() << "tcgen05 runs on compute capability 10.x, this is " << info.name;
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(std::string(TCFUZZ_SOURCE_DIR) +
                                                               "/corpus/tcgen05_hw/deciding")) {
    const auto f = ReadDescriptorTileCase(entry.path().string());
    ASSERT_TRUE(f.ok()) << f.error();
    const oracle::tile::DescriptorTile& t = f.value().tile;
    const auto got = harness::RunTcgen05(harness::Tcgen05SpecOf(t),
                                         std::span<const oracle::tile::DescriptorTile>(&t, 1));
    ASSERT_TRUE(got.ok()) << entry.path().filename() << ": " << got.error();
    const auto want = oracle::tile::TileReference(t).value();
    const auto eight =
        oracle::tile::TileReference(
            oracle::tile::AsReadUnder(t, oracle::spec_choice::Base32BAtomKRows::kEightAsOtherModes))
            .value();
    const std::string reading = got.value()[0] == want
                                    ? "Table 55's 4 K rows per atom (tcfuzz's reading)"
                                : got.value()[0] == eight ? "8 K rows per atom (the other reading)"
                                                          : "neither reading";
    std::printf("%s: the device followed %s\n", entry.path().filename().c_str(), reading.c_str());
    KeepCapture(entry.path(), f.value(), got.value()[0], info);
    EXPECT_EQ(got.value()[0], want)
        << entry.path().filename() << ": the device followed " << reading << "; "
        << MismatchDetail(want, got.value()[0], static_cast<std::size_t>(t.n));
    ++files;
  }
  EXPECT_GE(files, 3);
}

}  // namespace
}  // namespace tcfuzz::suites
