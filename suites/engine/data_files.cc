#include "suites/engine/data_files.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <vector>

namespace tcfuzz::suites {

oracle::Result<std::string> FindDataFile(std::string_view relative) {
  namespace fs = std::filesystem;
  std::vector<fs::path> roots;
  if (const char* env = std::getenv("TCFUZZ_DATA_DIR"); env != nullptr && *env != '\0')
    roots.emplace_back(env);
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) roots.push_back(exe.parent_path().parent_path() / "share" / "tcfuzz");
#if defined(TCFUZZ_SOURCE_DATA_DIR) && defined(TCFUZZ_BUILD_DIR)
  // The source tree only for the binary in the build tree it was built in: a copy elsewhere
  // must carry its data (or be told where it is), not lean on a checkout that may change.
  if (!ec && fs::equivalent(exe.parent_path(), TCFUZZ_BUILD_DIR, ec))
    roots.emplace_back(TCFUZZ_SOURCE_DATA_DIR);
#endif
  std::string looked;
  for (const fs::path& root : roots) {
    const fs::path p = root / relative;
    const bool kind_ok =
        relative.ends_with('/') ? fs::is_directory(p, ec) : fs::is_regular_file(p, ec);
    if (kind_ok && ::access(p.c_str(), R_OK) == 0)
      return oracle::Result<std::string>::Ok(p.string());
    looked += (looked.empty() ? "" : ", ") + p.string();
  }
  return oracle::Error(std::string(relative) + ": not found (looked in " + looked +
                       "); set TCFUZZ_DATA_DIR to a folder that holds it");
}

}  // namespace tcfuzz::suites
