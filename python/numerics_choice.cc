#include "python/numerics_choice.h"

#include <pybind11/pybind11.h>

#include "oracle/numerics/targets.h"

namespace py = pybind11;
namespace o = tcfuzz::oracle;
namespace n = tcfuzz::oracle::num;

namespace {

n::Format FormatArg(const char* what, const std::string& text) {
  const auto f = n::ParseFormat(text);
  if (!f) throw py::value_error(std::string(what) + ": unknown value '" + text + "'");
  return *f;
}

}  // namespace

NumericsChoice ChooseNumerics(const std::string& arch, const std::string& instr,
                              const std::string& ab, const std::string& cd,
                              bool allow_unconfirmed) {
  const auto target = n::FindTarget(arch);  // sm_86, "H100", "RTX 4090" ...
  if (!target.ok()) throw py::value_error("arch: " + target.error());
  if (!target.value().row) throw py::value_error("arch: " + n::Describe(target.value()));
  const auto in = n::ParseInstr(instr);
  if (!in) throw py::value_error("instr: unknown value '" + instr + "'");
  NumericsChoice c{std::string(target.value().target),
                   FormatArg("ab", ab),
                   FormatArg("cd", cd),
                   {},
                   o::Backing::kHypothesis};
  if (!n::IsFloat(c.ab) || c.ab == n::Format::kF32)
    throw py::value_error("ab: '" + ab + "' is not an A/B float type");
  const auto params = n::ParamsFor(*target.value().row, *in, c.ab, c.cd);
  if (!params) throw py::value_error("no model for " + arch + " " + instr + " " + ab + " -> " + cd);
  c.params = *params;
  c.backing = o::BackingOf(params->row, c.target);
  if (c.backing != o::Backing::kHardware && !allow_unconfirmed)
    throw py::value_error(c.target + " " + instr + " " + ab + " -> " + cd + " (row " +
                          std::string(params->row) + ") is not confirmed on hardware (" +
                          n::Describe(target.value()) + "); allow_unconfirmed=True answers");
  return c;
}
