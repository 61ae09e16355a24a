// The built-in emulator (harness/emulator/) executing mma.sync and mma.sp from raw registers.
// Its golden values come from elsewhere than the emulator: a tile whose D is derived by hand with
// registers packed by the PTX ISA's fragment formulas written out here, the H100's own D for every
// capture in corpus/ (hardware), and the oracle's reference over drawn cases (a second
// derivation that shares the numerics row, not the steps).
#include "harness/emulator/warp_mma_emulator.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "generators/core/mma_values.h"
#include "harness/mma_dense.h"
#include "harness/sparse_mma_exec.h"
#include "oracle/core/text_format.h"
#include "oracle/mma/dense_case_text.h"
#include "oracle/numerics/formats.h"
#include "oracle/sparse/sparse_case_text.h"
#include "suites/checks/sparse_mma_checks.h"
#include "suites/engine/atomic_file.h"
#include "suites/kinds/dense_device_cases.h"

namespace tcfuzz::harness {
namespace {

using oracle::num::Format;

uint16_t F16(int v) {  // small non-negative integers, exactly
  return static_cast<uint16_t>(oracle::num::FromDouble(Format::kF16, v));
}

// One warp's call over registers the caller packed (case-major then lane, as the ABI says).
struct Call {
  std::vector<uint32_t> a, b, c, e, d;
  tcfuzz_warp_mma call{};
  int Run(std::string* error, const char* target = "sm_90a", const emulator::Mutant& m = {}) {
    call.a = a.data(), call.b = b.data(), call.c = c.data();
    call.e = e.empty() ? nullptr : e.data();
    d.assign(c.size(), 0xDEADBEEF);
    call.d = d.data();
    return emulator::ExecuteWarpMma(call, target, error, m);
  }
};

Call DenseF16Call(int warps) {
  Call x;
  x.call = {.instruction = "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32",
            .shape = "m16n8k16",
            .a_type = "f16",
            .b_type = "f16",
            .cd_type = "f32",
            .warps = static_cast<uint32_t>(warps),
            .a_regs = 4,
            .b_regs = 2,
            .cd_regs = 4};
  x.a.assign(static_cast<std::size_t>(warps) * 32 * 4, 0);
  x.b.assign(static_cast<std::size_t>(warps) * 32 * 2, 0);
  x.c.assign(static_cast<std::size_t>(warps) * 32 * 4, 0);
  return x;
}

// PTX ISA 9.1 §9.7.13.4.8, "Matrix Fragments for mma.m16n8k16 with floating point type", by its
// formulas (groupID = lane >> 2, threadID_in_group = lane % 4): A a_i row groupID (+8 for a2, a3,
// a6, a7), column threadID_in_group * 2 + (i & 1) (+8 for i >= 4); B b_i row threadID_in_group *
// 2 + (i & 1) (+8 for i >= 2), column groupID; C/D c_i row groupID (+8 for i >= 2), column
// threadID_in_group * 2 + (i & 1). Two f16 to a register, element i at bits 16 * (i % 2).
// A[i][k] = 1 exactly where k = (3i + 1) mod 16; B[k][j] = 8k + j + 1; C = 0.
Call OneHotTile() {
  Call x = DenseF16Call(1);
  const auto a_at = [](int i, int k) { return F16(k == (3 * i + 1) % 16 ? 1 : 0); };
  for (int lane = 0; lane < 32; ++lane) {
    const int g = lane >> 2, t = lane % 4;
    for (int i = 0; i < 8; ++i) {
      const int row = g + ((i / 2) % 2 ? 8 : 0), col = t * 2 + (i & 1) + (i >= 4 ? 8 : 0);
      x.a[static_cast<std::size_t>(lane * 4 + i / 2)] |= uint32_t{a_at(row, col)} << (16 * (i % 2));
    }
    for (int i = 0; i < 4; ++i) {
      const int row = t * 2 + (i & 1) + (i >= 2 ? 8 : 0), col = g;
      x.b[static_cast<std::size_t>(lane * 2 + i / 2)] |= uint32_t{F16(8 * row + col + 1)}
                                                         << (16 * (i % 2));
    }
  }
  return x;
}

// D[row][col] of the lanes' registers, by the C/D formula above.
uint32_t DAt(const Call& x, int row, int col) {
  const int lane = (row % 8) * 4 + col / 2, i = (row >= 8 ? 2 : 0) + col % 2;
  return x.d[static_cast<std::size_t>(lane * 4 + i)];
}

TEST(WarpMmaEmulator, OneHotRowsPickTheBRowsTheFiguresSay) {
  Call x = OneHotTile();
  std::string error;
  ASSERT_EQ(x.Run(&error), TCFUZZ_OK) << error;
  for (int row = 0; row < 16; ++row) {
    for (int col = 0; col < 8; ++col) {
      EXPECT_EQ(DAt(x, row, col),
                oracle::num::FromDouble(Format::kF32, 8 * ((3 * row + 1) % 16) + col + 1))
          << "D[" << row << "][" << col << "]";
    }
  }
}

// Each planted defect changes the same tile's D the way its description says (golden values by
// the same hand derivation, with the defect applied to it).
TEST(WarpMmaEmulator, MutantsChangeDAsTheirPointsSay) {
  const auto run = [](const char* points) {
    Call x = OneHotTile();
    const auto m = emulator::ParseMutant(points);
    EXPECT_TRUE(m.ok()) << m.error();
    std::string error;
    EXPECT_EQ(x.Run(&error, "sm_90a", m.value()), TCFUZZ_OK) << error;
    return x;
  };
  const auto want = [](int a_row, int col) {
    return static_cast<uint32_t>(
        oracle::num::FromDouble(Format::kF32, 8 * ((3 * a_row + 1) % 16) + col + 1));
  };
  const Call halves = run("fragment.a_row_halves=1");     // row r computes with A's row r ^ 8
  const Call shifted = run("fragment.b_column_shift=3");  // column j reads B column j + 3
  const Call zero = run("result.zero=1");
  const Call flipped = run("result.flip_bit=32");  // the sign of D[0][0]
  for (int row = 0; row < 16; ++row) {
    for (int col = 0; col < 8; ++col) {
      EXPECT_EQ(DAt(halves, row, col), want(row ^ 8, col));
      EXPECT_EQ(DAt(shifted, row, col), want(row, (col + 3) % 8));
      EXPECT_EQ(DAt(zero, row, col), 0u);
      EXPECT_EQ(DAt(flipped, row, col), want(row, col) ^ (row == 0 && col == 0 ? 0x80000000u : 0));
    }
  }
  std::string error;
  Call x = OneHotTile();
  EXPECT_EQ(x.Run(&error), TCFUZZ_OK);  // no mutant: the tile as derived
  EXPECT_EQ(DAt(x, 3, 5), want(3, 5));
}

TEST(WarpMmaEmulator, MutantTextIsCheckedPointByPoint) {
  EXPECT_TRUE(emulator::ParseMutant("metadata.nibble_order=1,numerics.alignment_bits=-2").ok());
  for (const char* bad :
       {"", "nibble=1", "metadata.nibble_order", "metadata.nibble_order=2",
        "numerics.alignment_bits=-9", "result.zero=1,result.zero=1", "result.zero=x"}) {
    const auto m = emulator::ParseMutant(bad);
    EXPECT_FALSE(m.ok()) << bad;
    if (!m.ok()) {
      EXPECT_EQ(m.error().find('\n'), std::string::npos) << m.error();
    }
  }
  for (const auto& p : emulator::MutationPoints()) {  // every point's range, at both ends
    const auto with = [&](int64_t v) {
      return emulator::ParseMutant(std::string(p.name) + "=" + std::to_string(v)).ok();
    };
    EXPECT_TRUE(with(p.max)) << p.name;
    EXPECT_TRUE(with(p.min)) << p.name;
    EXPECT_FALSE(with(p.max + 1)) << p.name;
    EXPECT_FALSE(with(p.min - 1)) << p.name;
  }
}

TEST(WarpMmaEmulator, ASelectorPastTheFormFaultsAsTheH100Traps) {
  // SP4: f16 m16n8k32 with selector 2 or 3 traps (CUDA_ERROR_ILLEGAL_INSTRUCTION) on an H100.
  Call x;
  x.call = {.shape = "m16n8k32",
            .a_type = "f16",
            .b_type = "f16",
            .cd_type = "f32",
            .sparse = 1,
            .ordered_metadata = 1,
            .selector = 2,
            .warps = 1,
            .a_regs = 4,
            .b_regs = 4,
            .cd_regs = 4};
  x.a.assign(32 * 4, 0), x.b.assign(32 * 4, 0), x.c.assign(32 * 4, 0), x.e.assign(32, 0x4444);
  std::string error;
  EXPECT_EQ(x.Run(&error), TCFUZZ_FAULT);
  EXPECT_NE(error.find("selector 2"), std::string::npos) << error;
  x.call.selector = 1;
  EXPECT_EQ(x.Run(&error), TCFUZZ_OK) << error;
}

TEST(WarpMmaEmulator, WhatNoDeviceExecutesIsUnsupportedWithTheReason) {
  Call x = DenseF16Call(1);
  std::string error;
  x.call.a_type = "f17";
  EXPECT_EQ(x.Run(&error), TCFUZZ_UNSUPPORTED);
  EXPECT_NE(error.find("f17"), std::string::npos) << error;
  x = DenseF16Call(1);
  x.call.b_regs = 4;
  EXPECT_EQ(x.Run(&error), TCFUZZ_UNSUPPORTED);
  EXPECT_NE(error.find("register counts"), std::string::npos) << error;
  x = DenseF16Call(1);
  x.call.shape = "m16n8k7";
  EXPECT_EQ(x.Run(&error), TCFUZZ_UNSUPPORTED);
  x = DenseF16Call(1);
  EXPECT_EQ(x.Run(&error, "sm_99z"), TCFUZZ_UNSUPPORTED);
}

// The H100's own D for every capture kept in corpus/: the emulator, given the registers the
// harness packs for the CUDA kernel, returns what the device returned.
template <class File, class Run>
void EveryCapture(const std::string& folder, Run run, int* compared, int* not_modelled) {
  for (const auto& entry : std::filesystem::directory_iterator(folder)) {
    const std::string path = entry.path().string();
    auto text = suites::ReadFile(path);
    ASSERT_TRUE(text.ok()) << text.error();
    auto doc = oracle::TextDoc::Parse(text.value());
    ASSERT_TRUE(doc.ok()) << path;
    run(path, doc.value(), compared, not_modelled);
  }
}

TEST(WarpMmaEmulator, ReturnsTheH100sDForEverySparseCapture) {
  int compared = 0, not_modelled = 0;
  EveryCapture<oracle::sparse::SparseCaseFile>(
      std::string(TCFUZZ_SOURCE_DIR) + "/corpus/sparse_mma/h100",
      [](const std::string& path, const oracle::TextDoc& doc, int* n, int* skipped) {
        auto f = oracle::sparse::SparseCaseFromDoc(doc);
        ASSERT_TRUE(f.ok()) << path << ": " << f.error();
        ASSERT_TRUE(f.value().observed) << path;
        const auto& t = f.value().tile;
        const bool exact =
            doc.Has("origin.mode") && gen::IsExact(doc.String("origin.mode").value());
        if (oracle::num::IsFloat(t.a_type) && !exact &&
            !suites::SparseParams(t, oracle::num::Gpu::kSm90)) {
          ++*skipped;  // no sm_90 row: the emulator computes it as if exact
          return;
        }
        const MmaSpSpec spec{
            t.form, f.value().op.variant, f.value().op.selector, t.a_type, t.b_type,
            t.cd,   t.satfinite};
        const MmaSpCase one{f.value().op, t};
        const PackedMmaSp p = PackMmaSp(spec, {&one, 1});
        const WarpMmaCall w = WarpMmaCallOf(spec, p);
        tcfuzz_warp_mma call = w.Call();
        std::vector<uint32_t> d(w.DWords());
        call.d = d.data();
        std::string error;
        ASSERT_EQ(emulator::ExecuteWarpMma(call, "sm_90a", &error), TCFUZZ_OK)
            << path << ": " << error;
        EXPECT_EQ(UnpackD(t.cd, d, 0), *f.value().observed) << path;
        ++*n;
      },
      &compared, &not_modelled);
  // 613 captures: every layout and integer case, and every float one the sm_90 row covers.
  EXPECT_GT(compared, 500);
  std::cout << compared << " sparse captures compared, " << not_modelled
            << " without an sm_90 row\n";
}

TEST(WarpMmaEmulator, ReturnsTheH100sDForEveryDenseCapture) {
  int compared = 0, not_modelled = 0;
  EveryCapture<oracle::mma::DenseCaseFile>(
      std::string(TCFUZZ_SOURCE_DIR) + "/corpus/dense_mma/h100",
      [](const std::string& path, const oracle::TextDoc& doc, int* n, int* skipped) {
        auto f = oracle::mma::DenseCaseFromDoc(doc);
        ASSERT_TRUE(f.ok()) << path << ": " << f.error();
        ASSERT_TRUE(f.value().observed) << path;
        const auto& t = f.value().tile;
        if (oracle::num::IsFloat(t.a_type) && !suites::DenseParams(t, oracle::num::Gpu::kSm90)) {
          ++*skipped;
          return;
        }
        const MmaDenseSpec spec{t.form, t.a_type, t.b_type, t.cd, t.satfinite};
        const PackedMmaDense p = PackMmaDense(spec, {&t, 1});
        const WarpMmaCall w = WarpMmaCallOf(spec, p);
        tcfuzz_warp_mma call = w.Call();
        std::vector<uint32_t> d(w.DWords());
        call.d = d.data();
        std::string error;
        ASSERT_EQ(emulator::ExecuteWarpMma(call, "sm_90a", &error), TCFUZZ_OK)
            << path << ": " << error;
        EXPECT_EQ(UnpackD(t.cd, d, 0), *f.value().observed) << path;
        ++*n;
      },
      &compared, &not_modelled);
  EXPECT_GE(compared, 12);
}

}  // namespace
}  // namespace tcfuzz::harness
