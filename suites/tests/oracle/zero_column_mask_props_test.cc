// Properties of the zero-column mask over generated descriptors (RapidCheck shrinks failures).
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "generators/core/rc_source.h"
#include "generators/tcgen05/zero_column_mask_gen.h"
#include "oracle/tcgen05/zero_column_mask.h"
#include "suites/checks/zero_column_mask_checks.h"

namespace tcfuzz::oracle::tcgen05 {
namespace {

int AnyM() { return *rc::gen::element(32, 64, 128); }
int AnyN() { return *rc::gen::resize(rc::kNominalSize, rc::gen::inRange(1, kMaxN + 1)); }
uint64_t AnyDesc() { return gen::RcSource().Bits(64); }

RC_GTEST_PROP(ZeroColumnMaskProps, DecodeEncodeRoundTrip, ()) {
  const uint64_t desc = AnyDesc();
  RC_ASSERT(EncodeZeroColumnMask(DecodeZeroColumnMask(desc)) == desc);
}

RC_GTEST_PROP(ZeroColumnMaskProps, NonZeroMaskClearMeansAllZeros, ()) {
  const uint64_t desc = AnyDesc() & ~zcm_field::kNonZeroMask.word_mask();
  const auto e = Expand(desc, AnyM(), AnyN());
  RC_ASSERT(e.has_value());
  RC_ASSERT(e->mask.none());
}

RC_GTEST_PROP(ZeroColumnMaskProps, EachSubMaskIsPeriodic, ()) {
  const uint64_t desc = AnyDesc();
  const ZeroColumnMask z = DecodeZeroColumnMask(desc);
  const auto e = Expand(desc, AnyM(), AnyN());
  const int period = z.skip_span + z.use_span + 2;
  for (int i = 0; i < e->sub_masks; ++i) {
    for (int j = e->boundary[i]; j + period < e->boundary[i + 1]; ++j) {
      RC_ASSERT(e->mask[j] == e->mask[j + period]);
    }
  }
}

RC_GTEST_PROP(ZeroColumnMaskProps, SubMaskBoundariesAtHalvesAndQuarters, ()) {
  const int n = *rc::gen::element(64, 128, 256);
  const auto e64 = Expand(AnyDesc(), 64, n);
  RC_ASSERT(e64->boundary[1] == n / 2);
  const auto e32 = Expand(AnyDesc(), 32, n);
  RC_ASSERT(e32->boundary[1] == n / 4 && e32->boundary[2] == n / 2 &&
            e32->boundary[3] == 3 * n / 4);
}

RC_GTEST_PROP(ZeroColumnMaskProps, ShiftNeverChangesMaskBits, ()) {
  const uint64_t desc = AnyDesc();
  const uint64_t other_shift = zcm_field::kColumnShift.Put(desc, gen::RcSource().Bits(6));
  const int m = AnyM(), n = AnyN();
  RC_ASSERT(Expand(desc, m, n)->mask == Expand(other_shift, m, n)->mask);
}

// Spec choice Z2 restated: start count sc shifts the sc = 0 pattern left by sc columns.
RC_GTEST_PROP(ZeroColumnMaskProps, StartCountIsAPhaseOffset, ()) {
  const uint64_t desc = AnyDesc() | zcm_field::kNonZeroMask.word_mask();
  const uint64_t sc = gen::RcSource().Below(256);
  const auto base = Expand(zcm_field::kStartCount0.Put(desc, 0), 128, 256);
  const auto moved = Expand(zcm_field::kStartCount0.Put(desc, sc), 128, 256);
  for (int j = 0; j + static_cast<int>(sc) < 256; ++j) {
    RC_ASSERT(moved->mask[j] == base->mask[j + sc]);
  }
}

// Sub-mask i depends only on sc_i, fs_i and the spans.
RC_GTEST_PROP(ZeroColumnMaskProps, SubMasksAreIndependent, ()) {
  const uint64_t desc = AnyDesc();
  const int m = *rc::gen::element(32, 64);
  const int n = AnyN();
  const int k = SubMaskCount(m);
  const int i = static_cast<int>(gen::RcSource().Below(static_cast<uint64_t>(k)));
  uint64_t other = desc;
  for (int s = 0; s < 4; ++s) {
    if (s == i) continue;
    other = zcm_field::kStartCount[s].Put(other, gen::RcSource().Bits(8));
    other = zcm_field::kFirstSpan[s].Put(other, gen::RcSource().Bits(1));
  }
  const auto a = Expand(desc, m, n), b = Expand(other, m, n);
  for (int j = a->boundary[i]; j < a->boundary[i + 1]; ++j) RC_ASSERT(a->mask[j] == b->mask[j]);
}

// Every invariant the campaigns check holds for generated cases of every intent.
RC_GTEST_PROP(ZeroColumnMaskProps, CampaignChecksHoldForEveryIntent, ()) {
  gen::RcSource s;
  const auto intent =
      *rc::gen::element(gen::Intent::kLegal, gen::Intent::kBreakOne, gen::Intent::kRawBits);
  const auto failures = suites::CheckZcm(gen::DrawZcm(s, intent));
  for (const auto& f : failures) RC_LOG() << f.check << ": " << f.message << "\n";
  RC_ASSERT(failures.empty());
}

}  // namespace
}  // namespace tcfuzz::oracle::tcgen05
