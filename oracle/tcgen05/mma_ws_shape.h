// The shape of a tcgen05.mma.ws / .ws.sp instruction: the context a zero-column mask is read in.
// PTX 9.1 §9.7.16.2.1 Table 39 (legal M/N) and §9.7.16.4.2 Table 42 (the idesc that carries them).
#pragma once

#include <cstdint>
#include <optional>

#include "oracle/core/rule.h"
#include "oracle/core/span.h"
#include "oracle/core/verdict.h"

namespace tcfuzz::oracle::tcgen05 {

struct MmaWsShape {
  int m = 128;
  int n = 128;
  bool sparse = false;            // tcgen05.mma.ws.sp
  std::optional<uint32_t> idesc;  // the instruction descriptor, when the user gives one
  // Defaulted in the .cc: a C++17 includer cannot default it (issue 35).
  friend bool operator==(const MmaWsShape&, const MmaWsShape&);
};

namespace ws_rule {
inline constexpr std::string_view kTable39 = "PTX 9.1 §9.7.16.2.1 Table 39";
inline constexpr Rule kM{"mma_ws.m", kTable39, "tcgen05.mma.ws takes M = 32, 64 or 128"};
inline constexpr Rule kNDense{"mma_ws.n_dense", kTable39,
                              "dense tcgen05.mma.ws takes N = 64, 128 or 256"};
inline constexpr Rule kNSparse{"mma_ws.n_sparse", kTable39,
                               "tcgen05.mma.ws.sp takes N = 64 or 128"};
inline constexpr Rule kIdescM{"mma_ws.idesc_m", "PTX 9.1 §9.7.16.4.2 Table 42 bits 24-28",
                              "the instruction descriptor's M field (M >> 4) equals the M used"};
inline constexpr Rule kIdescN{"mma_ws.idesc_n", "PTX 9.1 §9.7.16.4.2 Table 42 bits 17-22",
                              "the instruction descriptor's N field (N >> 3) equals the N used"};
inline constexpr Rule kIdescSparsity{
    "mma_ws.idesc_sparsity", "PTX 9.1 §9.7.16.4.2 Table 42 bit 2",
    "the instruction descriptor's sparsity bit matches .ws vs .ws.sp"};
}  // namespace ws_rule

Span<const Rule* const> MmaWsRules();
Span<const int> LegalWsN(bool sparse);

// Adds every violated shape rule to `verdict`.
void ValidateMmaWsShape(const MmaWsShape& shape, Verdict& verdict);

// An instruction descriptor consistent with `shape` (M, N, sparsity) whose max-shift field
// allows `max_shift_columns` (0, 8, 16 or 32); other fields are left 0 (kind::f16, f16 D).
uint32_t MakeWsIdesc(const MmaWsShape& shape, int max_shift_columns);

}  // namespace tcfuzz::oracle::tcgen05
