// tcfuzz.mma: a tile's D = A x B + C as the tensor core computes it, bit for bit (issue 35: the
// tile-level call a kernel author's test makes), with the backing of its answer.
#pragma once

#include <pybind11/pybind11.h>

void DefineMma(pybind11::module_& m);
