// `--device cuda|emulated|plugin:PATH` and `--as TARGET`: the backend that executes the GPU
// suites' instructions (harness/backend.h), shared by run, worker, replay and minimize. Given, they
// set the process's choice, which the workers it starts inherit; absent, the inherited choice
// stands (a worker started by `run --device emulated`).
#pragma once

#include <CLI/CLI.hpp>
#include <string>

#include "harness/backend.h"
#include "suites/cli/cli_common.h"

namespace tcfuzz::cli {

struct DeviceOptions {
  std::string device, as;
  CLI::Option* device_option = nullptr;
  CLI::Option* as_option = nullptr;

  void Add(CLI::App* app) {
    device_option = app->add_option(
        "--device", device,
        "what executes the GPU suites: cuda (default), emulated (the built-in emulator) or "
        "plugin:PATH (a shared library of the ABI in tcfuzz/backend.h)");
    as_option =
        app->add_option("--as", as, "the target a host backend executes as (default sm_90a)");
  }

  // Parses and selects (a plug-in is loaded and checked here, before any case runs); a bad
  // value is a one-line error and exit 2. parse_only: the check without the effect.
  void Select(bool parse_only) const {
    if (*as_option && !*device_option) Die("--as needs --device emulated or --device plugin:PATH");
    if (!*device_option) {
      if (const auto inherited = harness::ProcessBackend(); !inherited.ok()) Die(inherited.error());
      return;
    }
    const auto c = harness::ParseBackendChoice(device, as);
    if (!c.ok()) Die(c.error());
    if (parse_only) return;
    if (const auto s = harness::SelectBackend(c.value()); !s.ok()) Die(s.error());
  }
};

}  // namespace tcfuzz::cli
