// A stand-in for `tcfuzz worker` in the engine's tests: no GPU, but every way a real worker can
// end, planted at chosen case indices. Also appends "first count" to --log for each start, so a
// test can see which ranges ran in which process. Called as `fake_worker worker --probe` it
// claims a device; with --device-probe-wrong-at I it answers sparse-mma cases like a device
// that is right everywhere except one element of case I (one more than the oracle there), so
// the parent's reports and reproducers can be tested without a GPU. For the smem-hw suite it is
// a device that does what the oracle says, reads broken descriptors as decoded (reported
// undefined_by_spec, as the real worker does) and, at --device-probe-wrong-at I, returns for the
// first element of tile I the value of another A element. TCFUZZ_FAKE_CC ("8.6") sets the
// compute capability it claims (9.0 by default). With --once FILE a planted fault, hang, crash or
// mismatch happens only in the first process to reach it (the one that creates FILE): a flake.
#include <fcntl.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>
#include <string>
#include <thread>

#include "oracle/numerics/formats.h"
#include "suites/checks/sparse_mma_checks.h"
#include "suites/engine/device_campaign.h"
#include "suites/engine/worker_protocol.h"
#include "suites/kinds/dense_device_cases.h"
#include "suites/kinds/descriptor_tile_cases.h"

namespace {

// One smem-hw tile as a device that reads what the oracle's maps say.
void SmemHwCase(uint64_t index, const tcfuzz::gen::GeneratedTile& g, bool wrong) {
  using tcfuzz::suites::CaseLine;
  using tcfuzz::suites::CaseOutcome;
  const auto want = tcfuzz::oracle::tile::TileReference(g.tile);
  if (!want.ok()) return;  // a broken descriptor with no as-if reading: the fake has no D to give
  std::vector<uint32_t> d = want.value();
  if (!tcfuzz::suites::BrokenRules(g.tile).empty()) {
    std::printf("%s\n", CaseLine(index, CaseOutcome::kUndefinedBySpec,
                                 tcfuzz::suites::UndefinedDetail(g.tile, d) +
                                     tcfuzz::suites::ObservedField(d))
                            .c_str());
    return;
  }
  if (!wrong) return;
  // The first element reads A's next element along K instead (its probe value is one more, or
  // wraps at the type's range).
  const auto a = tcfuzz::oracle::tile::ReadOperand(g.tile, tcfuzz::oracle::smem::Operand::kA);
  const int row = static_cast<int>(a->size()) / g.tile.a.view.rows;  // A's stored elements a row
  const double v = tcfuzz::oracle::num::ToDouble(g.tile.d, d[0]);
  for (int kk = 0; kk < row; ++kk) {
    const double x = tcfuzz::oracle::num::ToDouble(g.tile.ab, (*a)[static_cast<std::size_t>(kk)]);
    if (x != v) {
      d[0] = static_cast<uint32_t>(tcfuzz::oracle::num::FromDouble(g.tile.d, x));
      break;
    }
  }
  const std::string what =
      tcfuzz::suites::MismatchDetail(want.value(), d, static_cast<std::size_t>(g.tile.n));
  std::printf(
      "%s\n",
      CaseLine(index, CaseOutcome::kMismatch, what + tcfuzz::suites::ObservedField(d)).c_str());
}

// A dense probe case read wrong at D[0][0]: A(0, k) for the first k whose value differs from the
// oracle's.
void DenseWrong(uint64_t index, const tcfuzz::gen::GeneratedDense& g) {
  using namespace tcfuzz::oracle;
  const auto& t = g.tile;
  const std::vector<uint32_t> want = mma::DenseReference(t, num::ExactParams(t.cd));
  std::vector<uint32_t> d = want;
  const double c = num::ToDouble(t.cd, t.c[0]), v = num::ToDouble(t.cd, d[0]);
  for (int k = 0; k < t.form->k; ++k) {
    const double x = num::ToDouble(t.a_type, t.a[static_cast<std::size_t>(k)]);
    if (c + x != v) {
      d[0] = static_cast<uint32_t>(num::FromDouble(t.cd, c + x));
      break;
    }
  }
  const std::string what = tcfuzz::suites::MismatchDetail(want, d);
  std::printf("%s\n", tcfuzz::suites::CaseLine(index, tcfuzz::suites::CaseOutcome::kMismatch,
                                               what + tcfuzz::suites::ObservedField(d))
                          .c_str());
}

// `--case-file F` for a wgmma_tile file: a device that misreads D[3][5] (one bit off) whenever
// A(3,2) and B(5,2) are both non-zero, whatever the layout (the minimizer's end-to-end test).
int CaseFile(const char* path) {
  using tcfuzz::suites::CaseLine;
  using tcfuzz::suites::CaseOutcome;
  const auto f = tcfuzz::suites::ReadDescriptorTileCase(path);
  if (!f.ok()) {
    std::printf("%s\nran 1\ndone\n", CaseLine(0, CaseOutcome::kHarnessError, f.error()).c_str());
    return 0;
  }
  const auto& t = f.value().tile;
  const auto want = tcfuzz::oracle::tile::TileReference(t);
  const auto a = tcfuzz::oracle::tile::ReadOperand(t, tcfuzz::oracle::smem::Operand::kA);
  const auto b = tcfuzz::oracle::tile::ReadOperand(t, tcfuzz::oracle::smem::Operand::kB);
  if (!want.ok() || !a || !b || t.n < 6) {
    std::printf("%s\nran 1\ndone\n",
                CaseLine(0, CaseOutcome::kHarnessError, "fake: no D for this tile").c_str());
    return 0;
  }
  std::vector<uint32_t> d = want.value();
  const int k = tcfuzz::oracle::tile::TileK(t);
  if ((*a)[static_cast<std::size_t>(3 * k + 2)] != 0 &&
      (*b)[static_cast<std::size_t>(5 * k + 2)] != 0)
    d[static_cast<std::size_t>(3 * t.n + 5)] ^= 1;
  const std::string what =
      tcfuzz::suites::MismatchDetail(want.value(), d, static_cast<std::size_t>(t.n));
  const std::string observed = tcfuzz::suites::ObservedField(d);
  std::printf("%s\nran 1\ndone\n",
              what.empty() ? CaseLine(0, CaseOutcome::kPass, observed.substr(1)).c_str()
                           : CaseLine(0, CaseOutcome::kMismatch, what + observed).c_str());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  using tcfuzz::suites::CaseLine;
  using tcfuzz::suites::CaseOutcome;
  if (argc > 1 && std::string(argv[1]) == "worker") --argc, ++argv;  // the parent's subcommand word
  if (argc > 2 && std::string(argv[1]) == "--case-file") return CaseFile(argv[2]);
  if (argc > 1 && std::string(argv[1]) == "--probe") {
    // CC 9.0 unless TCFUZZ_FAKE_CC says another ("8.6"): a target the H100's evidence does not
    // cover.
    int major = 9, minor = 0;
    if (const char* cc = std::getenv("TCFUZZ_FAKE_CC")) std::sscanf(cc, "%d.%d", &major, &minor);
    std::printf("device %d %d 13000 13000 Fake GPU (fake_worker)\n", major, minor);
    return 0;
  }
  uint64_t seed = 0;
  std::string suite;
  std::set<uint64_t> wrong;
  uint64_t first = 0, count = 0, shard_i = 0, shard_n = 1, unsupported_every = 0, ms_per_case = 0;
  std::set<uint64_t> fault, hang, crash, mismatch;
  const char* log = nullptr;
  const char* once = nullptr;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::string(argv[i]) == "--once") once = argv[i + 1];
    const std::string k = argv[i];
    const uint64_t v = std::strtoull(argv[i + 1], nullptr, 10);
    if (k == "--first") first = v;
    if (k == "--seed") seed = v;
    if (k == "--suite") suite = argv[i + 1];
    if (k == "--device-probe-wrong-at") wrong.insert(v);
    if (k == "--count") count = v;
    if (k == "--fault-at") fault.insert(v);
    if (k == "--hang-at") hang.insert(v);
    if (k == "--crash-at") crash.insert(v);
    if (k == "--mismatch-at") mismatch.insert(v);
    if (k == "--unsupported-every") unsupported_every = v;
    if (k == "--ms-per-case") ms_per_case = v;  // a slow device: each case takes this long
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
  // Whether a planted failure fires now: always, or under --once only the first time.
  const auto fires = [once] {
    if (once == nullptr) return true;
    const int fd = ::open(once, O_CREAT | O_EXCL | O_WRONLY, 0644);
    if (fd < 0) return false;
    ::close(fd);
    return true;
  };
  // Each case's family as the real workers name it (DescribedCase::family), for the suites it
  // fakes; "fake" for the engine tests' made-up ones.
  const auto family_of = [&suite, seed](uint64_t i) -> std::string {
    using namespace tcfuzz::suites;
    if (suite == kDenseMmaSuite) return DenseFamily(DrawDenseMmaCase(seed, i).tile);
    if (suite == kSmemHwSuite) return TileFamily(DrawSmemHwCase(seed, i).tile);
    if (suite == kSparseMmaDeviceSuite) return SparseFamily(DrawSparseMmaCase(seed, i));
    return "fake";
  };
  tcfuzz::suites::FamilyCounts families, unsupported_families;
  uint64_t ran = 0;
  const auto t0 = std::chrono::steady_clock::now();
  for (uint64_t i = first; i < first + count; ++i) {
    if (i % shard_n != shard_i) continue;
    if (fault.count(i) && fires()) {
      std::printf("fault CUDA_ERROR_ILLEGAL_ADDRESS (planted)\n");
      return tcfuzz::suites::kWorkerFaultExit;
    }
    if (hang.count(i) && fires()) {
      std::fflush(stdout);
      for (;;) ::pause();
    }
    if (crash.count(i) && fires()) std::abort();
    ++ran;
    if (ms_per_case) std::this_thread::sleep_for(std::chrono::milliseconds(ms_per_case));
    if (suite == tcfuzz::suites::kDenseMmaSuite) {
      if (wrong.count(i)) DenseWrong(i, tcfuzz::suites::DrawDenseMmaCase(seed, i));
    } else if (suite == tcfuzz::suites::kSmemHwSuite) {
      SmemHwCase(i, tcfuzz::suites::DrawSmemHwCase(seed, i), wrong.count(i) > 0);
    } else if (wrong.count(i)) {
      // The oracle's D with the first element that has a product in it raised by one.
      const auto g = tcfuzz::suites::DrawSparseMmaCase(seed, i);
      std::vector<uint32_t> d =
          tcfuzz::oracle::sparse::Reference(g.tile, tcfuzz::oracle::num::ExactParams(g.tile.cd));
      for (std::size_t e = 0; e < d.size(); ++e) {
        const double v = tcfuzz::oracle::num::ToDouble(g.tile.cd, d[e]) -
                         tcfuzz::oracle::num::ToDouble(g.tile.cd, g.tile.c[e]);
        if (g.tile.cd == tcfuzz::oracle::num::Format::kS32 || v == 0) continue;
        d[e] = static_cast<uint32_t>(tcfuzz::oracle::num::FromDouble(
            g.tile.cd, tcfuzz::oracle::num::ToDouble(g.tile.cd, d[e]) + 1));
        std::printf("%s\n", CaseLine(i, CaseOutcome::kMismatch,
                                     "D[?] planted" + tcfuzz::suites::ObservedField(d))
                                .c_str());
        break;
      }
    }
    if (mismatch.count(i) && fires())
      std::printf("%s\n", CaseLine(i, CaseOutcome::kMismatch, "D[0][0] planted").c_str());
    if (unsupported_every && i % unsupported_every == 0) {
      std::printf("%s\n",
                  CaseLine(i, CaseOutcome::kNotSupported, "planted: form needs sm_120a").c_str());
      ++unsupported_families[family_of(i)];
    } else {
      ++families[family_of(i)];
    }
  }
  std::printf("%s", tcfuzz::suites::FamilyLines(families, unsupported_families).c_str());
  if (ms_per_case) {  // the time the cases took, as a real worker reports it
    std::printf(
        "%s\n",
        tcfuzz::suites::PhaseLine(
            "device", std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count())
            .c_str());
  } else {
    std::printf("%s\n%s\n", tcfuzz::suites::PhaseLine("draw", 0.25).c_str(),
                tcfuzz::suites::PhaseLine("device", 0.5).c_str());
  }
  std::printf("ran %lu\ndone\n", ran);
  return 0;
}
