// The `emulate` submodule of the Python module (python/emulate_module.cc).
#pragma once

#include <pybind11/pybind11.h>

void DefineEmulate(pybind11::module_& m);
