// The toolchain scan as a campaign suite (suites/toolchain/toolchain_suite.h): a deviation from
// the model that no expectations line names fails its case, the same item passes as a known
// deviation under the toolkit's expectations file, and the case's reproducer script finds it
// again through the other path, `toolchain scan`.
#include "suites/toolchain/toolchain_suite.h"

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "harness/nvjitlink.h"
#include "suites/engine/subprocess.h"
#include "suites/tests/support/temp_dir.h"
#include "suites/toolchain/toolchain_scan.h"

namespace tcfuzz::suites {
namespace {

const std::string kExpectations =
    std::string(TCFUZZ_SOURCE_DIR) + "/corpus/toolchain/expectations.txt";

RunSettings Seeded(uint64_t seed) {
  RunSettings run;
  run.seed = seed;
  return run;
}

TEST(ToolchainSuite, ADeviationNoLineNamesFailsAndItsScriptFindsItAgain) {
  if (!harness::NvJitLink::Load().ok()) GTEST_SKIP() << harness::NvJitLink::Load().error();
  auto bare = MakeToolchainSuite({TCFUZZ_BIN}, oracle::Result<std::string>::Ok(""));
  auto known = MakeToolchainSuite({TCFUZZ_BIN}, oracle::Result<std::string>::Ok(kExpectations));
  ASSERT_EQ(bare->Prepare(Seeded(20261127)), "");
  ASSERT_EQ(known->Prepare(Seeded(20261127)), "");
  EXPECT_EQ(bare->case_space(), WholeScanItems());
  // The 13.0 toolkit deviates from the model on a few hundred of the scan's items: a sample of a
  // few thousand cases meets one.
  std::optional<CaseResult> failed;
  uint64_t index = 0;
  for (; index < 4000 && !failed; ++index) {
    CaseResult c = bare->RunCase(index, 0);
    ASSERT_EQ(c.family.rfind("toolchain.", 0), 0u) << c.family;
    if (!c.failures.empty()) failed = std::move(c);
  }
  ASSERT_TRUE(failed) << "no deviation in 4000 cases";
  --index;
  const std::string& check = failed->failures.front().check;
  EXPECT_TRUE(check == "accepts_illegal" || check == "rejects_legal") << check;
  EXPECT_NE(failed->failures.front().message.find(" on sm_"), std::string::npos);
  // The same case under the toolkit's expectations: a known deviation, passing.
  const CaseResult again = known->RunCase(index, 0);
  EXPECT_TRUE(again.failures.empty()) << again.failures.front().message;
  EXPECT_NE(std::find(again.tags.begin(), again.tags.end(), "known_deviation"), again.tags.end());
  // Its reproducer: `toolchain scan` of that one item without expectations, exit 1.
  const std::string dir = test::TempDir("toolchain_suite");
  std::ofstream(dir + "/repro.sh") << failed->reproducer;
  // Written by a test binary, it names a bare `tcfuzz` (ToolCommand): the one built, on PATH.
  std::filesystem::create_symlink(TCFUZZ_BIN, dir + "/tcfuzz");
  CommandOptions o;
  o.timeout = std::chrono::seconds(120);
  o.env = {{"PATH", dir + ":/usr/bin:/bin"}};
  const CommandResult r = RunArgv({"/bin/sh", dir + "/repro.sh"}, "", o);
  EXPECT_EQ(r.exit_code, 1) << failed->reproducer << r.out << r.err;
  EXPECT_NE(r.out.find("1 unexpected verdicts"), std::string::npos) << r.out;
}

TEST(ToolchainSuite, CannotRunWithoutItsWorkerOrExpectations) {
  EXPECT_EQ(MakeToolchainSuite({}, oracle::Result<std::string>::Ok(""))->Prepare(Seeded(1)),
            "no worker binary");
  const std::string why =
      MakeToolchainSuite({TCFUZZ_BIN}, oracle::Result<std::string>::Fail("no data folder"))
          ->Prepare(Seeded(1));
  if (!harness::NvJitLink::Load().ok()) {
    EXPECT_EQ(why.rfind("no CUDA toolkit to scan: ", 0), 0u) << why;
  } else {
    EXPECT_EQ(why, "toolchain expectations: no data folder");
  }
}

}  // namespace
}  // namespace tcfuzz::suites
