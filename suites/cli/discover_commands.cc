#include "suites/cli/discover_commands.h"

#include <iostream>

#include "oracle/core/text_format.h"
#include "suites/cli/cli_common.h"
#include "suites/discover/discover_kit.h"
#include "suites/discover/ingest.h"
#include "suites/engine/atomic_file.h"
#include "suites/engine/data_files.h"

namespace tcfuzz::suites {

void AddDiscoverCommand(CLI::App& app, DiscoverCli& d) {
  d.discover = app.add_subcommand(
      "discover",
      "write standalone CUDA programs that decide tcfuzz's open readings and numerics rows on "
      "any GPU (run DIR/run.sh there, then `oracle readings --ingest DIR/results.txt`)");
  d.discover->add_option("--emit-cu", d.emit_dir, "folder to write the programs into")->required();
}

void AddIngestOption(CLI::App& readings, DiscoverCli& d) {
  readings.add_option("--ingest", d.ingest,
                      "a discovery result file: which rows and readings the device's results "
                      "confirm or contradict");
}

int RunDiscoverCommand(const DiscoverCli& d) {
  if (d.discover != nullptr && *d.discover) {
    if (d.emit_dir.empty()) cli::Die("discover: --emit-cu needs a folder");
    std::vector<std::string> folders;
    for (const char* f : discover::kDecidingFolders) {
      auto found = FindDataFile(f);
      if (!found.ok()) cli::Die("discover: " + found.error());
      folders.push_back(found.value());
    }
    auto n = discover::EmitKit(d.emit_dir, folders);
    if (!n.ok()) cli::Die("discover: " + n.error());
    std::cout << "wrote " << n.value() << " programs, run.sh and README.txt into "
              << oracle::OneLine(d.emit_dir) << "\n";
    return 0;
  }
  if (d.ingest.empty()) return -1;
  auto text = ReadFile(d.ingest, std::size_t{1} << 28);
  if (!text.ok()) cli::Die("oracle readings --ingest: " + text.error());
  auto rep = discover::Ingest(text.value(), d.ingest);
  if (!rep.ok()) cli::Die("oracle readings --ingest: " + rep.error());
  const discover::IngestReport& r = rep.value();
  std::cout << oracle::OneLine(r.device) << " (" << (r.target.empty() ? "?" : r.target) << "), "
            << r.cases << " cases:\n";
  for (const std::string& line : r.lines) std::cout << "  " << line << "\n";
  std::cout << (r.contradicted ? "CONTRADICTED: " + std::to_string(r.contradicted) +
                                     " of tcfuzz's rows or readings; report it with the file"
                               : "every row and reading tested fits")
            << "\nfor docs/doc-vs-hardware.md:\n"
            << r.doc_row << "\n";
  return r.contradicted ? 1 : 0;
}

}  // namespace tcfuzz::suites
