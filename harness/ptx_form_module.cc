#include "harness/ptx_form_module.h"

#include <algorithm>
#include <vector>

namespace tcfuzz::harness {
namespace {

using oracle::num::Format;
using oracle::ptx::Family;
using oracle::ptx::PtxForm;

// Registers a module declares (enough for wgmma's 128 accumulators plus its other operands).
constexpr int kRegs = 200;

// "{p0, p1, ...}" over `n` registers named prefix<first..>.
std::string List(const char* prefix, int first, int n) {
  std::string s = "{";
  for (int i = 0; i < n; ++i)
    s += (i ? ", " : "") + std::string(prefix) + std::to_string(first + i);
  return s + "}";
}

// Bits one element takes in a register: tf32 its 32-bit container, the f8f6f4 kinds a byte each.
int ElemBits(Format f) {
  const int bits = oracle::num::StorageBits(f);
  return oracle::num::IsFloat(f) && bits < 8 ? 8 : bits;
}

// Registers holding `elems` elements of `f` spread over `threads` threads (at least one).
int RegsFor(Format f, int elems, int threads) {
  return std::max(1, elems * ElemBits(f) / (32 * threads));
}

// D/C of a warp or warpgroup: f32 accumulators one per .f32 register, f16 two per .b32, s32 one.
std::string Accum(Format t, int elems_per_thread, int first) {
  if (t == Format::kF32) return List("f", first, elems_per_thread);
  return List("r", first, t == Format::kF16 ? std::max(1, elems_per_thread / 2) : elems_per_thread);
}

std::vector<std::string> WarpOperands(const PtxForm& f) {
  const auto s = oracle::ptx::ParseShape(f.shape).value_or(oracle::ptx::Mnk{16, 8, 16});
  const bool sp = f.family != Family::kMma;
  const int ka = sp ? s.k / 2 : s.k;
  // 16x8 D over 32 lanes: 4 elements a lane. C takes its own registers after D's.
  std::vector<std::string> ops{Accum(f.d, 4, 0), List("r", 100, RegsFor(f.a, s.m * ka, 32)),
                               List("r", 120, RegsFor(f.b, s.k * s.n, 32)), Accum(f.c, 4, 8)};
  if (sp) {
    ops.push_back("r140");
    ops.push_back("0x" + std::to_string(f.selector));
  }
  return ops;
}

std::vector<std::string> WgmmaOperands(const PtxForm& f) {
  const auto s = oracle::ptx::ParseShape(f.shape).value_or(oracle::ptx::Mnk{64, 8, 16});
  const bool sp = f.family == Family::kWgmmaSp;
  // 64xN D over 128 threads: N/2 elements a thread. A from registers: 64 x K (K/2 for .sp).
  std::vector<std::string> ops{Accum(f.d, std::max(1, s.n / 2), 0)};
  ops.push_back(f.a_in_regs ? List("r", 150, RegsFor(f.a, 64 * (sp ? s.k / 2 : s.k), 128)) : "rd0");
  ops.push_back("rd1");
  if (sp) {
    ops.push_back("r160");
    ops.push_back(std::to_string(f.selector));
  }
  ops.push_back("p0");
  const bool is_int = f.a == Format::kS8 || f.a == Format::kU8;
  if (!is_int) {
    ops.push_back("1");
    ops.push_back("1");
  }
  if (f.trans_a >= 0) ops.push_back(std::to_string(f.trans_a));
  if (f.trans_b >= 0) ops.push_back(std::to_string(f.trans_b));
  return ops;
}

std::vector<std::string> Tcgen05Operands(const PtxForm& f) {
  const bool sp = f.family == Family::kTcgen05Sp || f.family == Family::kTcgen05WsSp;
  std::vector<std::string> ops{"[r0]", f.a_tmem ? "[r1]" : "rd0", "rd1"};
  if (sp) ops.push_back("[r2]");
  ops.push_back("r3");  // idesc
  if (f.disable_lanes > 0) ops.push_back(List("r", 10, f.disable_lanes));
  ops.push_back("p0");  // enable-input-d
  if (f.scale_input_d >= 0) ops.push_back(std::to_string(f.scale_input_d));
  if (f.zero_column_mask) ops.push_back("rd2");
  return ops;
}

std::string Join(const std::string& opcode, const std::vector<std::string>& ops) {
  std::string s = opcode;
  for (size_t i = 0; i < ops.size(); ++i) s += (i ? ", " : " ") + ops[i];
  return s + ";";
}

}  // namespace

std::string_view Name(Malformation m) {
  switch (m) {
    case Malformation::kNone:
      return "none";
    case Malformation::kDropOperand:
      return "drop-operand";
    case Malformation::kExtraOperand:
      return "extra-operand";
    case Malformation::kWrongRegClass:
      return "wrong-register-class";
    case Malformation::kUnknownQualifier:
      return "unknown-qualifier";
    case Malformation::kTruncated:
      return "truncated";
    case Malformation::kUnclosedEntry:
      return "unclosed-entry";
  }
  return "?";
}

std::string FormInstruction(const PtxForm& f, Malformation m, unsigned where) {
  std::vector<std::string> ops = oracle::ptx::IsWarpMma(f.family) ? WarpOperands(f)
                                 : oracle::ptx::IsWgmma(f.family) ? WgmmaOperands(f)
                                                                  : Tcgen05Operands(f);
  std::string opcode = f.Opcode();
  switch (m) {
    case Malformation::kDropOperand:
      ops.pop_back();
      break;
    case Malformation::kExtraOperand:
      ops.push_back("r199");
      break;
    case Malformation::kWrongRegClass:
      ops.front() = "p1";
      break;
    case Malformation::kUnknownQualifier:
      opcode.insert(opcode.find('.'), ".tcfuzz");
      break;
    default:
      break;
  }
  std::string line = Join(opcode, ops);
  if (m == Malformation::kTruncated) line = line.substr(0, where % line.size()) + ";";
  return line;
}

std::string FormModule(const PtxForm& f, std::string_view target, Malformation m, unsigned where) {
  std::string s = ".version " + oracle::ptx::VersionText(f.ptx) + "\n.target " +
                  std::string(target) + "\n.address_size 64\n\n.visible .entry tcfuzz_form()\n{\n";
  s += "  .reg .b32 r<" + std::to_string(kRegs) + ">;\n  .reg .f32 f<" + std::to_string(kRegs) +
       ">;\n  .reg .b64 rd<4>;\n  .reg .pred p<2>;\n";
  s += "  " + FormInstruction(f, m, where) + "\n  ret;\n";
  if (m != Malformation::kUnclosedEntry) s += "}\n";
  return s;
}

}  // namespace tcfuzz::harness
