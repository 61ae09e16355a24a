// The form enumerator walks the oracle's tables and nothing else, and its neighbours each break
// the model whatever the target.
#include "generators/toolchain/ptx_form_gen.h"

#include <gtest/gtest.h>

#include <set>

#include "generators/core/random_source.h"
#include "oracle/mma/dense_mma.h"
#include "oracle/ptx/ptx_target.h"
#include "oracle/sparse/sparse_form.h"

namespace tcfuzz::gen {
namespace {

using oracle::ptx::Family;

bool Has(const std::vector<EnumeratedForm>& all, auto pred) {
  for (const auto& e : all) {
    if (e.mutation.empty() && pred(e.form)) return true;
  }
  return false;
}

TEST(PtxFormGen, KeysAreUniquePerVersionRule) {
  std::set<std::string> keys;
  for (const auto& e : EnumerateForms()) {
    const auto f = AtTarget(e, "sm_90a");
    EXPECT_TRUE(keys.insert(f.Key()).second) << f.Key();
  }
}

TEST(PtxFormGen, EveryTableRowIsEnumerated) {
  const auto all = EnumerateForms();
  for (const auto& sf : oracle::sparse::AllForms()) {
    for (Family fam : {Family::kMmaSp, Family::kMmaSpOrdered}) {
      if (sf.ordered_only && fam == Family::kMmaSp) continue;
      EXPECT_TRUE(Has(
          all,
          [&](const auto& f) { return f.family == fam && f.shape == sf.shape && f.a == sf.type; }))
          << oracle::ptx::FamilyName(fam) << " " << sf.Name();
      for (int sel = 0; sel <= sf.max_selector(); ++sel) {
        EXPECT_TRUE(Has(all,
                        [&](const auto& f) {
                          return f.family == fam && f.shape == sf.shape && f.a == sf.type &&
                                 f.selector == sel;
                        }))
            << sf.Name() << " selector " << sel;
      }
    }
  }
  for (const auto& df : oracle::mma::AllDenseForms()) {
    EXPECT_TRUE(Has(all, [&](const auto& f) {
      return f.family == Family::kMma && f.shape == df.shape && f.a == df.type;
    })) << df.Name();
  }
  for (const auto& wt : oracle::ptx::WgmmaTypes()) {
    for (Family fam : {Family::kWgmma, Family::kWgmmaSp}) {
      for (int n = 8; n <= 256; n += 8) {
        if (!oracle::ptx::WgmmaNLegal(wt.a, n)) continue;
        const std::string shape = "m64n" + std::to_string(n) + "k" +
                                  std::to_string(wt.k * (fam == Family::kWgmmaSp ? 2 : 1));
        EXPECT_TRUE(Has(all, [&](const auto& f) {
          return f.family == fam && f.shape == shape && f.a == wt.a;
        })) << shape;
      }
    }
  }
  for (Family fam :
       {Family::kTcgen05, Family::kTcgen05Sp, Family::kTcgen05Ws, Family::kTcgen05WsSp}) {
    for (int k = 0; k < 4; ++k) {
      EXPECT_TRUE(Has(all, [&](const auto& f) {
        return f.family == fam && f.kind == static_cast<oracle::ptx::Kind>(k);
      }));
    }
  }
}

TEST(PtxFormGen, NeighboursBreakTheModelOnEveryTarget) {
  int neighbours = 0;
  for (const auto& e : EnumerateForms()) {
    if (e.mutation.empty()) continue;
    ++neighbours;
    for (const auto& t : oracle::ptx::AllTargets()) {
      const auto f = AtTarget(e, t.name);
      EXPECT_FALSE(oracle::ptx::ValidateForm(f, t.name).legal())
          << e.mutation << ": " << f.Key() << " on " << t.name;
    }
  }
  EXPECT_GT(neighbours, 100);
}

TEST(PtxFormGen, TableFormsAreLegalSomewhere) {
  for (const auto& e : EnumerateForms()) {
    if (!e.mutation.empty()) continue;
    bool somewhere = false;
    for (const auto& t : oracle::ptx::AllTargets()) {
      somewhere = somewhere || oracle::ptx::ValidateForm(AtTarget(e, t.name), t.name).legal();
    }
    EXPECT_TRUE(somewhere) << e.form.Key();
  }
}

TEST(PtxFormGen, AtTargetRaisesTheVersionToTheTargets) {
  EnumeratedForm e;
  e.form.family = Family::kMma;
  e.form.shape = "m16n8k16";
  EXPECT_EQ(AtTarget(e, "sm_80").ptx, 70);    // mma's own minimum
  EXPECT_EQ(AtTarget(e, "sm_120a").ptx, 87);  // sm_120a needs PTX 8.7
  e.pinned_version = true;
  e.form.ptx = 63;
  EXPECT_EQ(AtTarget(e, "sm_120a").ptx, 63);
}

TEST(PtxFormGen, DrawFormReachesEveryFamily) {
  RandomSource s(20261122);
  std::set<Family> seen;
  for (int i = 0; i < 2000; ++i) seen.insert(DrawForm(s).family);
  EXPECT_EQ(seen.size(), 9u);
}

}  // namespace
}  // namespace tcfuzz::gen
