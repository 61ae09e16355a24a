// A stand-in for `tcfuzz worker` in the engine's tests: no GPU, but every way a real worker can
// end, planted at chosen case indices. Also appends "first count" to --log for each start, so a
// test can see which ranges ran in which process.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>
#include <string>

#include "suites/runner/worker_protocol.h"

int main(int argc, char** argv) {
  using tcfuzz::suites::CaseLine;
  using tcfuzz::suites::CaseOutcome;
  uint64_t first = 0, count = 0, shard_i = 0, shard_n = 1, unsupported_every = 0;
  std::set<uint64_t> fault, hang, crash, mismatch;
  const char* log = nullptr;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string k = argv[i];
    const uint64_t v = std::strtoull(argv[i + 1], nullptr, 10);
    if (k == "--first") first = v;
    if (k == "--count") count = v;
    if (k == "--fault-at") fault.insert(v);
    if (k == "--hang-at") hang.insert(v);
    if (k == "--crash-at") crash.insert(v);
    if (k == "--mismatch-at") mismatch.insert(v);
    if (k == "--unsupported-every") unsupported_every = v;
    if (k == "--log") log = argv[i + 1];
    if (k == "--no-device") {
      std::printf("unsupported %lu no GPU: fake\nran %lu\ndone\n", count, count);
      return 0;
    }
    if (k == "--shard") std::sscanf(argv[i + 1], "%lu/%lu", &shard_i, &shard_n);
  }
  if (log) {
    if (std::FILE* f = std::fopen(log, "a")) {
      std::fprintf(f, "%lu %lu\n", first, count);
      std::fclose(f);
    }
  }
  uint64_t ran = 0;
  for (uint64_t i = first; i < first + count; ++i) {
    if (i % shard_n != shard_i) continue;
    if (fault.count(i)) {
      std::printf("fault CUDA_ERROR_ILLEGAL_ADDRESS (planted)\n");
      return tcfuzz::suites::kWorkerFaultExit;
    }
    if (hang.count(i)) {
      std::fflush(stdout);
      for (;;) ::pause();
    }
    if (crash.count(i)) std::abort();
    ++ran;
    if (mismatch.count(i)) std::printf("%s\n", CaseLine(i, CaseOutcome::kMismatch, "D[0][0] planted").c_str());
    if (unsupported_every && i % unsupported_every == 0) {
      std::printf("%s\n", CaseLine(i, CaseOutcome::kNotSupported, "planted: form needs sm_120a").c_str());
    }
  }
  std::printf("ran %lu\ndone\n", ran);
  return 0;
}
