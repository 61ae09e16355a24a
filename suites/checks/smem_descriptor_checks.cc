#include "suites/checks/smem_descriptor_checks.h"

#include <algorithm>
#include <set>
#include <string>

#include "oracle/core/text_format.h"
#include "oracle/smem/swizzle.h"

namespace tcfuzz::suites {
namespace {

using namespace oracle::smem;
using oracle::Verdict;

std::string At(int r, int k) { return "(" + std::to_string(r) + "," + std::to_string(k) + ")"; }

// Checks on the decoding and on the map, whatever the intent.
void CheckCommon(const SmemCase& c, const Verdict& verdict, CheckFailures& out) {
  if (Validate(c).RuleIds() != verdict.RuleIds())
    Fail(out, "validate_deterministic", "two verdicts differ");
  const auto m = DecodeMatrix(c.arch, c.desc);
  if (!m) {
    if (!verdict.Violates("tcgen05.smem.swizzle_code")) {
      Fail(out, "undecodable_flagged", "an undecodable descriptor has no swizzle_code violation");
    }
    if (Map(c).ok()) Fail(out, "map_without_layout", "an undecodable descriptor produced a map");
    return;
  }
  // Decode -> encode -> decode is the identity on the fields a matrix carries.
  const Encoded e = EncodeMatrix(c.arch, *m);
  const auto again = DecodeMatrix(c.arch, e.desc);
  const bool representable = m->swizzle != Swizzle::k128B32BAtom;  // wgmma has no such mode
  if (representable && (!again || !(*again == *m) || !e.verdict.legal())) {
    Fail(out, "round_trip", "decode(encode(decode(desc))) differs from decode(desc)");
  }
  auto map = MapAddresses(*m, c.view);
  if (!map.ok()) {
    if (CheckView(c.view).ok())
      Fail(out, "map_total", "map failed on a usable view: " + map.error());
    return;
  }
  const AddressMap& a = map.value();
  // A legal verdict always yields an in-range map.
  if (verdict.legal()) {
    for (uint64_t bit : a.bits) {
      if (bit / 8 >= kSmemWindowBytes) {
        Fail(out, "legal_in_range",
             "legal descriptor maps an element to byte " + oracle::Hex(bit / 8, 6));
        break;
      }
    }
  }
  // The swizzle is an involution on every address it produced.
  for (std::size_t i = 0; i < a.bits.size(); i += 7) {
    const uint64_t b = a.bits[i] / 8;
    if (SwizzleAddress(SwizzleAddress(b, m->swizzle, m->base_offset), m->swizzle, m->base_offset) !=
        b) {
      Fail(out, "swizzle_involution", "swizzle applied twice moved byte " + oracle::Hex(b, 5));
      break;
    }
  }
  // The same matrix under the other encoding maps identically (wgmma <-> tcgen05).
  if (representable && !m->lbo_absolute) {
    const Arch other = c.arch == Arch::kSm90a ? Arch::kSm100a : Arch::kSm90a;
    const auto m2 = DecodeMatrix(other, EncodeMatrix(other, *m).desc);
    auto map2 = m2 ? MapAddresses(*m2, c.view) : oracle::Result<AddressMap>::Fail("no decode");
    if (!map2.ok() || map2.value().bits != a.bits) {
      Fail(out, "encodings_agree", "wgmma and tcgen05 encodings of one layout map differently");
    }
  }
}

// Checks that need the layout the case was built from.
void CheckLayout(const gen::GeneratedSmem& g, const AddressMap& a, CheckFailures& out) {
  // No two elements share a bit.
  std::vector<uint64_t> sorted = a.bits;
  std::sort(sorted.begin(), sorted.end());
  const auto dup = std::adjacent_find(sorted.begin(), sorted.end());
  if (dup != sorted.end()) {
    Fail(out, "injective", "two elements share bit " + oracle::Hex(*dup, 7));
    return;
  }
  const auto m = *DecodeMatrix(g.c.arch, g.c.desc);
  // Moving the pattern by whole 128-byte rows, with the base offset the PTX formula gives,
  // moves every element by the same amount.
  if (g.c.pattern_start && m.swizzle != Swizzle::kNone && !m.lbo_absolute) {
    const uint64_t delta = 128;
    SmemMatrix moved = m;
    moved.start += delta;
    moved.base_offset = BaseOffsetFor(m.swizzle, *g.c.pattern_start + delta);
    auto mm = MapAddresses(moved, g.c.view);
    for (std::size_t i = 0; mm.ok() && i < a.bits.size(); ++i) {
      if (mm.value().bits[i] != a.bits[i] + delta * 8) {
        Fail(out, "translation",
             "moving the pattern by 128 bytes did not move element " + std::to_string(i) +
                 " by 128 bytes");
        break;
      }
    }
  }
  // K-advance: starting 16 bytes further into the swizzle row shows the next 16 bytes of K.
  const int row_bytes = SwizzleRowBytes(m.swizzle);
  if (g.c.view.major == Major::kK && m.swizzle != Swizzle::kNone && !m.lbo_absolute &&
      g.k_advance + static_cast<uint64_t>(g.c.view.kbytes) + 16 <=
          static_cast<uint64_t>(row_bytes)) {
    SmemMatrix adv = m;
    adv.start += 16;
    auto ma = MapAddresses(adv, g.c.view);
    const int step = 128 / StorageBits(g.c.view.dtype);  // elements per 16 bytes
    for (int r = 0; ma.ok() && r < a.rows; ++r) {
      for (int k = 0; k + step < a.cols; ++k) {
        if (ma.value().Bit(r, k) != a.Bit(r, k + step)) {
          Fail(out, "k_advance",
               "start + 16 B: element " + At(r, k) + " is not old " + At(r, k + step));
          return;
        }
      }
    }
  }
}

}  // namespace

CheckFailures CheckSmem(const gen::GeneratedSmem& g) {
  CheckFailures out;
  const Verdict verdict = Validate(g.c);
  CheckCommon(g.c, verdict, out);
  CheckIntent(g.intent, g.broken, verdict, out);
  if (g.intent == gen::Intent::kLegal) {
    auto map = Map(g.c);
    if (!map.ok()) {
      Fail(out, "legal_maps", "legal case has no map: " + map.error());
    } else if (g.layout) {
      CheckLayout(g, map.value(), out);
    }
  }
  return out;
}

CheckFailures CheckSmemFile(const SmemCaseFile& f) {
  CheckFailures out;
  const Verdict verdict = Validate(f.c);
  CheckCommon(f.c, verdict, out);
  CheckExpectedRules(f.expect_rules, verdict, out);
  return out;
}

}  // namespace tcfuzz::suites
