// The tcgen05 descriptor kernels (dense, .ws, .sp): assembled for sm_100a and sm_103a by
// nvJitLink here (no GPU), holding the intended forms, rejected where tcgen05 does not exist
// (the device run is gpu/tcgen05_hw_test.cc).
#include <gtest/gtest.h>

#include <algorithm>

#include "generators/core/random_source.h"
#include "generators/smem/descriptor_tile_gen.h"
#include "harness/nvjitlink.h"
#include "harness/tcgen05_exec.h"
#include "oracle/ptx/instruction_form.h"
#include "suites/tests/support/test_seed.h"

namespace tcfuzz::harness {
namespace {

using oracle::num::Format;

TEST(Tcgen05Kernel, AssemblesForBlackwellWithTheIntendedForms) {
  const auto link = NvJitLink::Load();
  if (!link.ok()) GTEST_SKIP() << link.error();
  // dense, .ws (with the mask), .sp (metadata in tensor memory)
  for (const auto& [ws, sparse] :
       {std::pair{false, false}, std::pair{true, false}, std::pair{false, true}}) {
    for (Format t : {Format::kF16, Format::kBF16, Format::kTF32, Format::kE4M3, Format::kS8}) {
      for (int n : {8, 64, 128}) {
        Tcgen05Spec s{t,         t,     t == Format::kS8 ? Format::kS32 : Format::kF32, n, ws,
                      64 * 1024, sparse};
        const std::string ptx = Tcgen05Module(s);  // sm_100a
        const std::string opcode = ws       ? "tcgen05.mma.ws"
                                   : sparse ? "tcgen05.mma.sp"
                                            : "tcgen05.mma";
        for (const std::string& form :
             {std::string("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32"),
              opcode + ".cta_group::1.kind::" +
                  std::string(oracle::ptx::KindName(oracle::ptx::Tcgen05KindOf(t))),
              std::string("tcgen05.commit.cta_group::1.mbarrier::arrive::one"),
              "tcgen05.ld.sync.aligned.32x32b.x" + std::to_string(n),
              std::string("tcgen05.dealloc.cta_group::1")}) {
          EXPECT_NE(ptx.find(form), std::string::npos) << form;
        }
        EXPECT_EQ(ptx.find("%sd, %mask;") != std::string::npos,
                  ws);  // the zero-column mask operand on .ws only
        // .sp: the metadata operand, stored into tensor memory by every thread before the MMA.
        EXPECT_EQ(ptx.find("%db, [%tmeta], %idesc") != std::string::npos, sparse);
        EXPECT_EQ(ptx.find("tcgen05.st.sync.aligned.32x32b.x2.b32") != std::string::npos, sparse);
        // Accepted where the oracle's form model says the form exists (kind::i8 is not on sm_103a).
        oracle::ptx::PtxForm form;
        form.family = ws       ? oracle::ptx::Family::kTcgen05Ws
                      : sparse ? oracle::ptx::Family::kTcgen05Sp
                               : oracle::ptx::Family::kTcgen05;
        form.kind = t == Format::kS8     ? oracle::ptx::Kind::kI8
                    : t == Format::kTF32 ? oracle::ptx::Kind::kTf32
                    : t == Format::kE4M3 ? oracle::ptx::Kind::kF8f6f4
                                         : oracle::ptx::Kind::kF16;
        form.zero_column_mask = ws;
        form.ptx = 88;
        for (const char* target : {"sm_100a", "sm_103a"}) {
          const auto r = link.value()->Assemble(Tcgen05Module(s, target), target);
          EXPECT_EQ(r.accepted, oracle::ptx::ValidateForm(form, target).legal())
              << Tcgen05Instruction(s) << " on " << target << ": " << r.diagnostic;
        }
      }
    }
  }
  // §9.7.16.10.9: no tcgen05 before Blackwell.
  EXPECT_FALSE(link.value()->Assemble(Tcgen05Module({}, "sm_90a"), "sm_90a").accepted);
}

// A launch's tiles share one module: a batch mixing N or dense and .sp is refused on the host,
// and the worker's grouping key tells them apart. A .sp tile's record carries the sparse bit
// and selector in its instruction descriptor (Table 42 bits 2 and 0-1) and its rows' metadata.
TEST(Tcgen05Kernel, SparseRecordsAndBatchesThatShareAModule) {
  gen::RandomSource s(test::Seed());
  gen::GeneratedTile sp = gen::DrawTcgen05SpTile(s);
  gen::GeneratedTile dense = gen::DrawTcgen05Tile(s, false);
  while (dense.tile.n == sp.tile.n) dense = gen::DrawTcgen05Tile(s, false);
  EXPECT_NE(Tcgen05BatchKey(Tcgen05SpecOf(sp.tile)), Tcgen05BatchKey(Tcgen05SpecOf(dense.tile)));
  const oracle::tile::DescriptorTile* mixed[] = {&sp.tile, &dense.tile};
  const auto refused = PrepareTcgen05(Tcgen05SpecOf(sp.tile), mixed, "sm_100a");
  ASSERT_FALSE(refused.ok());
  EXPECT_TRUE(IsContextSafeError(refused.error())) << refused.error();
  const oracle::tile::DescriptorTile* one[] = {&sp.tile};
  const auto p = PrepareTcgen05(Tcgen05SpecOf(sp.tile), one, "sm_100a");
  ASSERT_TRUE(p.ok()) << p.error();
  const std::vector<uint32_t>& record = p.value().launch.inputs.at(1);
  ASSERT_EQ(record.size(), 8u + 256u);
  const uint32_t idesc = record[6];
  EXPECT_EQ((idesc >> 2) & 1, 1u);
  EXPECT_EQ(static_cast<int>(idesc & 3), sp.tile.sparse->selector);
  const std::vector<uint32_t> meta = oracle::tile::Tcgen05MetadataColumns(*sp.tile.sparse);
  EXPECT_TRUE(std::equal(meta.begin(), meta.end(), record.begin() + 8));
}

// A .ws tile's instruction descriptor admits its mask's column shift with the smallest limit
// (Table 42 bits 30-31: 0 none, 1 8 columns, 2 16, 3 32; Table 45 column shift at bits 56-61): a
// descriptor whose max shift is below the mask's breaks zcm.shift_over_idesc_max.
TEST(Tcgen05Kernel, WsDescriptorAdmitsTheMasksShift) {
  gen::RandomSource s(test::Seed());
  gen::GeneratedTile ws = gen::DrawTcgen05Tile(s, true);
  for (const auto& [shift, code] : {std::pair{0u, 0u}, {5u, 1u}, {8u, 1u}, {9u, 2u}, {20u, 3u}}) {
    ws.tile.zero_column_mask = uint64_t{shift} << 56;
    const oracle::tile::DescriptorTile* one[] = {&ws.tile};
    const auto p = PrepareTcgen05(Tcgen05SpecOf(ws.tile), one, "sm_100a");
    ASSERT_TRUE(p.ok()) << p.error();
    const uint32_t idesc = p.value().launch.inputs.at(1).at(6);
    EXPECT_EQ(idesc >> 30, code) << "column shift " << shift;
  }
}

}  // namespace
}  // namespace tcfuzz::harness
