// The scan's two outputs: a table for people, a JSON array for tools.
#include <iomanip>
#include <map>
#include <nlohmann/json.hpp>
#include <ostream>

#include "suites/toolchain/toolchain_scan.h"

namespace tcfuzz::suites {

void PrintScanTable(const ScanReport& r, std::ostream& out) {
  std::vector<std::string> targets;
  std::map<std::string, std::map<std::string, std::pair<int, int>>>
      cells;  // family -> target -> accepted/total
  std::vector<std::string> families;
  int known = 0;
  for (const ScanRow& row : r.rows) {
    if (std::find(targets.begin(), targets.end(), row.target) == targets.end())
      targets.push_back(row.target);
    if (std::find(families.begin(), families.end(), row.family) == families.end())
      families.push_back(row.family);
    auto& c = cells[row.family][row.target];
    c.first += row.observed == Observed::kAccept;
    ++c.second;
    known += row.known_deviation();
  }
  out << "toolchain scan: " << r.assembler << ", " << r.rows.size()
      << " modules (forms x targets)\n";
  out << "accepted/assembled per family and target:\n" << std::left << std::setw(28) << "family";
  for (const auto& t : targets) out << std::setw(12) << t;
  out << "\n";
  for (const auto& f : families) {
    out << std::setw(28) << f;
    for (const auto& t : targets) {
      const auto c = cells[f][t];
      out << std::setw(12) << (std::to_string(c.first) + "/" + std::to_string(c.second));
    }
    out << "\n";
  }
  out << std::right;
  for (const ScanRow& row : r.rows) {
    if (!row.unexpected()) continue;
    out << "UNEXPECTED " << row.target << " " << row.form << ": model "
        << (row.expected_accept ? "accept" : "reject") << " (" << row.rules << "), observed "
        << Name(row.observed) << (row.diagnostic.empty() ? "" : ": ")
        << row.diagnostic.substr(0, 300) << "\n";
  }
  for (const Expectation& e : r.stale) {
    out << "STALE expectation line " << e.line << " (toolkit=" << e.toolkit
        << " verdict=" << (e.accept ? "accept" : "reject") << " target=" << e.target_glob
        << " form=\"" << e.key_glob << "\"): this toolkit no longer deviates there\n";
  }
  out << known << " known deviations, " << r.unexpected << " unexpected verdicts, "
      << r.stale.size() << " stale expectations\n";
}

void PrintScanJson(const ScanReport& r, std::ostream& out) {
  auto all = nlohmann::json::array();
  for (const ScanRow& row : r.rows) {
    all.push_back({{"form", row.form},
                   {"ptx", row.ptx},
                   {"target", row.target},
                   {"expected", row.expected_accept ? "accept" : "reject"},
                   {"observed", Name(row.observed)},
                   {"diagnostic", row.diagnostic},
                   {"known_deviation", row.known_deviation()},
                   {"rules", row.rules},
                   {"mutation", row.mutation}});
  }
  out << all.dump(1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
}

}  // namespace tcfuzz::suites
