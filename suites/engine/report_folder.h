// A run's report folder, made one consistent set: checked before the first case, written in a
// fresh sibling folder while the run goes, and switched in with one atomic exchange at the end
// (or at an interruption), so a reader sees the previous report or the new one, never
// summary.json of one run beside junit.xml or reproducers of another. A folder that holds files
// no tcfuzz report has is refused rather than replaced. One writer at a time: a lock file beside
// the folder (.NAME.tcfuzz-lock, held with flock, gone with its holder) makes a second run into
// the same folder an error rather than a silent loss; the holder removes the staging folders of
// dead runs into that folder (those holding no finished summary.json).
#pragma once

#include <string>

#include "oracle/core/result.h"

namespace tcfuzz::suites {

class ReportFolder {
 public:
  // `dir` is where the report goes (a symbolic link is followed). With `keep_contents` (resume,
  // merge into a folder of its own) the work folder starts as a copy of the existing report.
  static oracle::Result<ReportFolder> Open(const std::string& dir, bool keep_contents);

  ReportFolder(ReportFolder&& other) noexcept;
  ReportFolder& operator=(ReportFolder&&) = delete;
  ~ReportFolder();  // a folder never committed is removed

  const std::string& work() const { return work_; }      // where the run writes now
  const std::string& target() const { return target_; }  // where the report will be
  // Switches the work folder in; the previous report (if any) is removed.
  oracle::Result<bool> Commit();

 private:
  ReportFolder() = default;
  std::string target_, work_;
  bool committed_ = false;
  std::string lock_path_;
  int lock_fd_ = -1;
};

// Whether a folder entry is one tcfuzz writes into a report (summary.json, reproducers/, ...).
bool IsReportEntry(const std::string& name);

}  // namespace tcfuzz::suites
