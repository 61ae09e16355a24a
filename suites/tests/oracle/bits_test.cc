// Field tables: get/put at every position and width, and the layout checks catch overlaps,
// gaps and fields outside the word.
#include "oracle/core/bits.h"

#include <gtest/gtest.h>

namespace tcfuzz::oracle {
namespace {

TEST(Field, GetPutEveryPositionAndWidth) {
  for (int lsb = 0; lsb < 64; ++lsb) {
    for (int msb = lsb; msb < 64; ++msb) {
      const Field f{"f", lsb, msb, "test"};
      const uint64_t background = 0xa5a5a5a5a5a5a5a5ull;
      const uint64_t value = 0x123456789abcdef1ull & f.value_mask();
      const uint64_t word = f.Put(background, value);
      ASSERT_EQ(f.Get(word), value) << lsb << ".." << msb;
      // Bits outside the field are untouched.
      ASSERT_EQ(word & ~f.word_mask(), background & ~f.word_mask()) << lsb << ".." << msb;
      ASSERT_EQ(f.width(), msb - lsb + 1);
    }
  }
}

TEST(Field, PutDropsValueBitsWiderThanTheField) {
  const Field f{"f", 4, 6, "test"};
  EXPECT_EQ(f.Put(0, 0xff), 0x70u);
  EXPECT_FALSE(f.Fits(8));
  EXPECT_TRUE(f.Fits(7));
  EXPECT_EQ(f.max_value(), 7u);
}

TEST(FieldTable, DetectsOverlapGapAndOutOfWord) {
  constexpr std::array<Field, 2> overlap = {Field{"a", 0, 7, ""}, Field{"b", 7, 15, ""}};
  constexpr std::array<Field, 2> gap = {Field{"a", 0, 6, ""}, Field{"b", 8, 15, ""}};
  constexpr std::array<Field, 2> tiled = {Field{"a", 0, 7, ""}, Field{"b", 8, 15, ""}};
  constexpr std::array<Field, 1> outside = {Field{"a", 10, 16, ""}};
  constexpr std::array<Field, 1> reversed = {Field{"a", 5, 4, ""}};
  static_assert(!FieldsDisjoint(overlap, 16));
  static_assert(FieldsDisjoint(gap, 16) && !FieldsCoverWord(gap, 16));
  static_assert(IsCompleteLayout(tiled, 16));
  static_assert(!FieldsDisjoint(outside, 16));
  static_assert(!FieldsDisjoint(reversed, 16));
  static_assert(IsCompleteLayout(std::array<Field, 1>{Field{"all", 0, 63, ""}}, 64));
  SUCCEED();
}

}  // namespace
}  // namespace tcfuzz::oracle
