// Every text file under corpus/ replays alone through `tcfuzz replay` and passes: seeds, regression
// entries, deciding tiles and our own GPU captures (whatever cannot be judged without a GPU is said
// after PASS, never an error).
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace {

TEST(CorpusReplay, EveryTextFileReplaysAndPasses) {
  std::vector<std::string> files;
  for (const auto& e :
       std::filesystem::recursive_directory_iterator(std::string(TCFUZZ_SOURCE_DIR) + "/corpus")) {
    if (!e.is_regular_file()) continue;
    std::ifstream in(e.path());
    std::string first;
    std::getline(in, first);
    if (first == "tcfuzz-text 1") files.push_back(e.path().string());
  }
  ASSERT_GT(files.size(), 600u);
  // Batches keep each command line short.
  std::size_t passed = 0;
  for (std::size_t at = 0; at < files.size(); at += 100) {
    std::string cmd = std::string(TCFUZZ_BIN) + " replay";
    for (std::size_t i = at; i < std::min(files.size(), at + 100); ++i)
      cmd += " '" + files[i] + "'";
    FILE* p = ::popen((cmd + " 2>&1").c_str(), "r");
    ASSERT_NE(p, nullptr);
    std::string out;
    char buf[4096];
    for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
    const int status = ::pclose(p);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << out;
    for (std::size_t pos = 0; (pos = out.find("PASS ", pos)) != std::string::npos; ++pos) ++passed;
  }
  EXPECT_EQ(passed, files.size());
}

}  // namespace
