// The one JSON reader: what it accepts is what nlohmann accepts, within a depth bound and without
// duplicate keys; what it refuses is one line, never a crash.
#include "oracle/core/json_reader.h"

#include <gtest/gtest.h>

namespace tcfuzz::oracle {
namespace {

TEST(JsonReader, ParsesWhatNlohmannDoes) {
  const auto j = ParseJson(R"({"a": [1, -2, 3.5, "x", null, true], "b": {"c": {}}})");
  ASSERT_TRUE(j.ok()) << j.error();
  EXPECT_EQ(j.value()["a"][0], 1);
  EXPECT_EQ(j.value()["a"][1], -2);
  EXPECT_EQ(j.value()["a"][3], "x");
  EXPECT_TRUE(j.value()["b"]["c"].is_object());
  EXPECT_TRUE(ParseJson("[]").ok());
  EXPECT_TRUE(ParseJson("  7 ").ok());
}

TEST(JsonReader, RefusesDepthDuplicatesAndGarbageWithOneLine) {
  EXPECT_TRUE(ParseJson(std::string(64, '[') + std::string(64, ']')).ok());
  const auto deep = ParseJson(std::string(65, '[') + std::string(65, ']'));
  ASSERT_FALSE(deep.ok());
  EXPECT_NE(deep.error().find("nested deeper than 64 levels"), std::string::npos) << deep.error();
  EXPECT_FALSE(ParseJson(std::string(1000000, '{')).ok());  // no recursion, no crash
  const auto dup = ParseJson(R"({"a": 1, "b": {"a": 2}, "a": 3})");
  ASSERT_FALSE(dup.ok());
  EXPECT_NE(dup.error().find("duplicate key \"a\""), std::string::npos) << dup.error();
  EXPECT_TRUE(ParseJson(R"({"a": {"a": {"a": 1}}})").ok());  // one key per object
  // A key's JSON escapes are characters: a duplicate "a\nb" was named with a raw newline, a
  // two-line error (summary_json_fuzzer, corpus/summary_json/regression/duplicate_key_newline).
  const auto two = ParseJson(R"({"a\nb": 1, "a\nb": 2})");
  ASSERT_FALSE(two.ok());
  EXPECT_EQ(two.error(), "not JSON: duplicate key \"a\\nb\"");
  for (const char* bad : {"", "{", "[1,]", "{\"a\" 1}", "nul", "\"\\u12\"", "1 2"}) {
    const auto r = ParseJson(bad);
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_EQ(r.error().find('\n'), std::string::npos) << r.error();
  }
}

}  // namespace
}  // namespace tcfuzz::oracle
