// A plain main for every fuzz target: replays the files (or every file in the folders) given on
// the command line through LLVMFuzzerTestOneInput, without libFuzzer. The default build links
// it so ctest replays each corpus; a check failure inside the target aborts with its message.
// A target returning -1 (input rejected: a corpus file that does not parse) is a failure here.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

// Tells a target it is replaying a corpus (so recorded expectations are checked too).
extern "C" int TcfuzzReplayMode() { return 1; }

namespace {

int ReplayFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "replay: cannot read %s\n", path.c_str());
    return 1;
  }
  const std::vector<char> bytes((std::istreambuf_iterator<char>(in)),
                                std::istreambuf_iterator<char>());
  const int rc =
      LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  if (rc != 0) {
    std::fprintf(stderr, "replay: %s was rejected by the target (not a valid entry)\n",
                 path.c_str());
    return 1;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  int files = 0, failed = 0;
  for (int i = 1; i < argc; ++i) {
    const std::filesystem::path arg(argv[i]);
    std::error_code ec;
    if (std::filesystem::is_directory(arg, ec)) {
      std::vector<std::filesystem::path> entries;
      for (const auto& e : std::filesystem::directory_iterator(arg)) {
        if (e.is_regular_file() && e.path().filename().string()[0] != '.')
          entries.push_back(e.path());
      }
      std::sort(entries.begin(), entries.end());
      for (const auto& p : entries) {
        ++files;
        failed += ReplayFile(p);
      }
    } else if (std::filesystem::exists(arg, ec)) {
      ++files;
      failed += ReplayFile(arg);
    } else {
      std::fprintf(stderr, "replay: %s does not exist\n", argv[i]);
      return 2;
    }
  }
  std::printf("replay: %d files, %d passed, %d failed\n", files, files - failed, failed);
  return failed == 0 && files > 0 ? 0 : 1;
}
