#include "suites/checks/zero_column_mask_checks.h"

#include <algorithm>
#include <set>
#include <string>

#include "oracle/core/text_format.h"

namespace tcfuzz::suites {
namespace {

using oracle::Verdict;
using oracle::tcgen05::DecodeZeroColumnMask;
using oracle::tcgen05::EncodeZeroColumnMask;
using oracle::tcgen05::Expand;
using oracle::tcgen05::SubMaskCount;
using oracle::tcgen05::ZcmCase;
using oracle::tcgen05::ZcmExpansion;
using oracle::tcgen05::ZeroColumnMask;

// Checks on the encoding and on the expansion, whatever the case's intent.
void CheckCommon(const ZcmCase& c, const Verdict& verdict, CheckFailures& out) {
  const ZeroColumnMask z = DecodeZeroColumnMask(c.desc);
  if (EncodeZeroColumnMask(z) != c.desc) {
    Fail(out, "round_trip",
         "encode(decode(desc)) = " + oracle::Hex(EncodeZeroColumnMask(z), 16) + " != desc");
  }
  if (oracle::tcgen05::Validate(c).RuleIds() != verdict.RuleIds()) {
    Fail(out, "validate_deterministic", "validate() gave two different verdicts");
  }
  for (const auto& violation : verdict.violations()) {
    if (oracle::FindRule(violation.rule->id) != violation.rule) {
      Fail(out, "rule_registered", "rule " + std::string(violation.rule->id) + " not in registry");
    }
  }

  const std::optional<ZcmExpansion> e = Expand(c.desc, c.shape.m, c.shape.n);
  const int k = SubMaskCount(c.shape.m);
  const bool expandable = k != 0 && c.shape.n >= 1 && c.shape.n <= oracle::tcgen05::kMaxN;
  if (e.has_value() != expandable) {
    Fail(out, "expand_domain",
         std::string("expand() ") + (e ? "accepted" : "rejected") +
             " M = " + std::to_string(c.shape.m) + ", N = " + std::to_string(c.shape.n));
    return;
  }
  if (!e) return;
  const int n = c.shape.n;
  // Sub-mask boundaries at N/k multiples (N/2 for M = 64; N/4, N/2, 3N/4 for M = 32).
  for (int i = 0; i <= k; ++i) {
    if (e->boundary[i] != i * n / k) {
      Fail(out, "sub_mask_boundary",
           "sub-mask " + std::to_string(i) + " starts at column " + std::to_string(e->boundary[i]));
    }
  }
  for (std::size_t j = static_cast<std::size_t>(n); j < e->mask.size(); ++j) {
    if (e->mask[j]) Fail(out, "mask_width", "mask bit " + std::to_string(j) + " set beyond N");
  }
  if (e->MaskHex().size() != 2 + static_cast<std::size_t>((n + 3) / 4)) {
    Fail(out, "mask_hex_width", "mask hex has " + std::to_string(e->MaskHex().size()) + " chars");
  }
  // nzm = 0: all zeros whatever the other fields hold.
  if (z.non_zero_mask == 0 && e->mask.any()) {
    Fail(out, "nzm_zero", "non_zero_mask = 0 but mask is " + e->MaskHex());
  }
  // The naive run walk agrees with Expand(), sub-mask by sub-mask.
  if (z.non_zero_mask != 0) {
    for (int i = 0; i < k; ++i) {
      const int lo = e->boundary[i];
      const std::vector<int> walked = WalkSubMask(z, i, e->boundary[i + 1] - lo);
      for (std::size_t j = 0; j < walked.size(); ++j) {
        if (e->mask[lo + j] != (walked[j] != 0)) {
          Fail(out, "run_walk",
               "column " + std::to_string(lo + j) + " of sub-mask " + std::to_string(i) +
                   " disagrees with the run walk");
          break;
        }
      }
    }
    // Periodicity: within a sub-mask, bit j equals bit j + period.
    const int period = z.skip_span + z.use_span + 2;
    for (int i = 0; i < k; ++i) {
      for (int j = e->boundary[i]; j + period < e->boundary[i + 1]; ++j) {
        if (e->mask[j] != e->mask[j + period]) {
          Fail(
              out, "periodic",
              "column " + std::to_string(j) + " differs from column " + std::to_string(j + period));
          break;
        }
      }
    }
  }
  // The shift never changes mask bits, only which B column feeds each D column.
  ZeroColumnMask unshifted = z;
  unshifted.column_shift = 0;
  const auto e0 = Expand(EncodeZeroColumnMask(unshifted), c.shape.m, n);
  if (!e0 || e0->mask != e->mask) Fail(out, "shift_invariant", "column shift changed the mask");
  // Fields of sub-masks the shape does not use change nothing.
  ZeroColumnMask unused = z;
  for (int i = k; i < 4; ++i) {
    unused.start_count[i] ^= 0x5a;
    unused.first_span[i] ^= 1;
  }
  const auto eu = Expand(EncodeZeroColumnMask(unused), c.shape.m, n);
  if (!eu || eu->mask != e->mask) Fail(out, "unused_sub_masks", "unused sub-mask fields mattered");
  for (int j = 0; j < n; ++j) {
    const int want = e->mask[j] ? -1 : j + z.column_shift;
    if (e->b_column[j] != want) {
      Fail(out, "b_columns",
           "D column " + std::to_string(j) + " reads B column " + std::to_string(e->b_column[j]) +
               ", expected " + std::to_string(want));
      break;
    }
  }
}

}  // namespace

std::vector<int> WalkSubMask(const ZeroColumnMask& z, int sub_mask, int width) {
  // Emit runs from the start of the pattern, dropping the first sc positions.
  const bool examples =
      oracle::spec_choice::kZcmSpans == oracle::spec_choice::ZcmSpanMeaning::kWorkedExamples;
  const int ones = (examples ? z.skip_span : z.use_span) + 1;  // spec choice Z1
  const int zeros = (examples ? z.use_span : z.skip_span) + 1;
  int value = z.first_span[sub_mask] != 0 ? 1 : 0;
  int left = value ? ones : zeros;
  std::vector<int> bits;
  const int skip = z.start_count[sub_mask] % (ones + zeros);  // spec choice Z2
  for (int pos = 0; static_cast<int>(bits.size()) < width; ++pos) {
    if (pos >= skip) bits.push_back(value);
    if (--left == 0) {
      value ^= 1;
      left = value ? ones : zeros;
    }
  }
  return bits;
}

CheckFailures CheckZcm(const gen::GeneratedZcm& g) {
  CheckFailures out;
  const Verdict verdict = oracle::tcgen05::Validate(g.c);
  CheckCommon(g.c, verdict, out);
  CheckIntent(g.intent, g.broken, verdict, out);
  return out;
}

CheckFailures CheckZcmFile(const oracle::tcgen05::ZcmCaseFile& f) {
  CheckFailures out;
  const Verdict verdict = oracle::tcgen05::Validate(f.c);
  CheckCommon(f.c, verdict, out);
  CheckExpectedRules(f.expect.rules, verdict, out);
  if (f.expect.mask_hex) {
    const auto e = Expand(f.c.desc, f.c.shape.m, f.c.shape.n);
    const std::string got = e ? e->MaskHex() : "none";
    if (got != *f.expect.mask_hex) {
      Fail(out, "expect_mask", "expected mask " + *f.expect.mask_hex + ", oracle says " + got);
    }
  }
  return out;
}

}  // namespace tcfuzz::suites
