#include "suites/emit/launch_cu.h"

#include <cstdio>

#include "oracle/core/text_format.h"

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
  std::vector<uint32_t> all;  // every case's D, in case order
  for (std::size_t i = 0; i < c.launch.cases; ++i) {
    if (c.address_word) {  // an aligned address in each case's word 0, for the kernel's check
      for (std::size_t w = 0; w < words; w += words / c.launch.cases) probe[w] = 0;
    }
    const auto d = c.launch.unpack(probe, i);
    if (!d.ok()) return R::Fail(d.error());
    all.insert(all.end(), d.value().begin(), d.value().end());
  }
  if (all.size() != c.expected.size())
    return R::Fail("the launch's D does not have the oracle's size");
  std::vector<uint32_t> word(all.size()), half(all.size());
  for (std::size_t e = 0; e < all.size(); ++e) {
    const uint32_t v = all[e];
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
  cu += "// Reproducer emitted by tcfuzz from " + oracle::OneLine(c.from) + "\n";
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
  cu += "static const int kCases = " + std::to_string(c.launch.cases) + ";\n";
  // Kit mode prints case files: its own lines are comments there.
  cu +=
      std::string("static const char kNote[] = \"") + (c.case_texts.empty() ? "" : "# ") + "\";\n";
  if (!c.case_texts.empty()) {
    if (c.case_texts.size() != c.launch.cases) return R::Fail("one case text per case is needed");
    cu += "static const char* const kCaseText[] = {\n";
    for (const std::string& t : c.case_texts) cu += "R\"CASE(" + t + ")CASE\",\n";
    cu += "};\n";
  }
  if (c.found) cu += "static const uint32_t kFound[] = " + Words(*c.found) + ";\n";
  cu +=
      "\n#define CHECK(x) do { CUresult r = (x); if (r != CUDA_SUCCESS) { const char* s = nullptr; "
      "\\\n"
      "  cuGetErrorName(r, &s); std::printf(\"%sCUDA error: %s at %s\\n\", kNote, s ? s : \"?\", "
      "#x); "
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
  cu += "  unsigned n = " + std::to_string(l.n) + ";\n  void* args[] = {";
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
        "  if (got[0] % 1024 != 0) std::printf(\"%snote: the shared buffer sits at %u, not "
        "1024-aligned: swizzles do not hold\\n\", kNote, got[0]);\n";
  }
  if (!c.case_texts.empty()) {  // the discovery kit: each case with the D it got
    cu +=
        "  {\n    char name[256] = {0};\n    int major = 0, minor = 0, driver = 0;\n"
        "    CHECK(cuDeviceGetName(name, sizeof name - 1, dev));\n"
        "    CHECK(cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, "
        "dev));\n"
        "    CHECK(cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, "
        "dev));\n"
        "    CHECK(cuDriverGetVersion(&driver));\n"
        "    const int per_case = kElements / kCases;\n"
        "    for (int i = 0; i < kCases; ++i) {\n"
        "      std::printf(\"%s\", kCaseText[i]);\n"
        "      std::printf(\"origin.device = %s, CC %d.%d, driver %d\\n\", name, major, minor, "
        "driver);\n"
        "      for (int e = 0; e < per_case; ++e) {\n"
        "        const int x = i * per_case + e;\n"
        "        const uint32_t w = got[kWord[x]], v = kHalf[x] == 2 ? w : (w >> (16 * kHalf[x])) "
        "& 0xFFFFu;\n"
        "        if (e % kCols == 0) std::printf(\"observed.%d =\", e / kCols);\n"
        "        std::printf(kHalf[x] == 2 ? \" %08x\" : \" %04x\", v);\n"
        "        if (e % kCols == kCols - 1) std::printf(\"\\n\");\n"
        "      }\n    }\n  }\n";
  }
  cu += "  int differ = 0;\n  for (int e = 0; e < kElements; ++e) {\n";
  cu +=
      "    const uint32_t w = got[kWord[e]], v = kHalf[e] == 2 ? w : (w >> (16 * kHalf[e])) & "
      "0xFFFFu;\n";
  cu += "    if (v == kExpected[e]) continue;\n    ++differ;\n";
  cu +=
      c.found
          ? "    std::printf(\"%sD[%d][%d]: device %08x, oracle %08x, found %08x\\n\", kNote, e / "
            "kCols, e % kCols, v, kExpected[e], kFound[e]);\n"
          : "    std::printf(\"%sD[%d][%d]: device %08x, oracle %08x\\n\", kNote, e / kCols, e % "
            "kCols, v, kExpected[e]);\n";
  cu +=
      "  }\n  std::printf(\"%s%d of %d elements of D differ from the oracle\\n\", kNote, differ, "
      "kElements);\n  return differ ? 1 : 0;\n}\n";
  return R::Ok(std::move(cu));
}

}  // namespace tcfuzz::suites
