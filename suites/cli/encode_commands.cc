// `tcfuzz encode smem | batch`: build a shared-memory descriptor from a CuTe canonical layout.
#include <iostream>
#include <string>

#include "suites/cli/cli_common.h"
#include "suites/cli/command_group.h"
#include "suites/cli/explain_batch.h"
#include "suites/cli/explain_smem.h"

namespace tcfuzz::cli {
namespace {

namespace smem = oracle::smem;

class Encode final : public CommandGroup {
 public:
  void Add(CLI::App& app) override {
    CLI::App* encode = app.add_subcommand("encode", "Build an operand from a description");
    encode->require_subcommand(1);
    smem_ = encode->add_subcommand("smem", "shared-memory descriptor from a CuTe canonical layout");
    batch_ = encode->add_subcommand(
        "batch",
        "one JSON object per stdin line ({\"kind\":\"smem\",\"arch\",\"dtype\",\"layout\"}), "
        "one JSON answer per line");
    smem_->add_option("--arch", arch_, "sm_90a, sm_100a or sm_103a")->required();
    smem_->add_option("--dtype", dtype_, "element type")->required();
    smem_
        ->add_option("--layout", layout_,
                     "e.g. \"Swizzle<1,4,3> o ((8,2,2),(8,2)):((1,8,128),(16,256))\" (strides in "
                     "elements)")
        ->required();
    smem_->add_option("--start", start_, "byte address of the pattern start (default 0)");
  }

  int Run(const Call& call) override {
    if (*smem_) return EncodeSmem();
    if (*batch_) return call.ParseOnly() ? 0 : suites::EncodeBatch(std::cin, std::cout, std::cerr);
    return -1;
  }

 private:
  int EncodeSmem() const {
    const auto arch = ParseEnumArg("--arch", arch_, smem::ParseArch, "sm_90a, sm_100a, sm_103a");
    const auto dtype = ParseEnumArg("--dtype", dtype_, smem::ParseDType,
                                    "f16 bf16 tf32 e4m3 e5m2 e3m2 e2m3 e2m1 s8 u8");
    auto layout = smem::ParseCanonical(layout_, dtype);
    if (!layout.ok()) Die("--layout: " + layout.error());
    const uint64_t start = ParseNumberArg("--start", start_, smem::kSmemWindowBytes - 1);
    std::cout << suites::EncodeSmemText(arch, layout.value(), start);
    return 0;
  }

  CLI::App *smem_ = nullptr, *batch_ = nullptr;
  std::string arch_, dtype_, layout_, start_ = "0";
};

}  // namespace

std::unique_ptr<CommandGroup> EncodeCommands() { return std::make_unique<Encode>(); }

}  // namespace tcfuzz::cli
