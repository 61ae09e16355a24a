#include "suites/engine/atomic_file.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>

#include "suites/tests/support/temp_dir.h"

namespace tcfuzz::suites {
namespace {

std::string TempDir() {
  return test::TempDir(::testing::UnitTest::GetInstance()->current_test_info()->name());
}

TEST(AtomicFile, WritesCreatesFoldersAndReplaces) {
  const std::string dir = TempDir();
  const std::string path = dir + "/a/b/file.txt";
  ASSERT_TRUE(WriteFileAtomic(path, "one").ok());
  ASSERT_TRUE(WriteFileAtomic(path, "two").ok());
  EXPECT_EQ(ReadFile(path).value(), "two");
  // No temporary file is left behind.
  int files = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir + "/a/b"))
    files += e.is_regular_file();
  EXPECT_EQ(files, 1);
  std::filesystem::remove_all(dir);
}

TEST(AtomicFile, ErrorsAreOneLineAndNameThePath) {
  const std::string dir = TempDir();
  auto missing = ReadFile(dir + "/nope");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().find(dir + "/nope"), std::string::npos);
  EXPECT_EQ(missing.error().find('\n'), std::string::npos);
  auto folder = ReadFile(dir);
  ASSERT_FALSE(folder.ok());
  EXPECT_EQ(folder.error(), dir + ": is a folder, not a file");
  ASSERT_TRUE(WriteFileAtomic(dir + "/big", std::string(100, 'x')).ok());
  EXPECT_EQ(ReadFile(dir + "/big", 10).error(), dir + "/big: larger than 10 bytes");
  // Writing where a folder is in the way fails cleanly.
  auto blocked = WriteFileAtomic(dir, "x");
  EXPECT_FALSE(blocked.ok());
  std::filesystem::remove_all(dir);
}

// Issue 18: output paths are never replaced by something else than what they were. Everything
// here lives in a private folder (a FIFO, symbolic links, hard links; /dev/null is the system's
// but is only written to, as a user's `--emit-cu /dev/null` would).
TEST(AtomicFile, ASymbolicLinkIsFollowedNotReplaced) {
  const std::string dir = TempDir();
  ASSERT_TRUE(WriteFileAtomic(dir + "/real.txt", "old").ok());
  ASSERT_EQ(::symlink("real.txt", (dir + "/link.txt").c_str()), 0);
  ASSERT_TRUE(WriteFileAtomic(dir + "/link.txt", "new").ok());
  EXPECT_TRUE(std::filesystem::is_symlink(dir + "/link.txt"));
  EXPECT_EQ(ReadFile(dir + "/real.txt").value(), "new");
  // A dangling link: the file it names is created, the link stays a link.
  ASSERT_EQ(::symlink("made.txt", (dir + "/dangling.txt").c_str()), 0);
  ASSERT_TRUE(WriteFileAtomic(dir + "/dangling.txt", "made").ok());
  EXPECT_TRUE(std::filesystem::is_symlink(dir + "/dangling.txt"));
  EXPECT_EQ(ReadFile(dir + "/made.txt").value(), "made");
  // A loop is a one-line error.
  ASSERT_EQ(::symlink("loop_b", (dir + "/loop_a").c_str()), 0);
  ASSERT_EQ(::symlink("loop_a", (dir + "/loop_b").c_str()), 0);
  const auto loop = WriteFileAtomic(dir + "/loop_a", "x");
  ASSERT_FALSE(loop.ok());
  EXPECT_EQ(loop.error(), dir + "/loop_a: too many levels of symbolic links");
  // A link to "-" names the file "-" beside it, not standard output (only the name given is).
  const auto cwd = std::filesystem::current_path();
  std::filesystem::current_path(dir);
  ASSERT_EQ(::symlink("-", "dash_link"), 0);
  const auto dash = WriteFileAtomic("dash_link", "dash");
  std::filesystem::current_path(cwd);
  ASSERT_TRUE(dash.ok()) << dash.error();
  const auto dashed = ReadFile(dir + "/-");
  ASSERT_TRUE(dashed.ok()) << dashed.error();
  EXPECT_EQ(dashed.value(), "dash");
  std::filesystem::remove_all(dir);
}

TEST(AtomicFile, AHardLinkKeepsEveryName) {
  const std::string dir = TempDir();
  ASSERT_TRUE(WriteFileAtomic(dir + "/one", "old").ok());
  ASSERT_EQ(::link((dir + "/one").c_str(), (dir + "/two").c_str()), 0);
  ASSERT_TRUE(WriteFileAtomic(dir + "/two", "new").ok());
  EXPECT_EQ(ReadFile(dir + "/one").value(), "new");
  EXPECT_EQ(std::filesystem::hard_link_count(dir + "/one"), 2u);
  std::filesystem::remove_all(dir);
}

TEST(AtomicFile, DevicesAndFifosAreWrittenNeverReplaced) {
  const std::string dir = TempDir();
  ASSERT_TRUE(WriteFileAtomic("/dev/null", "discarded").ok());
  struct stat st;
  ASSERT_EQ(::stat("/dev/null", &st), 0);
  EXPECT_TRUE(S_ISCHR(st.st_mode));
  // A FIFO without a reader: an error at once, not a hang; the FIFO stays a FIFO.
  const std::string fifo = dir + "/fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const auto t0 = std::chrono::steady_clock::now();
  const auto no_reader = WriteFileAtomic(fifo, "x");
  ASSERT_FALSE(no_reader.ok());
  EXPECT_EQ(no_reader.error(), fifo + ": a FIFO with no reader");
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(5));
  ASSERT_EQ(::stat(fifo.c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode));
  std::filesystem::remove_all(dir);
}

TEST(AtomicFile, OnlyRegularFilesAndStdinAreRead) {
  const std::string dir = TempDir();
  const std::string fifo = dir + "/fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const auto t0 = std::chrono::steady_clock::now();
  const auto from_fifo = ReadFile(fifo);  // no writer: it would hang if it were opened to read
  ASSERT_FALSE(from_fifo.ok());
  EXPECT_EQ(from_fifo.error(), fifo + ": not a regular file (a FIFO or a device)");
  const auto from_zero = ReadFile("/dev/zero");  // endless
  ASSERT_FALSE(from_zero.ok());
  EXPECT_EQ(from_zero.error(), "/dev/zero: not a regular file (a FIFO or a device)");
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(5));
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace tcfuzz::suites
