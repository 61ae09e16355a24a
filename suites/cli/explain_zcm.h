// `tcfuzz explain zcm`: a readable decode of a zero-column mask, or the JSON object.
#pragma once

#include <string>

#include "oracle/tcgen05/zero_column_mask.h"

namespace tcfuzz::suites {

std::string ExplainZcmText(const oracle::tcgen05::ZcmCase& c);
std::string ExplainZcmJson(const oracle::tcgen05::ZcmCase& c);

}  // namespace tcfuzz::suites
