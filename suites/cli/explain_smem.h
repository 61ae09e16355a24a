// `tcfuzz explain smem` and `tcfuzz encode smem`: a descriptor's fields, verdict and address
// map as a table, JSON or an SVG picture of shared memory.
#pragma once

#include <string>

#include "oracle/smem/canonical_layout.h"
#include "oracle/smem/smem_case.h"

namespace tcfuzz::suites {

// Case `c` as its explanation `e` (oracle::smem::Explain(c): the descriptor decoded once for
// the table, the JSON and the picture).
std::string ExplainSmemText(const oracle::smem::SmemCase& c, const oracle::smem::Explanation& e);
std::string ExplainSmemJson(const oracle::smem::SmemCase& c, const oracle::smem::Explanation& e);

// Shared memory as a grid of 128-byte lines, one cell per element coloured by its row (hue) and
// its 16-byte K unit (shade), labelled with the row and K index: the PTX figures' picture.
// Lines without elements are skipped (a gap is marked). Error when the map cannot be made.
oracle::Result<std::string> SmemSvg(const oracle::smem::SmemCase& c,
                                    const oracle::smem::Explanation& e);

// The descriptor bits (and a description) for a CuTe layout placed at `start`.
// The same as one JSON line: desc ("0x..."), the byte values, rows and K bytes, violations.
std::string EncodeSmemJson(oracle::smem::Arch arch, const oracle::smem::CanonicalLayout& l,
                           uint64_t start);
std::string EncodeSmemText(oracle::smem::Arch arch, const oracle::smem::CanonicalLayout& l,
                           uint64_t start);

}  // namespace tcfuzz::suites
