// Every invariant a shared-memory descriptor case must satisfy, shared by the host campaign,
// the fuzz target and corpus replay.
#pragma once

#include "generators/smem/smem_descriptor_gen.h"
#include "oracle/smem/smem_case_text.h"
#include "suites/checks/check_failure.h"

namespace tcfuzz::suites {

CheckFailures CheckSmem(const gen::GeneratedSmem& g);
CheckFailures CheckSmemFile(const oracle::smem::SmemCaseFile& f);

}  // namespace tcfuzz::suites
