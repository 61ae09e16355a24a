// How gtest prints tcfuzz values in test names and failure messages.
#pragma once

#include <ostream>

#include "oracle/sparse/sparse_form.h"

namespace tcfuzz::oracle::sparse {
inline void PrintTo(const SparseForm& f, std::ostream* os) { *os << f.Name(); }
}  // namespace tcfuzz::oracle::sparse
