// The registry of every rule the oracle checks: each operand contributes its table here.
#include <vector>

#include "oracle/core/rule.h"
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
                       sparse::SparseRules()}) {
      all.insert(all.end(), table.begin(), table.end());
    }
    return all;
  }();
  return index;
}

}  // namespace

std::span<const Rule* const> AllRules() { return Index(); }

const Rule* FindRule(std::string_view id) {
  for (const Rule* r : Index()) {
    if (r->id == id) return r;
  }
  return nullptr;
}

}  // namespace tcfuzz::oracle
