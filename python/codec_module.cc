// tcfuzz.numerics.encode / decode: values to the bit patterns of a tensor-core operand format and
// back, through the oracle's own codec (oracle/numerics/formats.h), so a kernel author's test
// builds fp8/fp6/fp4/bf16/tf32 operands without writing an encoder. NumPy in and out: any array
// or scalar goes in, an array of the same shape comes out.
#include "python/codec_module.h"

#include <pybind11/numpy.h>

#include <cmath>
#include <string>

#include "oracle/numerics/formats.h"

namespace py = pybind11;
namespace n = tcfuzz::oracle::num;

namespace {

n::Format FloatFormat(const std::string& name) {
  const auto f = n::ParseFormat(name);
  if (!f || !n::IsFloat(*f))
    throw py::value_error("fmt: '" + name +
                          "' is not a float format (f16 bf16 tf32 f32 e4m3 e5m2 e3m2 e2m3 e2m1)");
  return *f;
}

// The bit patterns in the narrowest unsigned type that holds the format's storage.
template <class T>
py::array_t<T> Encoded(const py::array_t<double, py::array::c_style | py::array::forcecast>& x,
                       n::Format f, n::Round r) {
  py::array_t<T> out(std::vector<py::ssize_t>(x.shape(), x.shape() + x.ndim()));
  const double* in = x.data();
  T* bits = out.mutable_data();
  for (py::ssize_t i = 0; i < x.size(); ++i) bits[i] = static_cast<T>(n::FromDouble(f, in[i], r));
  return out;
}

}  // namespace

void DefineCodecs(py::module_& numerics) {
  numerics.def(
      "encode",
      [](const py::array_t<double, py::array::c_style | py::array::forcecast>& values,
         const std::string& fmt, const std::string& round) -> py::array {
        const n::Format f = FloatFormat(fmt);
        if (round != "nearest" && round != "zero")
          throw py::value_error("round: '" + round + "' is not nearest or zero");
        const n::Round r = round == "zero" ? n::Round::kTowardZero : n::Round::kNearestEven;
        const int bits = n::StorageBits(f);
        if (bits <= 8) return Encoded<uint8_t>(values, f, r);
        if (bits <= 16) return Encoded<uint16_t>(values, f, r);
        return Encoded<uint32_t>(values, f, r);
      },
      py::arg("values"), py::arg("fmt"), py::arg("round") = "nearest",
      "values (floats, any shape) as `fmt` bit patterns: correctly rounded (to nearest even, or "
      "toward zero); past the largest finite value Inf where the format has it, else the largest "
      "finite value (satfinite); NaN the format's NaN, or 0 where it has none. tf32: its fp32 "
      "container, the low 13 bits zero");
  numerics.def(
      "decode",
      [](const py::array_t<uint64_t, py::array::c_style | py::array::forcecast>& patterns,
         const std::string& fmt) {
        const n::Format f = FloatFormat(fmt);
        const int bits = n::StorageBits(f);
        py::array_t<double> out(
            std::vector<py::ssize_t>(patterns.shape(), patterns.shape() + patterns.ndim()));
        const uint64_t* in = patterns.data();
        double* values = out.mutable_data();
        for (py::ssize_t i = 0; i < patterns.size(); ++i) {
          // What `oracle dot` refuses, refused here: bits above the format's width.
          if (bits < 64 && (in[i] >> bits) != 0)
            throw py::value_error("patterns[" + std::to_string(i) + "]: bits above the " +
                                  std::to_string(bits) + " of " + fmt);
          values[i] = n::ToDouble(f, in[i]);
        }
        return out;
      },
      py::arg("patterns"), py::arg("fmt"),
      "`fmt` bit patterns (any shape) as their exact values (float64 holds each exactly); NaN and "
      "Inf as such. tf32 ignores the low 13 bits of its fp32 container, as the hardware does");
}
