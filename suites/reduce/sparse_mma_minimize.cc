#include "suites/reduce/sparse_mma_minimize.h"

#include <span>

#include "oracle/numerics/formats.h"
#include "suites/engine/worker_protocol.h"
#include "suites/reduce/shrinker.h"

namespace tcfuzz::suites {

using namespace oracle::sparse;

namespace {

// A value of the case: which operand and where.
struct Slot {
  char operand;  // 'a', 'b', 'c'
  std::size_t index;
};

uint64_t Get(const SparseCaseFile& k, Slot s) {
  return s.operand == 'a'   ? k.tile.a[s.index]
         : s.operand == 'b' ? k.tile.b[s.index]
                            : k.tile.c[s.index];
}

void Set(SparseCaseFile& k, Slot s, uint64_t v) {
  if (s.operand == 'a') k.tile.a[s.index] = v;
  if (s.operand == 'b') k.tile.b[s.index] = v;
  if (s.operand == 'c') k.tile.c[s.index] = static_cast<uint32_t>(v);
}

oracle::num::Format TypeOf(const SparseCaseFile& k, char operand) {
  return operand == 'a' ? k.tile.a_type : operand == 'b' ? k.tile.b_type : k.tile.cd;
}

std::vector<Slot> NonZero(const SparseCaseFile& k) {
  std::vector<Slot> out;
  for (std::size_t i = 0; i < k.tile.a.size(); ++i) {
    if (k.tile.a[i]) out.push_back({'a', i});
  }
  for (std::size_t i = 0; i < k.tile.b.size(); ++i) {
    if (k.tile.b[i]) out.push_back({'b', i});
  }
  for (std::size_t i = 0; i < k.tile.c.size(); ++i) {
    if (k.tile.c[i]) out.push_back({'c', i});
  }
  return out;
}

}  // namespace

std::size_t NonZeroValues(const SparseCaseFile& k) { return NonZero(k).size(); }

MinimizeResult MinimizeSparse(const SparseCaseFile& start, const FailureSignature& signature,
                              const SparseEvaluator& evaluate, int budget) {
  Shrinker<SparseCaseFile> s(start, signature, evaluate, budget);
  // 1. Zero values: a whole operand, then halves of what is left, down to single values.
  s.ZeroInParts<Slot>(NonZero, [](SparseCaseFile& c, std::span<const Slot> slots) {
    for (const Slot& slot : slots) Set(c, slot, 0);
    return true;
  });
  // 2. Canonical metadata: every (row, chunk) towards the ascending pair (0,1), nibble 0x4.
  const SparseForm& f = *start.op.form;
  for (int row = 0; row < 16 && !s.spent(); ++row) {
    for (int chunk = 0; chunk < f.chunks_per_row(); ++chunk) {
      if (NibbleOf(s.current().op, row, chunk) == 0x4) continue;
      SparseCaseFile c = s.current();
      SetNibble(c.op, row, chunk, 0x4);
      c.tile.nibbles[static_cast<std::size_t>(row * f.chunks_per_row() + chunk)] = 0x4;
      if (!Validate(c.op).legal()) continue;
      s.Try(std::move(c));
    }
  }
  // 3. Magnitudes: each remaining value by one (or minus one, keeping its sign).
  for (const Slot slot : NonZero(s.current())) {
    if (s.spent()) break;
    const oracle::num::Format t = TypeOf(s.current(), slot.operand);
    const uint64_t bits = Get(s.current(), slot);
    uint64_t one = 1;
    if (oracle::num::IsFloat(t)) {
      one = oracle::num::FromDouble(t, oracle::num::Decode(t, bits).neg ? -1.0 : 1.0);
    } else if (oracle::num::DecodeInt(t, bits) < 0) {
      const int w = oracle::num::StorageBits(t);
      one = w >= 64 ? ~uint64_t{0} : (uint64_t{1} << w) - 1;  // -1
    }
    if (bits == one) continue;
    SparseCaseFile c = s.current();
    Set(c, slot, one);
    s.Try(std::move(c));
  }
  return {s.current(), s.tries(), s.accepted()};
}

}  // namespace tcfuzz::suites
