// `merge` and `run --resume` on shard folders from runners nobody vouches for (issue 33: both
// crashed on a deep array). The input is one or two summary.json texts, split at the first line
// "--shard--"; each becomes a shard folder. Whatever the bytes: an exit code of 0, 1 or 2, a
// refusal is one line naming what is wrong, a merge that succeeds writes a report that reads
// back, and nothing crashes or hangs.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "suites/engine/atomic_file.h"
#include "suites/engine/campaign.h"
#include "suites/engine/host_suite.h"
#include "suites/engine/merge.h"
#include "suites/engine/report.h"

namespace {

[[noreturn]] void Die(const char* what, const std::string& detail) {
  std::fprintf(stderr, "merge_resume_fuzzer: %s: %s\n", what, detail.c_str());
  std::abort();
}

// Exit 2 must come with its reason as the last line, one "tcfuzz: error: " line.
void CheckOutcome(const char* what, int rc, const std::string& log) {
  if (rc < 0 || rc > 2) Die(what, "exit code " + std::to_string(rc));
  if (rc != 2) return;
  const std::size_t at = log.rfind("tcfuzz: error: ");
  if (at == std::string::npos) Die(what, "exit 2 without an error line: " + log);
  if (log.find('\n', at) != log.size() - 1) Die(what, "an error of more than one line: " + log);
}

const std::string& Root() {
  static const std::string root = [] {
    std::string t = (std::filesystem::temp_directory_path() / "tcfuzz-merge-fuzz-XXXXXX").string();
    if (::mkdtemp(t.data()) == nullptr) Die("mkdtemp", t);
    return t;
  }();
  return root;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  namespace fs = std::filesystem;
  namespace s = tcfuzz::suites;
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  std::vector<std::string_view> parts;
  const std::size_t cut = input.find("\n--shard--\n");
  parts.push_back(input.substr(0, cut));
  if (cut != std::string_view::npos) parts.push_back(input.substr(cut + 11));

  const std::string root = Root();
  fs::remove_all(root + "/out");
  std::vector<std::string> dirs;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const std::string dir = root + "/shard" + std::to_string(i);
    fs::remove_all(dir);
    if (!s::WriteFileAtomic(dir + "/summary.json", parts[i]).ok()) Die("write", dir);
    dirs.push_back(dir);
  }

  std::ostringstream merge_log;
  const int merged = s::MergeReports(dirs, root + "/out", merge_log);
  CheckOutcome("merge", merged, merge_log.str());
  if (merged != 2) {
    const auto back = s::ReadSummary(root + "/out/summary.json");
    if (!back.ok()) Die("merged report does not read back", back.error());
  }

  // Resume with no suites to run: the reading, the checks and the refusals, never a campaign.
  s::CampaignOptions base;
  std::ostringstream resume_log;
  const int resumed = s::ResumeCampaign(dirs[0], base, {}, resume_log);
  CheckOutcome("resume", resumed, resume_log.str());
  return 0;
}
