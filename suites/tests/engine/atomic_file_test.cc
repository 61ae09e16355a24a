#include "suites/engine/atomic_file.h"

#include <gtest/gtest.h>

#include <filesystem>

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

}  // namespace
}  // namespace tcfuzz::suites
