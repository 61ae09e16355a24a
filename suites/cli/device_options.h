// `--device cuda|emulated|plugin:PATH` and `--as TARGET`: the backend that executes the GPU
// suites' instructions (harness/backend.h), shared by run, worker, replay and minimize. Given, they
// set the process's choice, which the workers it starts inherit; absent, the inherited choice
// stands (a worker started by `run --device emulated`).
#pragma once

#include <CLI/CLI.hpp>
#include <cstdlib>
#include <string>

#include "harness/backend.h"
#include "harness/emulator/mutant.h"
#include "suites/cli/cli_common.h"

namespace tcfuzz::cli {

struct DeviceOptions {
  std::string device, as, mutant;
  CLI::Option* device_option = nullptr;
  CLI::Option* as_option = nullptr;
  CLI::Option* mutant_option = nullptr;

  void Add(CLI::App* app) {
    device_option = app->add_option(
        "--device", device,
        "what executes the GPU suites: cuda (default), emulated (the built-in emulator) or "
        "plugin:PATH (a shared library of the ABI in tcfuzz/backend.h)");
    as_option = app->add_option("--as", as,
                                "the targets a host backend executes as, comma-separated: each "
                                "instruction family runs as the first that executes it (default "
                                "sm_90a,sm_100a)");
    mutant_option = app->add_option(
        "--mutant", mutant,
        "with --device emulated: defects planted in the emulator, point=value[,...] "
        "(docs/backends.md; tcfuzz mutants runs the catalogue)");
  }

  // Parses and selects (a plug-in is loaded and checked here, before any case runs); a bad
  // value is a one-line error and exit 2. parse_only: the check without the effect.
  void Select(bool parse_only) const {
    if (*as_option && !*device_option) Die("--as needs --device emulated or --device plugin:PATH");
    if (*mutant_option && !*device_option) Die("--mutant needs --device emulated");
    if (!*device_option) {
      if (const auto inherited = harness::ProcessBackend(); !inherited.ok()) Die(inherited.error());
      return;
    }
    const auto c = harness::ParseBackendChoice(device, as);
    if (!c.ok()) Die(c.error());
    if (*mutant_option) {
      if (c.value().kind != harness::BackendKind::kEmulated)
        Die("--mutant plants defects in the built-in emulator: it needs --device emulated");
      if (const auto m = harness::emulator::ParseMutant(mutant); !m.ok()) Die(m.error());
    }
    if (parse_only) return;
    if (const auto s = harness::SelectBackend(c.value()); !s.ok()) Die(s.error());
    // The workers inherit the mutant with the backend; a command without one plants none.
    if (*mutant_option) {
      setenv("TCFUZZ_MUTANT", mutant.c_str(), 1);
    } else {
      unsetenv("TCFUZZ_MUTANT");
    }
  }
};

}  // namespace tcfuzz::cli
