#include "suites/cli/launch_cu.h"

#include <cstdio>

#include "suites/cli/cli_common.h"

namespace tcfuzz::suites {
namespace {

std::string Words(const std::vector<uint32_t>& v) {
  std::string s = "{";
  char buf[16];
  for (std::size_t i = 0; i < v.size(); ++i) {
    std::snprintf(buf, sizeof buf, "%s0x%08xu", i == 0 ? "" : i % 8 == 0 ? ",\n  " : ", ", v[i]);
    s += buf;
  }
  return s + "}";
}

// Where each D element comes from: unpacking an output whose words (or 16-bit halves) hold
// their own index gives, per element, the index of its source.
oracle::Result<std::pair<std::vector<uint32_t>, std::vector<uint32_t>>> OutputMap(
    const LaunchCu& c) {
  using R = oracle::Result<std::pair<std::vector<uint32_t>, std::vector<uint32_t>>>;
  const std::size_t words = c.launch.launch.output_words;
  if (c.half_words && words * 2 > 0xFFFF) return R::Fail("too many output words to map halves");
  std::vector<uint32_t> probe(words);
  for (std::size_t i = 0; i < words; ++i) {
    probe[i] = c.half_words ? static_cast<uint32_t>((2 * i + 1) << 16 | (2 * i))
                            : static_cast<uint32_t>(i);
  }
  if (c.address_word && !probe.empty())
    probe[0] = 0;  // an aligned address for the kernel's own check
  const auto d = c.launch.unpack(probe, 0);
  if (!d.ok()) return R::Fail(d.error());
  if (d.value().size() != c.expected.size())
    return R::Fail("the launch's D does not have the oracle's size");
  std::vector<uint32_t> word(d.value().size()), half(d.value().size());
  for (std::size_t e = 0; e < d.value().size(); ++e) {
    const uint32_t v = d.value()[e];
    word[e] = c.half_words ? v / 2 : v;
    half[e] = c.half_words ? v % 2 : 2;  // 2: the whole word
    if (word[e] >= words) return R::Fail("a D element maps past the output");
  }
  return R::Ok({std::move(word), std::move(half)});
}

}  // namespace

oracle::Result<std::string> LaunchCuText(const LaunchCu& c) {
  using R = oracle::Result<std::string>;
  const auto map = OutputMap(c);
  if (!map.ok()) return R::Fail(map.error());
  const harness::KernelLaunch& l = c.launch.launch;
  std::string cu;
  cu += "// Reproducer emitted by tcfuzz from " + cli::OneLine(c.from) + "\n";
  cu += "// Instruction: " + c.instruction + "\n";
  cu += "// Build and run: nvcc -arch=" + c.arch +
        " repro.cu -o repro -lcuda && ./repro   (a GPU that runs " + c.arch + ")\n";
  cu +=
      "// Loads the PTX module below through the CUDA driver, runs one case, and prints every "
      "element of D\n";
  cu += "// where the device differs from tcfuzz's oracle (numerics row " + c.oracle_row + ")";
  cu += c.found ? ", with the value the device returned when tcfuzz found the case.\n" : ".\n";
  cu +=
      "// Exit code: 0 when the device agrees with the oracle everywhere, 1 when not, 2 on a CUDA "
      "error.\n";
  cu += "#include <cuda.h>\n#include <cstdint>\n#include <cstdio>\n\n";
  cu += "static const char kPtx[] = R\"PTX(" + l.ptx + ")PTX\";\n";
  cu += "static const char kEntry[] = \"" + l.entry + "\";\n";
  for (std::size_t i = 0; i < l.inputs.size(); ++i) {
    cu += "static const uint32_t kIn" + std::to_string(i) +
          "[] = " + Words(l.inputs[i].empty() ? std::vector<uint32_t>{0} : l.inputs[i]) + ";\n";
  }
  cu += "static const uint32_t kOutputWords = " + std::to_string(l.output_words) + ";\n";
  cu += "static const unsigned kGrid = " + std::to_string(l.grid) +
        ", kBlock = " + std::to_string(l.block) + ", kShared = " + std::to_string(l.shared_bytes) +
        ";\n";
  cu += "static const int kCols = " + std::to_string(c.cols) +
        ", kElements = " + std::to_string(c.expected.size()) + ";\n";
  cu +=
      "// D element e is output word kWord[e] (kHalf[e] 0/1: its low/high 16 bits; 2: the whole "
      "word).\n";
  cu += "static const uint32_t kWord[] = " + Words(map.value().first) + ";\n";
  cu += "static const uint32_t kHalf[] = " + Words(map.value().second) + ";\n";
  cu += "static const uint32_t kExpected[] = " + Words(c.expected) + ";\n";
  if (c.found) cu += "static const uint32_t kFound[] = " + Words(*c.found) + ";\n";
  cu +=
      "\n#define CHECK(x) do { CUresult r = (x); if (r != CUDA_SUCCESS) { const char* s = nullptr; "
      "\\\n"
      "  cuGetErrorName(r, &s); std::printf(\"CUDA error: %s at %s\\n\", s ? s : \"?\", #x); "
      "return 2; } } while (0)\n\n";
  cu += "int main() {\n  CUdevice dev;\n  CUcontext ctx;\n  CUmodule mod;\n  CUfunction fn;\n";
  cu +=
      "  CHECK(cuInit(0));\n  CHECK(cuDeviceGet(&dev, 0));\n  CHECK(cuDevicePrimaryCtxRetain(&ctx, "
      "dev));\n  CHECK(cuCtxSetCurrent(ctx));\n";
  cu += "  CHECK(cuModuleLoadData(&mod, kPtx));\n  CHECK(cuModuleGetFunction(&fn, mod, kEntry));\n";
  const std::size_t n_in = l.inputs.size();
  cu += "  CUdeviceptr bufs[" + std::to_string(n_in + 1) + "];\n";
  for (std::size_t i = 0; i < n_in; ++i) {
    const std::string k = "kIn" + std::to_string(i), b = "bufs[" + std::to_string(i) + "]";
    cu += "  CHECK(cuMemAlloc(&" + b + ", sizeof " + k + "));\n  CHECK(cuMemcpyHtoD(" + b + ", " +
          k + ", sizeof " + k + "));\n";
  }
  const std::string out = "bufs[" + std::to_string(n_in) + "]";
  cu += "  CHECK(cuMemAlloc(&" + out + ", kOutputWords * 4));\n  CHECK(cuMemsetD32(" + out +
        ", 0xDEADBEEFu, kOutputWords));\n";
  cu += "  unsigned n = 1;\n  void* args[] = {";
  for (std::size_t i = 0; i <= n_in; ++i) cu += "&bufs[" + std::to_string(i) + "], ";
  cu += "&n};\n";
  cu +=
      "  if (kShared > 48 * 1024) CHECK(cuFuncSetAttribute(fn, "
      "CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, kShared));\n";
  cu +=
      "  CHECK(cuLaunchKernel(fn, kGrid, 1, 1, kBlock, 1, 1, kShared, nullptr, args, nullptr));\n";
  cu += "  CHECK(cuCtxSynchronize());\n";
  cu += "  static uint32_t got[kOutputWords];\n  CHECK(cuMemcpyDtoH(got, " + out +
        ", kOutputWords * 4));\n";
  if (c.address_word) {
    cu +=
        "  if (got[0] % 1024 != 0) std::printf(\"note: the shared buffer sits at %u, not "
        "1024-aligned: swizzles do not hold\\n\", got[0]);\n";
  }
  cu += "  int differ = 0;\n  for (int e = 0; e < kElements; ++e) {\n";
  cu +=
      "    const uint32_t w = got[kWord[e]], v = kHalf[e] == 2 ? w : (w >> (16 * kHalf[e])) & "
      "0xFFFFu;\n";
  cu += "    if (v == kExpected[e]) continue;\n    ++differ;\n";
  cu += c.found ? "    std::printf(\"D[%d][%d]: device %08x, oracle %08x, found %08x\\n\", e / "
                  "kCols, e % kCols, v, kExpected[e], kFound[e]);\n"
                : "    std::printf(\"D[%d][%d]: device %08x, oracle %08x\\n\", e / kCols, e % "
                  "kCols, v, kExpected[e]);\n";
  cu +=
      "  }\n  std::printf(\"%d of %d elements of D differ from the oracle\\n\", differ, "
      "kElements);\n  return differ ? 1 : 0;\n}\n";
  return R::Ok(std::move(cu));
}

}  // namespace tcfuzz::suites
