// Defects planted in the emulator, as data: a mutant is a list of point=value pairs
// ("metadata.nibble_order=1,numerics.alignment_bits=-1"), each point one named step of the
// emulator changed the way a real implementation has got it wrong (docs/backends.md lists them;
// corpus/mutants/catalogue.txt holds the catalogue with each one's precedent). `tcfuzz mutants`
// runs them to measure what the suites catch; `--mutant` runs one.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "oracle/core/result.h"
#include "oracle/core/span.h"

namespace tcfuzz::harness::emulator {

struct MutationPoint {
  std::string_view name;  // "metadata.nibble_order"
  std::string_view step;  // the emulator step it changes
  std::string_view what;  // what a value does
  int64_t min, max;       // the values it takes
};

// Every point, in step order.
oracle::Span<const MutationPoint> MutationPoints();

struct Mutant {
  struct Change {
    std::string point;
    int64_t value = 0;
  };
  std::vector<Change> changes;
  // The value at `point`, or `absent` when the mutant does not change it.
  int64_t At(std::string_view point, int64_t absent = 0) const;
  bool empty() const { return changes.empty(); }
  std::string Text() const;  // "a=1,b=-2"
};

// "point=value[,point=value...]": every point known, every value in its range, none twice. The
// error is one line naming the pair at fault.
oracle::Result<Mutant> ParseMutant(std::string_view text);

// The mutant this process's emulator runs (TCFUZZ_MUTANT, set by --mutant and inherited by the
// workers), or an error naming what is wrong with it; empty when unset.
const oracle::Result<Mutant>& ProcessMutant();

}  // namespace tcfuzz::harness::emulator
