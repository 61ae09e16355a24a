// `tcfuzz explain sparse`, `tcfuzz oracle dot` and `tcfuzz oracle captures`.
#pragma once

#include <istream>
#include <ostream>
#include <string>

#include "oracle/numerics/dot_product.h"
#include "oracle/sparse/sparse_form.h"

namespace tcfuzz::suites {

std::string ExplainSparseText(const oracle::sparse::SparseForm& f, int selector);
std::string ExplainSparseJson(const oracle::sparse::SparseForm& f, int selector);

// Reads JSON lines {"a":["hex",...],"b":["hex",...],"c":"hex"} and writes {"d":"hex"} per line;
// with `hex`, lines of 2K + 1 hex words (A's K, B's K, then C) separated by spaces or tabs, and
// D's hex word per line: the batch form no JSON parser bounds. Returns 0, or 2 after printing
// "tcfuzz: error: line N: ..." for the first malformed line.
int OracleDotStream(std::istream& in, std::ostream& out, std::ostream& err, oracle::num::Format ab,
                    oracle::num::Format cd, const oracle::num::DotParams& params, bool hex = false);

// The agreement of the oracle with every hardware capture set under `dir`; 1 when a covered set
// disagrees, 0 otherwise (also when there are none: the table says so).
int OracleCaptures(const std::string& dir, std::ostream& out);

}  // namespace tcfuzz::suites
