// `tcfuzz rules`: every legality rule the oracle checks, with its PTX ISA section and anchor.
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>

#include "oracle/core/rule.h"
#include "oracle/core/spec_anchors.h"
#include "suites/cli/command_group.h"

namespace tcfuzz::cli {
namespace {

int Rules(bool json) {
  if (json) {
    nlohmann::ordered_json j = nlohmann::ordered_json::array();
    for (const auto* r : oracle::AllRules()) {
      const std::string_view anchor = oracle::AnchorOf(r->section);
      j.push_back({{"rule", r->id},
                   {"section", r->section},
                   {"anchor", anchor},
                   {"url", anchor.empty() ? std::string() : oracle::SpecUrl(anchor)},
                   {"meaning", r->meaning}});
    }
    std::cout << j.dump(2) << "\n";
    return 0;
  }
  for (const auto* r : oracle::AllRules()) {
    const std::string_view anchor = oracle::AnchorOf(r->section);
    std::cout << r->id << "  [" << r->section << (anchor.empty() ? "" : "; #") << anchor << "]  "
              << r->meaning << "\n";
  }
  return 0;
}

class RulesGroup final : public CommandGroup {
 public:
  void Add(CLI::App& app) override {
    rules_ = app.add_subcommand("rules", "List every legality rule the oracle checks");
    rules_->add_flag("--json", json_, "as a JSON array");
  }
  int Run(const Call&) override { return *rules_ ? Rules(json_) : -1; }

 private:
  CLI::App* rules_ = nullptr;
  bool json_ = false;
};

}  // namespace

std::unique_ptr<CommandGroup> RulesCommands() { return std::make_unique<RulesGroup>(); }

}  // namespace tcfuzz::cli
