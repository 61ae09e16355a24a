// Where tcfuzz finds the data files it reads (toolchain/expectations.txt, ...), so a copied or
// installed binary finds them as the build tree's does: $TCFUZZ_DATA_DIR, else share/tcfuzz of
// the prefix the binary is installed in (bin/../share/tcfuzz), else, for the binary in its own
// build tree, the corpus/ folder of the source tree it was built from. A file in none of them is an
// error naming every place looked in, never silently skipped.
#pragma once

#include <string>
#include <string_view>

#include "oracle/core/result.h"

namespace tcfuzz::suites {

// `relative` ending in '/' names a folder (the discovery kit's deciding tiles).
oracle::Result<std::string> FindDataFile(std::string_view relative);

}  // namespace tcfuzz::suites
