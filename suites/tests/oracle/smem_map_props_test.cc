// Properties of the shared-memory address map over generated layouts.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <set>
#include <span>
#include <string>
#include <vector>

#include "generators/core/rc_source.h"
#include "generators/smem/smem_descriptor_gen.h"
#include "oracle/smem/smem_case.h"
#include "oracle/smem/swizzle.h"

namespace tcfuzz::oracle::smem {
namespace {

// Within one swizzle atom (8 rows of one swizzle row's bytes, at a repeat-aligned address; 4 K
// rows for MN-major 128B with 32-byte atoms, PTX 9.1 Table 55) the map is a bijection onto the
// atom's bytes.
RC_GTEST_PROP(SmemMapProps, OneAtomIsABijectionOntoItsBytes, ()) {
  gen::RcSource s;
  static constexpr std::array<Swizzle, 5> kModes = {Swizzle::kNone, Swizzle::k32B, Swizzle::k64B,
                                                    Swizzle::k128B, Swizzle::k128B32BAtom};
  const Swizzle swz = s.Pick(std::span<const Swizzle>(kModes));
  const Major major = swz == Swizzle::k128B32BAtom || s.Coin() ? Major::kMN : Major::kK;
  static constexpr std::array<DType, 3> kTypes = {DType::kF16, DType::kE4M3, DType::kTF32};
  const DType t = s.Pick(std::span<const DType>(kTypes));
  const int row_bytes = SwizzleRowBytes(swz);
  const int elems_per_row = row_bytes * 8 / StorageBits(t);
  // The atom: 8 rows x one swizzle row, K-major (rows = 8, K = row bytes) or MN-major
  // (rows = elements per swizzle row, K = 8 elements; 8-bit types take two atoms along K, the
  // map's K extent being whole 16-byte units, tf32 in 4-row atoms two).
  const int kbytes = major == Major::kK ? row_bytes : std::max(16, StorageBits(t));
  const OperandView view{major, t, major == Major::kK ? 8 : elems_per_row, kbytes};
  const uint64_t krows = major == Major::kK || swz != Swizzle::k128B32BAtom ? 8 : 4;
  const uint64_t atoms =
      major == Major::kK ? 1 : static_cast<uint64_t>(kbytes) * 8 / StorageBits(t) / krows;
  const uint64_t atom = krows * static_cast<uint64_t>(row_bytes);
  const uint64_t start = 1024 * s.Below(200);
  const SmemMatrix m{start, major == Major::kK ? 16u : atom, atom, 0, false, swz};
  const AddressMap a = MapAddresses(m, view).value();
  std::set<uint64_t> bytes;
  const int elem_bytes = StorageBits(t) / 8;
  for (uint64_t bit : a.bits) {
    for (int b = 0; b < elem_bytes; ++b) bytes.insert(bit / 8 + b);
  }
  RC_ASSERT(bytes.size() == atoms * atom);
  RC_ASSERT(*bytes.begin() == start);
  RC_ASSERT(*bytes.rbegin() == start + atoms * atom - 1);
}

RC_GTEST_PROP(SmemMapProps, SwizzlingIsAnInvolution, ()) {
  gen::RcSource s;
  const uint64_t addr = s.Bits(18);
  const int base_offset = static_cast<int>(s.Below(8));
  for (Swizzle z :
       {Swizzle::kNone, Swizzle::k32B, Swizzle::k64B, Swizzle::k128B, Swizzle::k128B32BAtom}) {
    RC_ASSERT(SwizzleAddress(SwizzleAddress(addr, z, base_offset), z, base_offset) == addr);
    // And it never leaves the 128-byte row.
    RC_ASSERT(SwizzleAddress(addr, z, base_offset) / 128 == addr / 128);
  }
}

}  // namespace
}  // namespace tcfuzz::oracle::smem

namespace tcfuzz::oracle::smem {
namespace {

// Explain decodes once and answers what the three separate questions answer, for legal,
// rule-breaking and raw-bit descriptors (raw bits include invalid tcgen05 swizzle codes, which
// have no map).
RC_GTEST_PROP(SmemMapProps, ExplainAnswersAsValidateMapAndReadings, ()) {
  gen::RcSource s;
  static constexpr std::array<gen::Intent, 3> kIntents = {
      gen::Intent::kLegal, gen::Intent::kBreakOne, gen::Intent::kRawBits};
  const gen::GeneratedSmem g = gen::DrawSmem(s, s.Pick(std::span<const gen::Intent>(kIntents)));
  const Explanation e = Explain(g.c);
  RC_ASSERT(e.matrix == DecodeMatrix(g.c.arch, g.c.desc));
  const auto lines = [](const Verdict& v) {
    std::vector<std::string> out;
    for (const Violation& x : v.violations()) out.push_back(std::string(x.rule->id) + x.message);
    return out;
  };
  RC_ASSERT(lines(e.verdict) == lines(Validate(g.c)));
  const Result<AddressMap> map = Map(g.c);
  RC_ASSERT(e.map.ok() == map.ok());
  if (map.ok()) RC_ASSERT(e.map.value().bits == map.value().bits);
  RC_ASSERT(e.readings == ReadingsOf(g.c));
}

}  // namespace
}  // namespace tcfuzz::oracle::smem
