// What a host suite's legal case tells apart (suites/checks/discrimination.h): its expected
// result against the result each mutant of its operand gives, computed by the built-in emulator's
// own step with the mutant planted (harness/emulator/mutant.h), so a probe is exactly the defect
// `tcfuzz mutants` plants. Each probe is named by its mutant ("zcm.inverted=1").
#pragma once

#include <cstdint>
#include <vector>

#include "oracle/numerics/dot_product.h"
#include "oracle/smem/address_map.h"
#include "oracle/smem/smem_case.h"
#include "oracle/sparse/sparse_metadata.h"
#include "oracle/tcgen05/zero_column_mask.h"
#include "suites/checks/discrimination.h"

namespace tcfuzz::suites {

// A mask's column map (the expansion's B column per D column, -1 zeroed) against D = C (every
// column zeroed: B reads as zeros) and each zcm mutant. Nothing when the mask does not expand.
void ZcmProbes(const oracle::tcgen05::ZcmCase& c, std::vector<ProbeResult>& out);

// A descriptor's address map against the map under each descriptor, swizzle and layout mutant
// its architecture and major-ness have (the LBO mode and the 32-byte atom are tcgen05's, the
// atom MN-major only).
void SmemProbes(const oracle::smem::SmemCase& c, const oracle::smem::AddressMap& want,
                std::vector<ProbeResult>& out);

// An mma.sp tile's D (through `p`) against an all-zero D, D = C, and, with `mutants`, the D
// under each metadata, select, C and (floats) alignment mutant.
void SparseProbes(const oracle::sparse::SparseTile& t, const oracle::num::DotParams& p,
                  const std::vector<uint32_t>& want, bool mutants, std::vector<ProbeResult>& out);

// The same D through the emulator's steps with no mutant (the tests hold it to the oracle's).
std::vector<uint32_t> EmulatedSparseD(const oracle::sparse::SparseTile& t,
                                      const oracle::num::DotParams& p);
// The same address map through the emulator's steps with no mutant; nothing when the descriptor
// does not decode.
std::optional<std::vector<uint64_t>> EmulatedSmemMap(const oracle::smem::SmemCase& c);

}  // namespace tcfuzz::suites
