// The built-in emulator against the device it emulates: the same drawn cases, packed once, run on
// the GPU and on the emulator (as the device's own target), D compared bit for bit. What the
// emulator answers for a case is checked against hardware here, not against the oracle.
#include <gtest/gtest.h>

#include <cstdlib>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "harness/backend.h"
#include "harness/emulator/warp_mma_emulator.h"
#include "harness/mma_dense.h"
#include "harness/sparse_mma_exec.h"
#include "suites/checks/sparse_mma_checks.h"
#include "suites/engine/device_campaign.h"
#include "suites/engine/device_workers.h"
#include "suites/kinds/dense_device_cases.h"
#include "suites/tests/support/gpu_skip.h"
#include "suites/tests/support/test_seed.h"

namespace tcfuzz {
namespace {

using oracle::num::Format;

// The device side must be the GPU, whatever backend the environment names.
void UseTheDevice() {
  unsetenv("TCFUZZ_DEVICE");
  unsetenv("TCFUZZ_DEVICE_AS");
  ASSERT_EQ(harness::HostBackend().value(), nullptr);
}

int Cases() {
  const char* n = std::getenv("TCFUZZ_EMULATOR_HW_CASES");
  return n ? std::atoi(n) : 65536;
}

struct Tally {
  int cases = 0, equal = 0, no_row = 0;
  std::string first_bad;
};

// One batch's D on the emulator, from the registers the harness packs for the device.
std::vector<uint32_t> Emulate(const harness::WarpMmaCall& w, const std::string& target) {
  tcfuzz_warp_mma call = w.Call();
  std::vector<uint32_t> d(w.DWords());
  call.d = d.data();
  std::string error;
  EXPECT_EQ(harness::emulator::ExecuteWarpMma(call, target, &error), TCFUZZ_OK) << error;
  return d;
}

void Report(const std::map<std::string, Tally>& per_form) {
  for (const auto& [form, t] : per_form) {
    std::cout << "  " << form << ": " << t.equal << " / " << t.cases << " equal"
              << (t.no_row ? ", " + std::to_string(t.no_row) + " without a row (not compared)" : "")
              << "\n";
    EXPECT_EQ(t.equal, t.cases) << form << ": " << t.first_bad;
  }
}

TEST(EmulatorHw, SparseMmaIsTheDevicesBitForBit) {
  TCFUZZ_SKIP_BELOW_SM(8, "mma.sp");
  UseTheDevice();
  const std::string target = "sm_" + std::to_string(info.cc_major * 10 + info.cc_minor);
  const oracle::num::Gpu gpu = suites::GpuOf(info);
  const uint64_t seed = test::Seed();
  std::map<std::string, std::vector<gen::GeneratedSparse>> groups;
  for (int i = 0; i < Cases(); ++i) {
    gen::GeneratedSparse g = suites::DrawSparseMmaCase(seed, static_cast<uint64_t>(i));
    const std::string_view t = g.op.form->target;
    if ((t == "sm_120a" && info.cc_major != 12) ||
        (t == "sm_89" && info.cc_major * 10 + info.cc_minor < 89))
      continue;
    const harness::MmaSpSpec spec{g.op.form,     g.op.variant, g.op.selector,   g.tile.a_type,
                                  g.tile.b_type, g.tile.cd,    g.tile.satfinite};
    groups[harness::MmaSpInstruction(spec)].push_back(std::move(g));
  }
  std::map<std::string, Tally> per_form;
  for (const auto& [instruction, cases] : groups) {
    const auto& f = cases.front();
    const harness::MmaSpSpec spec{f.op.form,     f.op.variant, f.op.selector,   f.tile.a_type,
                                  f.tile.b_type, f.tile.cd,    f.tile.satfinite};
    std::vector<harness::MmaSpCase> batch;
    for (const auto& g : cases) batch.push_back({g.op, g.tile});
    const auto device = harness::RunMmaSp(spec, batch);
    ASSERT_TRUE(device.ok()) << instruction << ": " << device.error();
    const harness::PackedMmaSp p = harness::PackMmaSp(spec, batch);
    const std::vector<uint32_t> emulated = Emulate(harness::WarpMmaCallOf(spec, p), target);
    Tally& t = per_form[spec.form->Name() + " " + std::string(oracle::num::Name(spec.cd))];
    for (std::size_t i = 0; i < batch.size(); ++i) {
      if (oracle::num::IsFloat(spec.a_type) && !suites::SparseParams(batch[i].tile, gpu)) {
        ++t.no_row;
        continue;
      }
      ++t.cases;
      if (harness::UnpackD(spec.cd, emulated, i) == device.value()[i]) {
        ++t.equal;
      } else if (t.first_bad.empty()) {
        t.first_bad = instruction + " case " + std::to_string(i);
      }
    }
  }
  Report(per_form);
}

TEST(EmulatorHw, DenseMmaIsTheDevicesBitForBit) {
  TCFUZZ_SKIP_BELOW_SM(8, "mma.sync m16n8");
  UseTheDevice();
  const std::string target = "sm_" + std::to_string(info.cc_major * 10 + info.cc_minor);
  const oracle::num::Gpu gpu = suites::GpuOf(info);
  const uint64_t seed = test::Seed();
  std::map<std::string, std::vector<oracle::mma::DenseTile>> groups;
  for (int i = 0; i < Cases(); ++i) {
    gen::GeneratedDense g = suites::DrawDenseMmaCase(seed, static_cast<uint64_t>(i));
    if (g.tile.form->target == "sm_89" && info.cc_major * 10 + info.cc_minor < 89) continue;
    groups[harness::MmaDenseInstruction(
               {g.tile.form, g.tile.a_type, g.tile.b_type, g.tile.cd, g.tile.satfinite})]
        .push_back(std::move(g.tile));
  }
  std::map<std::string, Tally> per_form;
  for (const auto& [instruction, tiles] : groups) {
    const auto& f = tiles.front();
    const harness::MmaDenseSpec spec{f.form, f.a_type, f.b_type, f.cd, f.satfinite};
    const auto device = harness::RunMmaDense(spec, tiles);
    ASSERT_TRUE(device.ok()) << instruction << ": " << device.error();
    const harness::PackedMmaDense p = harness::PackMmaDense(spec, tiles);
    const std::vector<uint32_t> emulated = Emulate(harness::WarpMmaCallOf(spec, p), target);
    Tally& t = per_form[spec.form->Name() + " " + std::string(oracle::num::Name(spec.cd))];
    for (std::size_t i = 0; i < tiles.size(); ++i) {
      if (oracle::num::IsFloat(spec.a_type) && !suites::DenseParams(tiles[i], gpu)) {
        ++t.no_row;
        continue;
      }
      ++t.cases;
      if (harness::UnpackD(spec.cd, emulated, i) == device.value()[i]) {
        ++t.equal;
      } else if (t.first_bad.empty()) {
        t.first_bad = instruction + " case " + std::to_string(i);
      }
    }
  }
  Report(per_form);
}

}  // namespace
}  // namespace tcfuzz
