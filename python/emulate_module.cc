// tcfuzz.emulate: one tensor-core instruction from its raw operands on the built-in emulator
// (harness/emulator), the same call of the backend ABI (include/tcfuzz/backend.h) an emulated
// worker makes. Arguments are named as the ABI's fields; arrays are anything NumPy converts
// (arrays, lists), the shared-memory image any bytes-like object. Bad arguments raise ValueError,
// an instruction the emulator does not execute ValueError, an execution fault emulate.Fault.
#include "python/emulate_module.h"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <optional>
#include <string>

#include "harness/emulator/mutant.h"
#include "harness/emulator/smem_mma_emulator.h"
#include "harness/emulator/warp_mma_emulator.h"

namespace py = pybind11;
namespace emu = tcfuzz::harness::emulator;

namespace {

struct Fault : std::runtime_error {
  using std::runtime_error::runtime_error;
};

template <class T>
using Array = py::array_t<T, py::array::c_style | py::array::forcecast>;

// An optional array of exactly `n` elements (None: absent, a null pointer in the call).
template <class T>
const T* Words(const std::optional<Array<T>>& a, std::size_t n, const char* what, bool required) {
  if (!a) {
    if (required) throw py::value_error(std::string(what) + ": required");
    return nullptr;
  }
  if (static_cast<std::size_t>(a->size()) != n) {
    throw py::value_error(std::string(what) + ": " + std::to_string(n) + " elements expected, " +
                          std::to_string(a->size()) + " given");
  }
  return a->data();
}

emu::Mutant MutantOf(const std::string& text) {
  if (text.empty()) return {};
  auto m = emu::ParseMutant(text);
  if (!m.ok()) throw py::value_error(m.error());
  return std::move(m).value();
}

void Check(int rc, const std::string& error) {
  if (rc == TCFUZZ_FAULT) throw Fault("device fault: " + error);
  if (rc != TCFUZZ_OK) throw py::value_error(error);
}

Array<uint32_t> WarpMma(const std::string& instruction, const std::string& shape,
                        const std::string& a_type, const std::string& b_type,
                        const std::string& cd_type, bool sparse, bool ordered_metadata,
                        int selector, bool satfinite, uint32_t warps,
                        const std::optional<Array<uint32_t>>& a, uint32_t a_regs,
                        const std::optional<Array<uint32_t>>& b, uint32_t b_regs,
                        const std::optional<Array<uint32_t>>& c, uint32_t cd_regs,
                        const std::optional<Array<uint32_t>>& e, const std::string& target,
                        const std::string& mutant) {
  const std::size_t lanes = std::size_t{warps} * 32;
  tcfuzz_warp_mma call{};
  call.instruction = instruction.c_str();
  call.shape = shape.c_str();
  call.a_type = a_type.c_str();
  call.b_type = b_type.c_str();
  call.cd_type = cd_type.c_str();
  call.sparse = sparse;
  call.ordered_metadata = ordered_metadata;
  call.selector = selector;
  call.satfinite = satfinite;
  call.warps = warps;
  call.a = Words(a, lanes * a_regs, "a", true), call.a_regs = a_regs;
  call.b = Words(b, lanes * b_regs, "b", true), call.b_regs = b_regs;
  call.c = Words(c, lanes * cd_regs, "c", true), call.cd_regs = cd_regs;
  call.e = Words(e, lanes, "e", sparse);
  Array<uint32_t> d({lanes, std::size_t{cd_regs}});
  call.d = d.mutable_data();
  std::string error;
  Check(emu::ExecuteWarpMma(call, target, &error, MutantOf(mutant)), error);
  return d;
}

Array<uint32_t> SmemMma(
    const std::string& instruction, const std::string& family, const std::string& shape,
    const std::string& a_type, const std::string& b_type, const std::string& d_type, bool trans_a,
    bool trans_b, bool sparse, int selector, bool scale_d, uint32_t tiles, uint32_t image_bytes,
    const py::buffer& image, const std::optional<Array<uint64_t>>& a_desc,
    const std::optional<Array<uint64_t>>& b_desc, const std::optional<Array<uint32_t>>& idesc,
    const std::optional<Array<uint64_t>>& zero_column_mask, const std::optional<Array<uint32_t>>& e,
    uint32_t d_words, const std::optional<Array<uint32_t>>& c, std::optional<std::string> target,
    const std::string& mutant) {
  if (family != "wgmma" && family != "tcgen05")
    throw py::value_error("family: 'wgmma' or 'tcgen05', not '" + family + "'");
  const bool tcgen05 = family == "tcgen05";
  if (d_words == 0 || d_words > 256)  // at most N = 256 columns of D, allocated before the check
    throw py::value_error("d_words: 1..256, not " + std::to_string(d_words));
  const py::buffer_info bytes = image.request();
  if (bytes.itemsize != 1 || PyBuffer_IsContiguous(bytes.view(), 'C') == 0)
    throw py::value_error("image: a contiguous buffer of bytes");
  const std::size_t lanes = std::size_t{tiles} * 128;
  if (static_cast<std::size_t>(bytes.size) != std::size_t{tiles} * image_bytes) {
    throw py::value_error("image: " + std::to_string(std::size_t{tiles} * image_bytes) +
                          " bytes expected (tiles x image_bytes), " + std::to_string(bytes.size) +
                          " given");
  }
  tcfuzz_smem_mma call{};
  call.instruction = instruction.c_str();
  call.family = family.c_str();
  call.shape = shape.c_str();
  call.a_type = a_type.c_str();
  call.b_type = b_type.c_str();
  call.d_type = d_type.c_str();
  call.trans_a = trans_a, call.trans_b = trans_b;
  call.sparse = sparse;
  call.selector = selector;
  call.scale_d = scale_d;
  call.tiles = tiles;
  call.image_bytes = image_bytes;
  call.image = static_cast<const uint8_t*>(bytes.ptr);
  call.a_desc = Words(a_desc, tiles, "a_desc", true);
  call.b_desc = Words(b_desc, tiles, "b_desc", true);
  call.idesc = Words(idesc, tiles, "idesc", false);
  call.zero_column_mask = Words(zero_column_mask, tiles, "zero_column_mask", false);
  call.e = Words(e, lanes * (tcgen05 ? 2 : 1), "e", sparse);
  call.d_words = d_words;
  call.c = Words(c, lanes * d_words, "c", scale_d);
  Array<uint32_t> d({lanes, std::size_t{d_words}});
  call.d = d.mutable_data();
  std::string error;
  const std::string as = target.value_or(tcgen05 ? "sm_100a" : "sm_90a");
  Check(emu::ExecuteSmemMma(call, as, &error, MutantOf(mutant)), error);
  return d;
}

}  // namespace

void DefineEmulate(py::module_& m) {
  py::module_ em = m.def_submodule(
      "emulate",
      "one tensor-core instruction from raw operands on tcfuzz's built-in emulator (the "
      "backend ABI's call, include/tcfuzz/backend.h; docs/backends.md)");
  py::register_exception<Fault>(em, "Fault", PyExc_RuntimeError);
  em.def("warp_mma", &WarpMma, py::kw_only(), py::arg("instruction") = "", py::arg("shape"),
         py::arg("a_type"), py::arg("b_type"), py::arg("cd_type"), py::arg("sparse") = false,
         py::arg("ordered_metadata") = true, py::arg("selector") = 0, py::arg("satfinite") = false,
         py::arg("warps") = 1, py::arg("a"), py::arg("a_regs"), py::arg("b"), py::arg("b_regs"),
         py::arg("c"), py::arg("cd_regs"), py::arg("e") = py::none(), py::arg("target") = "sm_90a",
         py::arg("mutant") = "",
         R"(mma / mma.sp: a, b, c (and e) as each warp's lanes' registers, warp-major, then lane,
then register; returns D as a uint32 array of (warps * 32, cd_regs) registers. mutant: planted
defects as "point=value,..." (tcfuzz mutants --help). Raises ValueError for bad arguments or an
instruction the emulator does not execute, emulate.Fault where the device would trap.)");
  em.def("smem_mma", &SmemMma, py::kw_only(), py::arg("instruction") = "", py::arg("family"),
         py::arg("shape") = "", py::arg("a_type") = "", py::arg("b_type") = "",
         py::arg("d_type") = "", py::arg("trans_a") = false, py::arg("trans_b") = false,
         py::arg("sparse") = false, py::arg("selector") = 0, py::arg("scale_d") = false,
         py::arg("tiles") = 1, py::arg("image_bytes"), py::arg("image"), py::arg("a_desc"),
         py::arg("b_desc"), py::arg("idesc") = py::none(), py::arg("zero_column_mask") = py::none(),
         py::arg("e") = py::none(), py::arg("d_words"), py::arg("c") = py::none(),
         py::arg("target") = py::none(), py::arg("mutant") = "",
         R"(wgmma.mma_async{.sp} (family "wgmma") or tcgen05.mma{.sp,.ws} (family "tcgen05") from
each tile's shared-memory image (bytes, tiles * image_bytes, from address 0) and its 64-bit
matrix descriptors (tcgen05: the instruction descriptor idesc, .ws the zero-column mask);
returns D as a uint32 array of (tiles * 128, d_words): wgmma's accumulator registers per thread,
tcgen05's tensor-memory lanes (one per row, N columns). target: sm_90a for wgmma, sm_100a for
tcgen05 unless given. Errors as warp_mma.)");
}
