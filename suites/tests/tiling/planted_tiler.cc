// A tiler mutant: `planted_tiler DEFECT TILER...` runs the tiler under test on the same problem
// and environment, then plants one defect class tcfuzz's tiling rules exist to catch in its
// answer (corpus/mutants/tilers.txt lists them with their precedents). A refusal or a crash of
// the inner tiler passes through unchanged. ctest `tiling.planted_tilers_are_caught` holds
// `tcfuzz tiling fuzz` to finding each one.
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

namespace {

using json = nlohmann::ordered_json;

int64_t Get(const json& t, const char* f) { return t.value(f, int64_t{0}); }

// The defect, planted in the answer's fields; false: no such defect.
bool Plant(const std::string& defect, json& t) {
  if (defect == "depth_step") {  // H8: depthA1 = stepM * stepKa * db with db 1 or 2
    t["depthA1"] = 3 * Get(t, "stepM") * Get(t, "stepKa");
  } else if (defect == "base_alignment") {  // H6: baseM a multiple of 16
    t["baseM"] = Get(t, "baseM") + 8;
  } else if (defect == "l1_fit") {  // H7: the A blocks alone past any chip's L1 (2 MiB here)
    t["stepKa"] = 4096;
    t["depthA1"] = 4096 * Get(t, "stepM");
  } else if (defect == "single_core") {  // every C block needs a core: all of it on one
    t["usedCoreNum"] = 1;
  } else if (defect == "k_split") {  // singleCoreK = K: half of K left out
    t["singleCoreK"] = (Get(t, "Ka") + 1) / 2;
  } else {
    return false;
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::cerr << "planted_tiler: usage: planted_tiler DEFECT TILER [ARGS...]\n";
    return 2;
  }
  json probe = json::object();
  if (!Plant(argv[1], probe)) {
    std::cerr << "planted_tiler: no defect '" << argv[1]
              << "' (depth_step, base_alignment, l1_fit, single_core, k_split)\n";
    return 2;
  }
  // The problem to a file the inner tiler reads as its stdin.
  char path[] = "/tmp/planted_tiler_XXXXXX";
  const int fd = mkstemp(path);
  if (fd < 0) return 2;
  const std::string problem((std::istreambuf_iterator<char>(std::cin)),
                            std::istreambuf_iterator<char>());
  const bool wrote =
      write(fd, problem.data(), problem.size()) == static_cast<ssize_t>(problem.size());
  close(fd);
  std::string command;
  for (int i = 2; i < argc; ++i) command += std::string(i > 2 ? " " : "") + argv[i];
  command += std::string(" < ") + path;
  FILE* inner = wrote ? popen(command.c_str(), "r") : nullptr;
  std::string answer;
  if (inner != nullptr) {
    char buf[4096];
    for (std::size_t n; (n = fread(buf, 1, sizeof buf, inner)) > 0;) answer.append(buf, n);
  }
  const int status = inner != nullptr ? pclose(inner) : -1;
  unlink(path);
  if (status == -1 || !WIFEXITED(status)) return 2;
  if (WEXITSTATUS(status) != 0) return WEXITSTATUS(status);  // a refusal: as the tiler said
  json t = json::parse(answer, nullptr, false);
  if (!t.is_object()) {
    std::cout << answer;  // not JSON (the 200-byte image): left to tcfuzz as it is
    return 0;
  }
  Plant(argv[1], t);
  std::cout << t.dump() << "\n";
  return 0;
}
