// Every registered case kind (suites/kinds/case_kind.h), walked the same way: generated cases
// replay alone and pass their own checks, the text form is a fixed point, and the GPU kinds have
// every device half. A kind added to the table is covered here without a line of its own.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "generators/ascend/tcube_tiling_gen.h"
#include "generators/core/random_source.h"
#include "generators/toolchain/ptx_form_gen.h"
#include "suites/engine/device_suite.h"
#include "suites/kinds/case_kind.h"
#include "suites/tests/support/test_seed.h"

namespace tcfuzz::suites {
namespace {

TEST(CaseKinds, NamesAreUniqueAndFound) {
  std::set<std::string_view> names;
  for (const CaseKind& k : CaseKinds()) {
    EXPECT_TRUE(names.insert(k.name).second) << k.name;
    EXPECT_EQ(FindCaseKind(k.name), &k);
    EXPECT_FALSE(k.what.empty()) << k.name;
    ASSERT_NE(k.replay, nullptr) << k.name;
    ASSERT_NE(k.reprint, nullptr) << k.name;
    ASSERT_NE(k.draw, nullptr) << k.name;
    // A kind runs on a device with all of it (run, repro) or with none; minimizers are optional.
    EXPECT_EQ(k.run_on_device != nullptr, k.emit_cu != nullptr) << k.name;
    if (k.minimize != nullptr) {
      EXPECT_NE(k.run_on_device, nullptr) << k.name;
    }
  }
  EXPECT_GE(names.size(), 5u);
  EXPECT_EQ(FindCaseKind("no_such_kind"), nullptr);
  const auto doc =
      oracle::TextDoc::Parse("tcfuzz-text 1\ntool = tcfuzz 0.1.0\nkind = no_such_kind\n");
  ASSERT_TRUE(doc.ok()) << doc.error();
  const auto k = KindOf("f.txt", doc.value());
  ASSERT_FALSE(k.ok());
  EXPECT_NE(
      k.error().find(
          "f.txt: no kind 'no_such_kind' (known: zero_column_mask, smem_descriptor, sparse_mma, "
          "dense_mma or wgmma_tile)"),
      std::string::npos)
      << k.error();
}

TEST(CaseKinds, GeneratedCasesReplayAloneAndPass) {
  gen::RandomSource s(test::Seed());
  for (const CaseKind& k : CaseKinds()) {
    for (int i = 0; i < 60; ++i) {
      const std::string text = k.draw(s);
      const auto doc = oracle::TextDoc::Parse(text);
      ASSERT_TRUE(doc.ok()) << k.name << ": " << doc.error() << "\n" << text;
      EXPECT_EQ(doc.value().String("kind").value(), k.name);
      const auto replayed = k.replay(doc.value());
      ASSERT_TRUE(replayed.ok()) << k.name << ": " << replayed.error() << "\n" << text;
      for (const CheckFailure& f : replayed.value().failures)
        ADD_FAILURE() << k.name << ": " << f.check << ": " << f.message;
      // The text form is a fixed point: written, read back and written again, the same text.
      const auto once = k.reprint(doc.value());
      ASSERT_TRUE(once.ok()) << k.name << ": " << once.error();
      const auto again = k.reprint(oracle::TextDoc::Parse(once.value()).value());
      ASSERT_TRUE(again.ok()) << k.name << ": " << again.error();
      EXPECT_EQ(again.value(), once.value()) << k.name;
    }
  }
}

// Every GPU suite's reproducer for a case (what the campaign writes when a case fails) is a file of
// its kind that replays alone, the same text each time it is described, and a fixed point of the
// text form: a case is reproducible from its file, whichever suite found it.
TEST(CaseKinds, EveryDeviceSuitesReproducerReplaysAlone) {
  const uint64_t seed = test::Seed();
  for (const DeviceSuite& ds : DeviceSuites()) {
    const CaseKind* k = FindCaseKind(ds.text_kind);
    ASSERT_NE(k, nullptr) << ds.name;
    for (const uint64_t index : {uint64_t{0}, uint64_t{12345}}) {
      const DescribedCase dc = ds.describe(seed, index, {}, oracle::num::Gpu::kSm90);
      EXPECT_EQ(ds.describe(seed, index, {}, oracle::num::Gpu::kSm90).text, dc.text) << ds.name;
      const auto doc = oracle::TextDoc::Parse(dc.text);
      ASSERT_TRUE(doc.ok()) << ds.name << ": " << doc.error();
      EXPECT_EQ(doc.value().String("kind").value(), ds.text_kind) << ds.name;
      const auto replayed = k->replay(doc.value());
      ASSERT_TRUE(replayed.ok()) << ds.name << ": " << replayed.error();
      const auto once = k->reprint(doc.value());
      ASSERT_TRUE(once.ok()) << ds.name << ": " << once.error();
      EXPECT_EQ(k->reprint(oracle::TextDoc::Parse(once.value()).value()).value(), once.value())
          << ds.name;
    }
  }
}

// FNV-1a of the texts, without their `tool =` line (the version is not the case).
uint64_t Fingerprint(const std::vector<std::string>& texts) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (const std::string& t : texts) {
    for (std::size_t at = 0; at < t.size();) {
      const std::size_t end = std::min(t.find('\n', at), t.size());
      if (t.compare(at, 7, "tool = ") != 0) {
        for (std::size_t i = at; i < end; ++i)
          h = (h ^ static_cast<unsigned char>(t[i])) * 0x100000001b3ull;
        h = (h ^ '\n') * 0x100000001b3ull;
      }
      at = end + 1;
    }
  }
  return h;
}

// A seed names the same cases in every build: the g++ and the clang (sanitizer) builds both hold
// these fingerprints of a fixed seed's draws, so an expression whose order of evaluation the
// compiler picks (two draws in one call's arguments) fails one of them. A deliberate change to a
// generator changes its line here (the message prints the new value).
TEST(CaseKinds, ASeedDrawsTheSameCasesInEveryBuild) {
  const std::map<std::string, uint64_t> want = {
      {"ascend tiling", 0x8f76c382e08d6ec9ull},
      {"device dense-mma", 0x87eadeef72548a17ull},
      {"device dense-mma-judged", 0x19fa7113bf6097e3ull},
      {"device smem-hw", 0xfb9fdd1a893ad83eull},
      {"device smem-hw-judged", 0x903a5381c8e130a1ull},
      {"device sparse-mma", 0x332e0e6ddb6f87a8ull},
      {"device sparse-mma-exact", 0x5d05fcad0a5e36e2ull},
      {"device sparse-mma-exact-f16k32", 0xc42ba7551976c4dull},
      {"device sparse-mma-judged", 0xdb30dba606b3a2deull},
      {"device tcgen05", 0xe8120c464fade442ull},
      {"device tcgen05-judged", 0x39d65568fb9d2cfeull},
      {"kind dense_mma", 0x9628e749a52322f1ull},
      {"kind smem_descriptor", 0x4363ef472d5f39dfull},
      {"kind sparse_mma", 0xc4ae870d608f833dull},
      {"kind wgmma_tile", 0xe80720dd103ee8e5ull},
      {"kind zero_column_mask", 0xd6fd1d0674846399ull},
      {"ptx form", 0x38584afee4a8749dull},
  };
  std::map<std::string, uint64_t> got;
  for (const CaseKind& k : CaseKinds()) {
    gen::RandomSource s(20261125);
    std::vector<std::string> texts;
    for (int i = 0; i < 200; ++i) texts.push_back(k.draw(s));
    got["kind " + std::string(k.name)] = Fingerprint(texts);
  }
  for (const DeviceSuite& ds : DeviceSuites()) {
    std::vector<std::string> texts;
    for (uint64_t index = 0; index < 64; ++index)
      texts.push_back(ds.describe(20261125, index * 7919, {}, oracle::num::Gpu::kSm90).text);
    got["device " + std::string(ds.name)] = Fingerprint(texts);
  }
  {
    gen::RandomSource s(20261125);
    std::vector<std::string> tilings, forms;
    for (int i = 0; i < 200; ++i) {
      const gen::GeneratedTiling g =
          gen::DrawTiling(s, i % 2 ? gen::Intent::kBreakOne : gen::Intent::kLegal);
      tilings.push_back(oracle::ascend::ToJson(g.tiling));
      const oracle::ptx::PtxForm f = gen::DrawForm(s);
      forms.push_back(f.Opcode() + " " + f.shape);
    }
    got["ascend tiling"] = Fingerprint(tilings);
    got["ptx form"] = Fingerprint(forms);
  }
  for (const auto& [name, value] : got) {
    const auto it = want.find(name);
    EXPECT_TRUE(it != want.end() && it->second == value)
        << "{\"" << name << "\", 0x" << std::hex << value << "ull},";
  }
}

// A file that holds something else than its kind says is a one-line error, not a crash.
TEST(CaseKinds, AFileOfTheWrongShapeIsAOneLineError) {
  for (const CaseKind& k : CaseKinds()) {
    const auto doc = oracle::TextDoc::Parse(
        "tcfuzz-text 1\ntool = tcfuzz 0.1.0\nkind = " + std::string(k.name) + "\n");
    ASSERT_TRUE(doc.ok());
    const auto replayed = k.replay(doc.value());
    ASSERT_FALSE(replayed.ok()) << k.name;
    EXPECT_EQ(replayed.error().find('\n'), std::string::npos) << k.name << ": " << replayed.error();
    EXPECT_FALSE(k.reprint(doc.value()).ok()) << k.name;
  }
}

}  // namespace
}  // namespace tcfuzz::suites
