// A fresh, empty scratch folder per test process and tag (removed and recreated on each call).
#pragma once

#include <unistd.h>

#include <filesystem>
#include <string>

namespace tcfuzz::test {

inline std::string TempDir(const std::string& tag) {
  const auto dir =
      std::filesystem::temp_directory_path() / ("tcfuzz_" + std::to_string(::getpid()) + "_" + tag);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir.string();
}

}  // namespace tcfuzz::test
