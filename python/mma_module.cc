// The tile is a chain of instructions along K, each `k_step` deep: D's element (i, j) is the
// oracle's dot product (oracle/numerics/dot_product.h) of row i of A and column j of B over the
// first step from C, the next step from that result, and so on, as chained MMAs accumulate.
#include "python/mma_module.h"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <span>
#include <string>
#include <vector>

#include "oracle/core/backing.h"
#include "python/numerics_choice.h"

namespace py = pybind11;
namespace n = tcfuzz::oracle::num;

namespace {

struct MmaAnswer {
  py::array_t<uint32_t> d;
  std::string backing;  // "hardware", "spec" or "hypothesis": how the row of readings is backed
  std::string row;      // that row's id (tcfuzz.rules() and docs/doc-vs-hardware.md)
};

using Bits = py::array_t<uint64_t, py::array::c_style | py::array::forcecast>;

// The instruction's K: 256 bits of A's row (mma, wgmma and tcgen05 alike: k32 for 8-bit and
// narrower types in their byte containers, k16 for 16-bit ones, k8 for tf32).
py::ssize_t InstructionK(n::Format ab) {
  const int bits = n::StorageBits(ab);
  return bits <= 8 ? 32 : bits <= 16 ? 16 : 8;
}

MmaAnswer Mma(const Bits& a, const Bits& b, const std::optional<Bits>& c, const std::string& arch,
              const std::string& instr, const std::vector<std::string>& types,
              std::optional<py::ssize_t> k_step, bool allow_unconfirmed) {
  if (types.size() != 2) throw py::value_error("types: (A/B type, C/D type), e.g. ('e4m3', 'f32')");
  const NumericsChoice k = ChooseNumerics(arch, instr, types[0], types[1], allow_unconfirmed);
  if (a.ndim() != 2 || b.ndim() != 2) throw py::value_error("a and b: two-dimensional arrays");
  const py::ssize_t m = a.shape(0), depth = a.shape(1), cols = b.shape(1);
  if (b.shape(0) != depth)
    throw py::value_error("a is " + std::to_string(m) + " x " + std::to_string(depth) + ", b " +
                          std::to_string(b.shape(0)) + " x " + std::to_string(cols) +
                          ": their K differ");
  if (c && (c->ndim() != 2 || c->shape(0) != m || c->shape(1) != cols))
    throw py::value_error("c: " + std::to_string(m) + " x " + std::to_string(cols) +
                          " like D, or None for zeros");
  const py::ssize_t step = k_step.value_or(InstructionK(k.ab));
  if (step <= 0 || depth % step != 0)
    throw py::value_error("k_step: " + std::to_string(step) +
                          " does not divide K = " + std::to_string(depth));
  const auto av = a.unchecked<2>();
  const auto bv = b.unchecked<2>();
  // Each operand once, checked as `oracle dot` checks it: no bits above its format's width.
  std::vector<uint64_t> rows(static_cast<std::size_t>(m * depth)),
      columns(static_cast<std::size_t>(cols * depth));
  for (py::ssize_t i = 0; i < m; ++i)
    for (py::ssize_t x = 0; x < depth; ++x) rows[i * depth + x] = av(i, x);
  for (py::ssize_t j = 0; j < cols; ++j)
    for (py::ssize_t x = 0; x < depth; ++x) columns[j * depth + x] = bv(x, j);
  std::vector<uint64_t> accumulators(static_cast<std::size_t>(m * cols), 0);
  if (c) {
    const auto cv = c->unchecked<2>();
    for (py::ssize_t i = 0; i < m; ++i)
      for (py::ssize_t j = 0; j < cols; ++j) accumulators[i * cols + j] = cv(i, j);
  }
  const std::vector<uint64_t> none;
  if (const auto wide = n::BitsAboveStorage(rows, none, 0, k.ab, k.cd))
    throw py::value_error("a: " + wide->substr(wide->find(' ') + 1));
  if (const auto wide = n::BitsAboveStorage(columns, none, 0, k.ab, k.cd))
    throw py::value_error("b: " + wide->substr(wide->find(' ') + 1));
  for (const uint64_t acc : accumulators) {
    if (const auto wide = n::BitsAboveStorage(none, none, acc, k.ab, k.cd))
      throw py::value_error(*wide);
  }
  MmaAnswer out{py::array_t<uint32_t>({m, cols}), std::string(tcfuzz::oracle::Name(k.backing)),
                std::string(k.params.row)};
  auto dv = out.d.mutable_unchecked<2>();
  for (py::ssize_t i = 0; i < m; ++i) {
    for (py::ssize_t j = 0; j < cols; ++j) {
      auto acc = static_cast<uint32_t>(accumulators[i * cols + j]);
      for (py::ssize_t s = 0; s < depth; s += step) {
        const std::span<const uint64_t> ra(&rows[i * depth + s], static_cast<std::size_t>(step));
        const std::span<const uint64_t> cb(&columns[j * depth + s], static_cast<std::size_t>(step));
        acc = n::DotProduct(ra, cb, acc, k.ab, k.ab, k.cd, k.params);
      }
      dv(i, j) = acc;
    }
  }
  return out;
}

}  // namespace

void DefineMma(py::module_& m) {
  py::class_<MmaAnswer>(m, "MmaAnswer", "D's bit patterns and how the answer is backed")
      .def_readonly("d", &MmaAnswer::d, "D's bit patterns in the C/D type, M x N (uint32)")
      .def_readonly("backing", &MmaAnswer::backing,
                    "hardware, spec or hypothesis: what the numerics row rests on")
      .def_readonly("row", &MmaAnswer::row, "the numerics row's id in tcfuzz.rules()")
      .def("__repr__", [](const MmaAnswer& a) {
        return "MmaAnswer(d=<" + std::to_string(a.d.shape(0)) + "x" + std::to_string(a.d.shape(1)) +
               " uint32>, backing='" + a.backing + "', row='" + a.row + "')";
      });
  m.def("mma", &Mma, py::arg("a"), py::arg("b"), py::arg("c") = py::none(), py::kw_only(),
        py::arg("arch"), py::arg("instr"), py::arg("types"), py::arg("k_step") = py::none(),
        py::arg("allow_unconfirmed") = false,
        "D = A x B + C for a tile of bit patterns (A: M x K in types[0], B: K x N, C: M x N in "
        "types[1] or None), as chained instructions of k_step (default: 256 bits of A's row) "
        "compute it on `arch`; an answer the hardware has not confirmed only with "
        "allow_unconfirmed=True, and .backing says which");
}
