// Doc-vs-hardware row N4 on a device: the sign of an exactly-zero D. Tiles whose values are
// 0, -0, 1, -1 and 2 (and C among +0, -0, 1, -1) make most outputs exact zeros reached many ways
// (all terms +0, all -0, mixed, cancelling non-zeros, C cancelling the products); every such
// element is tallied by its pattern with the sign the device gave (printed), and the oracle's
// row must give the same sign for every one. On an H100 this settled N4: always +0.
// Skips visibly without an sm_80+ device.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>

#include "generators/core/random_source.h"
#include "harness/device.h"
#include "harness/sparse_mma_exec.h"
#include "oracle/numerics/formats.h"
#include "oracle/sparse/sparse_case_text.h"
#include "suites/checks/sparse_mma_checks.h"
#include "suites/engine/atomic_file.h"
#include "suites/engine/device_workers.h"
#include "suites/tests/support/gpu_skip.h"
#include "suites/tests/support/test_seed.h"

namespace tcfuzz {
namespace {

using namespace oracle::sparse;
using oracle::num::Format;

TEST(SparseSignedZero, ExactZerosByPattern) {
  TCFUZZ_SKIP_BELOW_SM(8, "mma.sp");
  const oracle::num::Gpu gpu = suites::GpuOf(info);  // the device's numerics row
  gen::RandomSource s(test::Seed());
  const double values[] = {0.0, -0.0, 1.0, -1.0, 2.0};
  const double c_values[] = {0.0, -0.0, 1.0, -1.0};
  int checked = 0, wrong = 0;
  for (const auto& [shape, type] :
       {std::pair{"m16n8k8", Format::kTF32}, std::pair{"m16n8k16", Format::kTF32},
        std::pair{"m16n8k16", Format::kF16}, std::pair{"m16n8k16", Format::kBF16},
        std::pair{"m16n8k32", Format::kF16}}) {
    const SparseForm* f = FindForm(shape, type);
    ASSERT_NE(f, nullptr);
    std::vector<harness::MmaSpCase> cases;
    for (int i = 0; i < 512; ++i) {
      harness::MmaSpCase k;
      k.op.form = k.tile.form = f;
      k.op.variant = Variant::kOrdered;
      k.op.selector = 0;
      SparseTile& t = k.tile;
      t.a_type = t.b_type = type;
      t.cd = Format::kF32;
      const auto defined = DefinedNibbles(*f, k.op.variant);
      for (int row = 0; row < 16; ++row) {
        for (int chunk = 0; chunk < f->chunks_per_row(); ++chunk) {
          const uint8_t nib = defined[s.Below(defined.size())];
          t.nibbles.push_back(nib);
          SetNibble(k.op, row, chunk, nib);
        }
      }
      // Mostly zeros of either sign, so exact-zero results are common.
      const auto draw = [&] { return values[s.Below(8) < 6 ? s.Below(2) : 2 + s.Below(3)]; };
      for (int x = 0; x < 16 * f->k / 2; ++x) t.a.push_back(oracle::num::FromDouble(type, draw()));
      for (int x = 0; x < f->k * 8; ++x) t.b.push_back(oracle::num::FromDouble(type, draw()));
      for (int x = 0; x < 128; ++x) {
        t.c.push_back(
            static_cast<uint32_t>(oracle::num::FromDouble(Format::kF32, c_values[s.Below(4)])));
      }
      cases.push_back(std::move(k));
    }
    const harness::MmaSpSpec spec{f, Variant::kOrdered, 0, type, type, Format::kF32, false};
    const auto got = harness::RunMmaSp(spec, cases);
    ASSERT_TRUE(got.ok()) << got.error();
    // pattern -> (device -0, device +0, oracle disagrees)
    std::map<std::string, std::array<int, 3>> tally;
    bool captured = false;  // TCFUZZ_CAPTURE_DIR: the first tile per form with a deciding element
    for (std::size_t i = 0; i < cases.size(); ++i) {
      const SparseTile& t = cases[i].tile;
      const std::vector<int> kk = KeptK(*f, t.nibbles);
      const auto params = suites::SparseParams(t, gpu);
      ASSERT_TRUE(params.has_value());
      const std::vector<uint32_t> want = Reference(t, *params);
      for (int r = 0; r < 16; ++r) {
        for (int c = 0; c < 8; ++c) {
          const uint32_t d = got.value()[i][static_cast<std::size_t>(r * 8 + c)];
          if ((d & 0x7FFFFFFF) != 0) continue;
          int pos0 = 0, neg0 = 0, nonzero = 0;
          for (int j = 0; j < f->k / 2; ++j) {
            const double p =
                oracle::num::ToDouble(type, t.a[static_cast<std::size_t>(r * f->k / 2 + j)]) *
                oracle::num::ToDouble(type,
                                      t.b[static_cast<std::size_t>(
                                          kk[static_cast<std::size_t>(r * f->k / 2 + j)] * 8 + c)]);
            (p != 0 ? nonzero : std::signbit(p) ? neg0 : pos0)++;
          }
          const double cv =
              oracle::num::ToDouble(Format::kF32, t.c[static_cast<std::size_t>(r * 8 + c)]);
          const std::string key =
              f->Name() + " C=" +
              (cv != 0            ? "nonzero"
               : std::signbit(cv) ? "-0"
                                  : "+0") +
              (nonzero ? " some non-zero products" : "") + (pos0 ? " some +0 products" : "") +
              (neg0 ? (pos0 || nonzero ? " some -0 products" : " every product -0") : "");
          const char* dir = std::getenv("TCFUZZ_CAPTURE_DIR");
          if (dir && !captured && cv == 0 && std::signbit(cv) &&
              neg0 == f->k / 2) {  // C and every product -0
            oracle::TextWriter w(kSparseKind);
            w.Add("origin.device", info.name + ", CC " + std::to_string(info.cc_major) + "." +
                                       std::to_string(info.cc_minor) + ", driver " +
                                       std::to_string(info.driver_version));
            w.Add("origin.mode", "edge");
            w.Comment("N4 (docs/doc-vs-hardware.md): D[" + std::to_string(r) + "][" +
                      std::to_string(c) +
                      "] has C = -0 and every kept product -0; IEEE gives -0, the device +0");
            AppendSparseCase(w, cases[i].op, t, &got.value()[i]);
            const std::string name =
                std::string(dir) + "/n4_" + f->Name() + "_all_terms_minus_zero.txt";
            ASSERT_TRUE(suites::WriteFileAtomic(name, w.str()).ok()) << name;
            captured = true;
          }
          auto& row = tally[key];
          ++row[d >> 31 ? 0 : 1];
          const bool disagrees = want[static_cast<std::size_t>(r * 8 + c)] != d;
          row[2] += disagrees;
          ++checked;
          wrong += disagrees;
        }
      }
    }
    for (const auto& [key, row] : tally) {
      std::printf("N4 %-80s device -0: %5d  +0: %5d  oracle disagrees: %5d\n", key.c_str(), row[0],
                  row[1], row[2]);
    }
  }
  EXPECT_GT(checked, 1000);
  EXPECT_EQ(wrong, 0) << "exact zeros whose sign the oracle's row gets wrong";
}

}  // namespace
}  // namespace tcfuzz
