// The `tcfuzz` Python module: the oracle in process, for kernel authors' tests (pybind11).
// Bad arguments raise ValueError with the CLI's one-line message; the oracle itself never
// throws, and an illegal operand is an answer (legal = False, its rule ids), not an error.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <string>
#include <vector>

#include "oracle/core/backing.h"
#include "oracle/core/rule.h"
#include "oracle/core/text_format.h"
#include "oracle/numerics/dot_product.h"
#include "oracle/numerics/formats.h"
#include "oracle/numerics/targets.h"
#include "oracle/smem/canonical_layout.h"
#include "oracle/smem/smem_case.h"
#include "oracle/sparse/sparse_form.h"
#include "oracle/sparse/sparse_metadata.h"
#include "oracle/tcgen05/zero_column_mask.h"
#include "python/codec_module.h"
#include "python/emulate_module.h"
#include "python/mma_module.h"
#include "python/numerics_choice.h"

namespace py = pybind11;
namespace o = tcfuzz::oracle;

namespace {

template <class E>
E Enum(const char* what, const std::string& text, std::optional<E> (*parse)(std::string_view)) {
  const auto v = parse(text);
  if (!v) throw py::value_error(std::string(what) + ": unknown value '" + text + "'");
  return *v;
}

py::dict VerdictDict(const o::Verdict& v) {
  py::list ids, messages;
  for (const auto& x : v.violations()) {
    ids.append(std::string(x.rule->id));
    messages.append(x.message);
  }
  py::dict d;
  d["legal"] = v.legal();
  d["violations"] = ids;
  d["messages"] = messages;
  return d;
}

// How an answer is backed (oracle/core/backing.h): one dict per reading it rests on, as
// `explain ... --json` lists them (id, backing on `target`, seen_on, reading, basis).
py::list BackingList(const std::vector<std::string_view>& ids, std::string_view target) {
  py::list out;
  for (std::string_view id : ids) {
    const o::BackedReading* r = o::FindReading(id);
    if (r == nullptr) continue;
    py::dict d;
    d["id"] = std::string(r->id);
    d["backing"] = std::string(o::Name(o::BackingOf(r->id, target)));
    d["seen_on"] = std::string(r->seen_on);
    d["reading"] = std::string(r->reading);
    d["basis"] = std::string(r->basis);
    out.append(d);
  }
  return out;
}

o::smem::SmemCase SmemCaseOf(uint64_t desc, const std::string& arch, const std::string& operand,
                             const std::string& major, const std::string& dtype, int rows,
                             int kbytes) {
  namespace s = o::smem;
  s::SmemCase c;
  c.arch = Enum("arch", arch, s::ParseArch);
  c.operand = Enum("operand", operand, s::ParseOperand);
  c.view.major = Enum("major", major, s::ParseMajor);
  c.view.dtype = Enum("dtype", dtype, s::ParseDType);
  c.view.rows = rows;
  c.view.kbytes = kbytes;
  c.desc = desc;
  if (auto ok = s::CheckView(c.view); !ok.ok()) throw py::value_error(ok.error());
  return c;
}

py::dict SmemExplain(uint64_t desc, const std::string& arch, const std::string& operand,
                     const std::string& major, const std::string& dtype, int rows, int kbytes) {
  const auto c = SmemCaseOf(desc, arch, operand, major, dtype, rows, kbytes);
  const o::smem::Explanation e = o::smem::Explain(c);  // one decode
  py::dict d = VerdictDict(e.verdict);
  const auto& map = e.map;
  if (map.ok()) {
    const auto& a = map.value();
    py::list rows_out;
    for (int r = 0; r < a.rows; ++r) {
      py::list row;
      for (int k = 0; k < a.cols; ++k) row.append(a.Byte(r, k));
      rows_out.append(row);
    }
    d["addresses"] = rows_out;
    d["backing"] = BackingList(e.readings, o::smem::BackingTarget(c.arch));
  } else {
    d["addresses"] = py::none();
    d["map_error"] = map.error();
    d["backing"] = py::none();
  }
  return d;
}

py::dict SmemEncode(const std::string& arch, const std::string& dtype, const std::string& layout,
                    uint64_t start) {
  namespace s = o::smem;
  const auto a = Enum("arch", arch, s::ParseArch);
  const auto t = Enum("dtype", dtype, s::ParseDType);
  const auto l = s::ParseCanonical(layout, t);
  if (!l.ok()) throw py::value_error("layout: " + l.error());
  const s::SmemMatrix m = s::MatrixFor(l.value(), start);
  const s::Encoded e = s::EncodeMatrix(a, m);
  py::dict d = VerdictDict(e.verdict);
  d["desc"] = e.desc;
  d["lbo"] = m.lbo;
  d["sbo"] = m.sbo;
  d["base_offset"] = m.base_offset;
  d["swizzle"] = std::string(s::Name(m.swizzle));
  d["rows"] = s::LayoutRows(l.value());
  d["kbytes"] = s::LayoutKBytes(l.value());
  return d;
}

o::tcgen05::ZcmCase ZcmCaseOf(uint64_t desc, int m, int n, bool sparse,
                              std::optional<uint32_t> idesc) {
  o::tcgen05::ZcmCase c;
  c.desc = desc;
  c.shape.m = m;
  c.shape.n = n;
  c.shape.sparse = sparse;
  if (idesc) c.shape.idesc = *idesc;
  return c;
}

const o::sparse::SparseForm& FormOf(const std::string& shape, const std::string& type) {
  const auto* f = o::sparse::FindForm(shape, Enum("type", type, o::num::ParseFormat));
  if (f == nullptr) throw py::value_error("no sparse form " + shape + "." + type);
  return *f;
}

// The maps are defined on a form's own ranges only: anything else is a ValueError.
void InRange(const char* what, int value, int end) {
  if (value < 0 || value >= end)
    throw py::value_error(std::string(what) + " " + std::to_string(value) + " outside 0.." +
                          std::to_string(end - 1));
}

}  // namespace

PYBIND11_MODULE(_tcfuzz, m) {
  m.doc() = "tcfuzz's oracle: tensor-core operands decoded, validated and computed";
  // "tcfuzz 0.2.0" -> "0.2.0": the version `tcfuzz --version` and every report print.
  m.attr("__version__") = std::string(o::ToolVersion().substr(o::ToolVersion().find(' ') + 1));
  m.def(
      "rules",
      [] {
        std::vector<py::dict> out;
        for (const o::Rule* r : o::AllRules()) {
          py::dict d;
          d["rule"] = std::string(r->id);
          d["section"] = std::string(r->section);
          d["meaning"] = std::string(r->meaning);
          out.push_back(d);
        }
        return out;
      },
      "every rule the oracle checks: rule (id), section, meaning (as `tcfuzz rules --json`)");

  py::module_ smem = m.def_submodule("smem", "wgmma / tcgen05 shared-memory matrix descriptors");
  smem.def("explain", &SmemExplain, py::arg("desc"), py::arg("arch"), py::arg("operand"),
           py::arg("major"), py::arg("dtype"), py::arg("rows"), py::arg("kbytes"),
           "legal, violations (rule ids), messages, addresses (rows x K byte addresses) and "
           "backing (the readings the map rests on, each hardware, spec or hypothesis)");
  smem.def("encode", &SmemEncode, py::arg("arch"), py::arg("dtype"), py::arg("layout"),
           py::arg("start") = 0, "the descriptor of a CuTe canonical layout, and its byte values");

  py::module_ zcm = m.def_submodule("zcm", "the tcgen05 zero-column mask descriptor");
  zcm.def(
      "expand",
      [](uint64_t desc, int mm, int n) {
        const auto e = o::tcgen05::Expand(desc, mm, n);
        if (!e) throw py::value_error("M must be 32, 64 or 128 and N 1..256");
        // Bit j = column j, as many bits as N: Python's int holds all 256.
        return py::module_::import("builtins").attr("int")(e->MaskHex(), 16);
      },
      py::arg("desc"), py::arg("m"), py::arg("n"), "the mask as an int: bit j = D column j zeroed");
  zcm.def(
      "validate",
      [](uint64_t desc, int mm, int n, bool sparse, std::optional<uint32_t> idesc) {
        const auto c = ZcmCaseOf(desc, mm, n, sparse, idesc);
        py::dict d = VerdictDict(o::tcgen05::Validate(c));
        // The expansion's readings, on the target that runs tcgen05.mma.ws (sm_100a).
        d["backing"] = o::tcgen05::Expand(desc, mm, n)
                           ? py::object(BackingList(o::tcgen05::ReadingsOf(c), "sm_100"))
                           : py::object(py::none());
        return d;
      },
      py::arg("desc"), py::arg("m"), py::arg("n"), py::arg("sparse") = false,
      py::arg("idesc") = py::none());
  zcm.def(
      "backing",
      [](uint64_t desc, int mm, int n) {
        if (!o::tcgen05::Expand(desc, mm, n))
          throw py::value_error("M must be 32, 64 or 128 and N 1..256");
        return BackingList(o::tcgen05::ReadingsOf(ZcmCaseOf(desc, mm, n, false, std::nullopt)),
                           "sm_100");
      },
      py::arg("desc"), py::arg("m"), py::arg("n"),
      "what expand(desc, m, n) rests on, on sm_100a: one dict per reading");

  py::module_ sparse = m.def_submodule("sparse", "mma.sp metadata and fragment maps");
  sparse.def(
      "map_a",
      [](const std::string& shape, const std::string& type, int lane, int reg, int pos) {
        const auto& f = FormOf(shape, type);
        InRange("lane", lane, 32), InRange("reg", reg, f.a_regs), InRange("pos", pos, f.per_reg());
        const auto e = o::sparse::MapA(f, lane, reg, pos);
        return py::make_tuple(e.row, e.chunk, e.slot);
      },
      py::arg("shape"), py::arg("type"), py::arg("lane"), py::arg("reg"), py::arg("pos"),
      "compressed A: (row, chunk, slot) of a lane's register element");
  sparse.def(
      "map_b",
      [](const std::string& shape, const std::string& type, int lane, int reg, int pos) {
        const auto& f = FormOf(shape, type);
        InRange("lane", lane, 32), InRange("reg", reg, f.b_regs), InRange("pos", pos, f.per_reg());
        const auto c = o::sparse::MapB(f, lane, reg, pos);
        return py::make_tuple(c.row, c.col);
      },
      py::arg("shape"), py::arg("type"), py::arg("lane"), py::arg("reg"), py::arg("pos"));
  sparse.def(
      "map_meta",
      [](const std::string& shape, const std::string& type, int selector, int row, int chunk) {
        const auto& f = FormOf(shape, type);
        InRange("selector", selector, f.max_selector() + 1), InRange("row", row, 16);
        InRange("chunk", chunk, f.chunks_per_row());
        const auto l = o::sparse::MapMeta(f, selector, row, chunk);
        return py::make_tuple(l.lane, l.bit);
      },
      py::arg("shape"), py::arg("type"), py::arg("selector"), py::arg("row"), py::arg("chunk"),
      "the (lane, lowest bit) holding a row's chunk nibble");
  sparse.def(
      "validate",
      [](const std::string& shape, const std::string& type, const std::vector<uint32_t>& meta,
         int selector, bool ordered) {
        if (meta.size() != 32) throw py::value_error("meta: 32 registers, one per lane");
        o::sparse::SparseOp op;
        op.form = &FormOf(shape, type);
        op.variant = ordered ? o::sparse::Variant::kOrdered : o::sparse::Variant::kSp;
        op.selector = selector;
        std::copy(meta.begin(), meta.end(), op.meta.begin());
        py::dict d = VerdictDict(o::sparse::Validate(op));
        d["backing"] = BackingList(o::sparse::ReadingsOf(*op.form, op.variant), "");
        return d;
      },
      py::arg("shape"), py::arg("type"), py::arg("meta"), py::arg("selector") = 0,
      py::arg("ordered") = true);
  sparse.def(
      "backing",
      [](const std::string& shape, const std::string& type, bool ordered, const std::string& gpu) {
        const auto& f = FormOf(shape, type);
        return BackingList(o::sparse::ReadingsOf(
                               f, ordered ? o::sparse::Variant::kOrdered : o::sparse::Variant::kSp),
                           gpu);
      },
      py::arg("shape"), py::arg("type"), py::arg("ordered") = true, py::arg("gpu") = "",
      "what the form's maps (map_a, map_b, map_meta) rest on, on `gpu` (\"sm_90\"; \"\": any)");

  py::module_ numerics = m.def_submodule("numerics", "tensor-core arithmetic, bit for bit");
  numerics.def(
      "backing",
      [](const std::string& arch, const std::string& instr, const std::string& ab,
         const std::string& cd) {
        const NumericsChoice k = ChooseNumerics(arch, instr, ab, cd, /*allow_unconfirmed=*/true);
        py::dict d;
        d["row"] = std::string(k.params.row);
        d["backing"] = std::string(o::Name(k.backing));
        return d;
      },
      py::arg("arch"), py::arg("instr"), py::arg("ab"), py::arg("cd"),
      "the numerics row dot() answers with, and how it is backed on that target");
  numerics.def(
      "dot",
      [](const std::string& arch, const std::string& instr, const std::string& ab,
         const std::string& cd, const std::vector<uint64_t>& a, const std::vector<uint64_t>& b,
         uint32_t c, bool allow_unconfirmed) {
        namespace n = o::num;
        const NumericsChoice k = ChooseNumerics(arch, instr, ab, cd, allow_unconfirmed);
        if (a.size() != b.size()) throw py::value_error("a and b differ in length");
        // What `oracle dot` refuses, refused here: bits above the format's width.
        if (const auto wide = n::BitsAboveStorage(a, b, c, k.ab, k.cd))
          throw py::value_error(*wide);
        return n::DotProduct(a, b, c, k.ab, k.ab, k.cd, k.params);
      },
      py::arg("arch"), py::arg("instr"), py::arg("ab"), py::arg("cd"), py::arg("a"), py::arg("b"),
      py::arg("c"), py::arg("allow_unconfirmed") = false,
      "D = C + sum A[k]*B[k] on bit patterns, as the instruction computes it");
  DefineCodecs(numerics);
  DefineMma(m);

  DefineEmulate(m);
}
