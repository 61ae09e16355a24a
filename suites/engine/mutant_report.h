// The kill matrix of `tcfuzz mutants` (suites/engine/mutant_run.h) in the report folder's other
// two shapes: junit.xml (one test case per mutant and suite; a survivor is a failure, a flagged
// mutant skipped with why) and index.html (the matrix as a coloured grid, one self-contained
// page). Both are made from summary.json's document, so they never disagree with it.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace tcfuzz::suites {

std::string MutantJUnitXml(const nlohmann::ordered_json& summary);
std::string MutantIndexHtml(const nlohmann::ordered_json& summary);

}  // namespace tcfuzz::suites
