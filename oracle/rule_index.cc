// The registry of every rule the oracle checks: each operand contributes its table here.
#include <vector>

#include "oracle/ascend/problem_contract.h"
#include "oracle/ascend/tiling_rules.h"
#include "oracle/core/rule.h"
#include "oracle/core/span.h"
#include "oracle/ptx/instruction_form.h"
#include "oracle/smem/smem_case.h"
#include "oracle/sparse/sparse_metadata.h"
#include "oracle/tcgen05/mma_ws_shape.h"
#include "oracle/tcgen05/zero_column_mask.h"

namespace tcfuzz::oracle {
namespace {

const std::vector<const Rule*>& Index() {
  static const std::vector<const Rule*> index = [] {
    std::vector<const Rule*> all;
    for (auto table : {tcgen05::ZeroColumnMaskRules(), tcgen05::MmaWsRules(), smem::SmemRules(),
                       sparse::SparseRules(), ascend::ProblemRules(), ascend::TilingRules(),
                       ascend::TilingWarnings(), ptx::FormRules()}) {
      all.insert(all.end(), table.begin(), table.end());
    }
    return all;
  }();
  return index;
}

}  // namespace

Span<const Rule* const> AllRules() { return Index(); }

const Rule* FindRule(std::string_view id) {
  for (const Rule* r : Index()) {
    if (r->id == id) return r;
  }
  return nullptr;
}

Result<std::vector<std::string>> ParseRuleIds(std::string_view text) {
  std::vector<std::string> ids;
  if (text == "none") return Result<std::vector<std::string>>::Ok(ids);
  while (!text.empty()) {
    const std::size_t comma = text.find(',');
    const std::string_view id = text.substr(0, comma);
    if (FindRule(id) == nullptr)
      return Result<std::vector<std::string>>::Fail("unknown rule id '" + std::string(id) + "'");
    ids.emplace_back(id);
    text = comma == std::string_view::npos ? std::string_view{} : text.substr(comma + 1);
  }
  return Result<std::vector<std::string>>::Ok(std::move(ids));
}

}  // namespace tcfuzz::oracle
