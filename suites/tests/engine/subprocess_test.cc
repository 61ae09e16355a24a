// RunCommand against real shell commands: output, exit codes, signals, deadlines, output caps,
// children that never read their input, and the environment it adds.
#include "suites/engine/subprocess.h"

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "suites/engine/stop_signals.h"
#include "suites/tests/support/temp_dir.h"

namespace tcfuzz::suites {
namespace {

using namespace std::chrono_literals;

TEST(RunCommand, FeedsStdinAndCapturesBothStreams) {
  const auto r = RunCommand("cat; echo oops >&2", "hello\n", {});
  ASSERT_TRUE(r.ok()) << r.Describe(10s);
  EXPECT_EQ(r.out, "hello\n");
  EXPECT_EQ(r.err, "oops\n");
}

TEST(RunCommand, ExitCodesAndSignalsAreKeptApart) {
  const auto e = RunCommand("exit 3", "", {});
  EXPECT_EQ(e.exit_code, 3);
  EXPECT_EQ(e.signal, 0);
  EXPECT_EQ(e.Describe(1s), "exit 3");
  const auto s = RunCommand("kill -SEGV $$", "", {});
  EXPECT_EQ(s.signal, SIGSEGV);
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.Describe(1s).find("signal 11"), std::string::npos) << s.Describe(1s);
}

TEST(RunCommand, KillsTheWholeGroupAtTheDeadline) {
  CommandOptions o;
  o.timeout = 300ms;
  const auto start = std::chrono::steady_clock::now();
  // The sleeping grandchild holds stdout open: only killing the group ends the wait.
  const auto r = RunCommand("sleep 30 & sleep 30", "", o);
  EXPECT_TRUE(r.timed_out);
  EXPECT_FALSE(r.ok());
  EXPECT_LT(std::chrono::steady_clock::now() - start, 20s);
  EXPECT_EQ(r.Describe(o.timeout), "timed out after 300 ms");
}

TEST(RunCommand, TheDeadlineHoldsAfterTheChildClosesItsPipes) {
  CommandOptions o;
  o.timeout = 300ms;
  const auto r = RunCommand("exec >/dev/null 2>&1 </dev/null; sleep 30", "input", o);
  EXPECT_TRUE(r.timed_out);
}

TEST(RunCommand, AGrandchildHoldingThePipesDoesNotMakeAHang) {
  CommandOptions o;
  o.timeout = 5000ms;
  // The shell answers and exits; its background child keeps stdout open for 30 s.
  const auto r = RunCommand("sleep 30 & echo answer", "", o);
  EXPECT_FALSE(r.timed_out);
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out, "answer\n");
}

TEST(RunCommand, CapsOutputAndSurvivesAChildThatIgnoresStdin) {
  CommandOptions o;
  o.max_output = 1000;
  const std::string big(4 << 20, 'x');  // more than a pipe holds
  const auto r = RunCommand("head -c 3000000 /dev/zero", big, o);
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out.size(), 1000u);
  EXPECT_TRUE(r.out_truncated);
}

// A child that ends without reading its stdin (a tiler that crashed) makes the writes to it fail
// with EPIPE, and nothing more: during a run SIGPIPE means the run's own stdout closed and stops
// it as interrupted, so a child's closed pipe must never raise it (Cli.TilingFuzzDrivesACommand-
// Tiler was stopped that way now and then, its tiler `kill -ABRT $$`).
TEST(RunCommand, AChildThatStopsReadingDoesNotStopTheRun) {
  const StopSignals during_a_run;
  const std::string big(4 << 20, 'x');  // more than a pipe holds: some write meets the closed end
  for (const char* command : {"exit 0", "kill -ABRT $$"}) {
    const auto r = RunCommand(command, big, {});
    EXPECT_TRUE(r.started) << command;
    EXPECT_FALSE(StopRequested()) << command << ": signal " << StopSignal();
  }
  LineSession gone("exit 0", {});
  std::this_thread::sleep_for(100ms);  // it has ended before the request is written
  EXPECT_FALSE(gone.Ask(big, 1000ms).ok());
  EXPECT_FALSE(StopRequested()) << "signal " << StopSignal();
}

TEST(RunCommand, AddsEnvironmentAndReportsAMissingProgram) {
  CommandOptions o;
  o.env = {{"TCFUZZ_TEST_VALUE", "42"}};
  EXPECT_EQ(RunCommand("printf %s \"$TCFUZZ_TEST_VALUE\"", "", o).out, "42");
  const auto r = RunCommand("/nonexistent/tiler", "", {});
  EXPECT_EQ(r.exit_code, 127);  // the shell's "not found"
}

// The processes still alive whose command line starts with `program` (a path unique to the test).
int AliveRunning(const std::string& program) {
  int alive = 0;
  for (const auto& e : std::filesystem::directory_iterator("/proc")) {
    std::ifstream cmdline(e.path() / "cmdline");
    std::string argv0;
    if (!std::getline(cmdline, argv0, '\0') || argv0 != program) continue;
    std::ifstream stat(e.path() / "stat");
    std::string line;
    std::getline(stat, line);
    const auto rp = line.rfind(')');
    if (rp != std::string::npos && rp + 2 < line.size() && line[rp + 2] != 'Z') ++alive;
  }
  return alive;
}

// A copy of sleep under a name of this test's own, so its processes can be counted.
std::string MarkedSleep(const std::string& tag) {
  const std::string dir = test::TempDir(tag);
  const std::string path = dir + "/marked-sleep";
  std::filesystem::copy_file("/bin/sleep", path);
  std::filesystem::permissions(path, std::filesystem::perms::owner_all);
  return path;
}

TEST(RunCommand, NothingTheCommandStartedOutlivesIt) {
  // Descendants that leave the process group and the session (setsid), one of them a grandchild
  // whose parent exits at once: none survives the command's end.
  const std::string sleeper = MarkedSleep("reap_exit");
  const auto r = RunCommand("setsid " + sleeper + " 300 & (setsid " + sleeper +
                                " 300 &) ; sh -c '" + sleeper + " 300 &' ; echo done",
                            "", {});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out, "done\n");
  EXPECT_EQ(AliveRunning(sleeper), 0);
}

TEST(RunCommand, NothingTheCommandStartedOutlivesItsDeadline) {
  const std::string sleeper = MarkedSleep("reap_deadline");
  CommandOptions o;
  o.timeout = 300ms;
  const auto r = RunCommand(
      "setsid " + sleeper + " 300 & (setsid " + sleeper + " 300 &); exec " + sleeper + " 300", "",
      o);
  EXPECT_TRUE(r.timed_out);
  EXPECT_EQ(AliveRunning(sleeper), 0);
}

// tcfuzz killed outright (SIGKILL: a CI job's timeout) cannot end a long-lived command itself;
// the reaper sees it gone and ends the command, and what it started, within a second or two.
TEST(LineSession, ItsCommandDoesNotOutliveAKilledTcfuzz) {
  const std::string sleeper = MarkedSleep("reap_orphan");
  const pid_t owner = ::fork();
  ASSERT_GE(owner, 0);
  if (owner == 0) {  // stands in for tcfuzz: a session kept open, then killed
    LineSession session("(setsid " + sleeper + " 300 &); exec " + sleeper + " 300", {});
    for (;;) ::pause();
  }
  for (int i = 0; i < 500 && AliveRunning(sleeper) < 2; ++i) std::this_thread::sleep_for(10ms);
  ASSERT_EQ(AliveRunning(sleeper), 2);
  ::kill(owner, SIGKILL);
  ::waitpid(owner, nullptr, 0);
  for (int i = 0; i < 1000 && AliveRunning(sleeper) > 0; ++i) std::this_thread::sleep_for(10ms);
  EXPECT_EQ(AliveRunning(sleeper), 0) << "the command outlived its owner by 10 s";
}

TEST(RunCommand, TheReaperHoldsNoDescriptorOfTheCaller) {
  // The reaper never execs, so close-on-exec does not close what the caller has open (another
  // command's pipes, when commands run from several threads): it closes everything itself. The
  // shell's parent is the reaper.
  const std::string dir = test::TempDir("reaper_fds");
  std::ofstream held(dir + "/held");
  const auto r = RunCommand("ls /proc/$PPID/fd | wc -l", "", {});
  EXPECT_EQ(r.out, "0\n") << r.err;
}

TEST(RunCommand, TheCommandsStatusComesThroughTheReaper) {
  EXPECT_EQ(RunCommand("exit 7", "", {}).exit_code, 7);
  EXPECT_EQ(RunCommand("kill -TERM $$", "", {}).signal, SIGTERM);
  EXPECT_EQ(RunCommand("kill -KILL $$", "", {}).signal, SIGKILL);
}

TEST(ShellQuote, AnyWordSurvivesTheShell) {
  for (const std::string word : {"plain", "it's", "a b", "'", "$HOME `x` \"q\" \\ ;|&", ""}) {
    const auto r = RunCommand("printf %s " + ShellQuote(word), "", {});
    EXPECT_EQ(r.out, word) << ShellQuote(word);
  }
}

}  // namespace
}  // namespace tcfuzz::suites
