// Every invariant a zero-column-mask case must satisfy, shared by the host campaign, the fuzz
// target and corpus replay, so all three hold the oracle to the same contract.
#pragma once

#include "generators/tcgen05/zero_column_mask_gen.h"
#include "oracle/tcgen05/zero_column_mask.h"
#include "oracle/tcgen05/zero_column_mask_text.h"
#include "suites/checks/check_failure.h"

namespace tcfuzz::suites {

// The case's sub-mask bits computed by walking the runs one column at a time: a second,
// deliberately naive derivation of the pattern that Expand() computes arithmetically.
std::vector<int> WalkSubMask(const oracle::tcgen05::ZeroColumnMask& z, int sub_mask, int width);

// Oracle self-consistency and intent checks for a generated case.
CheckFailures CheckZcm(const gen::GeneratedZcm& g);

// The same checks for a case read from a file, plus its recorded expectations.
CheckFailures CheckZcmFile(const oracle::tcgen05::ZcmCaseFile& f);

}  // namespace tcfuzz::suites
