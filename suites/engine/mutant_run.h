// `tcfuzz mutants`: the mutation score. Each mutant of a catalogue (corpus/mutants/catalogue.txt:
// defects planted in the emulator, harness/emulator/mutant.h) runs against the suites that
// exercise its points, each as its own `tcfuzz run --device emulated --mutant ...` campaign; a
// campaign that fails kills the mutant, one that passes lets it survive. The kill matrix (mutant
// x suite: killed, cases to the first kill, its reproducer and whether it replays alone, seconds)
// is printed and written in the report folder's shape (summary.json, index.html, junit.xml).
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "oracle/core/result.h"

namespace tcfuzz::suites {

struct CatalogueMutant {
  std::string name;                 // "sparse.nibble_order"
  std::vector<std::string> suites;  // the GPU suites whose cases exercise its points
  std::string points;     // "metadata.nibble_order=1", or "plugin:PATH": a backend plug-in mutant
  std::string precedent;  // why it is a defect worth catching
  int line = 0;
};

// Lines "name | suite[,suite] | point=value[,...] | precedent" (or plugin:PATH instead of the
// points: a mutant built as a backend plug-in); '#' comments. Every name once,
// every point known and in range (harness/emulator/mutant.h); an error names the line.
oracle::Result<std::vector<CatalogueMutant>> ParseCatalogue(const std::string& text);

struct MutantRunOptions {
  std::string catalogue_path;
  std::vector<std::string> worker;  // argv prefix of tcfuzz itself
  uint64_t seed = 1;
  uint64_t cases = 2000;  // per suite and mutant: the catalogue's kills come by case ~200
  // A first campaign this long; only a mutant it neither killed nor flagged runs all `cases`.
  uint64_t first_cases = 200;
  std::string report_dir = "mutants";
  std::string only;  // mutants' names, comma-separated; empty: all
};

// Exit: 0 every mutant killed or flagged with a first detection whose reproducer replays alone
// (FAIL with its mutant, PASS on the plain emulator), 1 one survived or one did not replay, 2 bad
// input or a campaign that could not run.
int RunMutants(const MutantRunOptions& o, std::ostream& out, std::ostream& log);

}  // namespace tcfuzz::suites
