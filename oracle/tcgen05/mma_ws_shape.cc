#include "oracle/tcgen05/mma_ws_shape.h"

#include <algorithm>
#include <array>
#include <string>

#include "oracle/core/span.h"
#include "oracle/tcgen05/instr_descriptor.h"

namespace tcfuzz::oracle::tcgen05 {
namespace {

constexpr std::array<int, 3> kWsM = {32, 64, 128};
constexpr std::array<int, 3> kWsNDense = {64, 128, 256};
constexpr std::array<int, 2> kWsNSparse = {64, 128};
constexpr std::array<const Rule*, 6> kWsRules = {&ws_rule::kM,       &ws_rule::kNDense,
                                                 &ws_rule::kNSparse, &ws_rule::kIdescM,
                                                 &ws_rule::kIdescN,  &ws_rule::kIdescSparsity};

bool Contains(Span<const int> set, int v) {
  return std::find(set.begin(), set.end(), v) != set.end();
}

}  // namespace

Span<const Rule* const> MmaWsRules() { return kWsRules; }
Span<const int> LegalWsN(bool sparse) {
  return sparse ? Span<const int>(kWsNSparse) : Span<const int>(kWsNDense);
}

void ValidateMmaWsShape(const MmaWsShape& shape, Verdict& verdict) {
  if (!Contains(kWsM, shape.m)) {
    verdict.Add(ws_rule::kM, "m", static_cast<uint64_t>(shape.m),
                "M = " + std::to_string(shape.m) + " is not one of 32, 64, 128");
  }
  if (!Contains(LegalWsN(shape.sparse), shape.n)) {
    verdict.Add(
        shape.sparse ? ws_rule::kNSparse : ws_rule::kNDense, "n", static_cast<uint64_t>(shape.n),
        "N = " + std::to_string(shape.n) +
            (shape.sparse ? " is not one of 64, 128 (.ws.sp)" : " is not one of 64, 128, 256"));
  }
  if (!shape.idesc) return;
  const InstrDescriptor idesc{*shape.idesc};
  if (idesc.m() != shape.m) {
    verdict.Add(
        ws_rule::kIdescM, "idesc.m_dim", idesc_field::kMDim.Get(idesc.bits),
        "idesc encodes M = " + std::to_string(idesc.m()) + " but M = " + std::to_string(shape.m));
  }
  if (idesc.n() != shape.n) {
    verdict.Add(
        ws_rule::kIdescN, "idesc.n_dim", idesc_field::kNDim.Get(idesc.bits),
        "idesc encodes N = " + std::to_string(idesc.n()) + " but N = " + std::to_string(shape.n));
  }
  if (idesc.sparse() != shape.sparse) {
    verdict.Add(ws_rule::kIdescSparsity, "idesc.sparsity", idesc.sparse() ? 1 : 0,
                std::string("idesc says ") + (idesc.sparse() ? "sparse" : "dense") +
                    " but the instruction is " + (shape.sparse ? ".ws.sp" : "dense .ws"));
  }
}

uint32_t MakeWsIdesc(const MmaWsShape& shape, int max_shift_columns) {
  using namespace idesc_field;
  uint64_t bits = 0;
  bits = kSparsity.Put(bits, shape.sparse ? 1 : 0);
  bits = kDType.Put(bits, 1);  // F32 accumulator: legal for kind::f16
  bits = kNDim.Put(bits, static_cast<uint64_t>(shape.n) >> 3);
  bits = kMDim.Put(bits, static_cast<uint64_t>(shape.m) >> 4);
  const int code = MaxShiftCode(max_shift_columns);
  bits = kMaxShift.Put(bits, code < 0 ? 0 : static_cast<uint64_t>(code));
  return static_cast<uint32_t>(bits);
}

bool operator==(const MmaWsShape&, const MmaWsShape&) = default;

}  // namespace tcfuzz::oracle::tcgen05
