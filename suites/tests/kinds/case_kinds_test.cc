// Every registered case kind (suites/kinds/case_kind.h), walked the same way: generated cases
// replay alone and pass their own checks, the text form is a fixed point, and the GPU kinds have
// every device half. A kind added to the table is covered here without a line of its own.
#include <gtest/gtest.h>

#include <set>

#include "generators/core/random_source.h"
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
