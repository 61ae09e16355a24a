// numerics.encode and numerics.decode of the Python module (python/codec_module.cc).
#pragma once

#include <pybind11/pybind11.h>

void DefineCodecs(pybind11::module_& numerics);
