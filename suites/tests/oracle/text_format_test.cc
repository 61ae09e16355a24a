// The text form: round trips, and every malformed input is a one-line error naming its line.
#include "oracle/core/text_format.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cstdio>
#include <vector>

namespace tcfuzz::oracle {
namespace {

const std::string kGood =
    "tcfuzz-text 1\n"
    "# a comment\n"
    "tool = tcfuzz 0.1.0\n"
    "\n"
    "kind = zero_column_mask\n"
    "m = 64\n"
    "desc = 0x00ff\n";

TEST(TextFormat, ParsesKeysValuesAndLines) {
  auto doc = TextDoc::Parse(kGood);
  ASSERT_TRUE(doc.ok()) << doc.error();
  EXPECT_EQ(doc.value().String("kind").value(), "zero_column_mask");
  EXPECT_EQ(doc.value().Uint("m", 1000).value(), 64u);
  EXPECT_EQ(doc.value().Uint("desc", ~uint64_t{0}).value(), 255u);
  EXPECT_EQ(doc.value().Find("m")->line, 6);
}

struct BadCase {
  std::string text;
  std::string error;  // exact one-line error
};

class TextFormatErrors : public ::testing::TestWithParam<BadCase> {};

TEST_P(TextFormatErrors, OneLineErrorWithLineNumber) {
  auto doc = TextDoc::Parse(GetParam().text);
  ASSERT_FALSE(doc.ok());
  EXPECT_EQ(doc.error(), GetParam().error);
  EXPECT_EQ(doc.error().find('\n'), std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(
    Malformed, TextFormatErrors,
    ::testing::Values(
        BadCase{"", "line 1: missing header 'tcfuzz-text 1'"},
        BadCase{"tcfuzz-text 2\n", "line 1: unsupported format version '2' (this tool reads 1)"},
        BadCase{"hello\n", "line 1: missing header 'tcfuzz-text 1'"},
        BadCase{"tcfuzz-text 1\ntool = x\nkind\n", "line 3: expected 'key = value'"},
        BadCase{"tcfuzz-text 1\ntool = x\ntool = y\n", "line 3: duplicate key 'tool'"},
        BadCase{"tcfuzz-text 1\nTool = x\n",
                "line 2: key 'Tool' has characters outside [a-z0-9_.]"},
        BadCase{"tcfuzz-text 1\n = x\n", "line 2: empty key"},
        BadCase{std::string("tcfuzz-text 1\ntool = a") + '\0' + "b\n",
                "line 2: control character in text form"},
        BadCase{"tcfuzz-text 1\ntool = " + std::string(5000, 'x') + "\n",
                "line 2: line longer than 4096 characters"},
        BadCase{"tcfuzz-text 1\nkind = k\n", "missing required key 'tool'"},
        BadCase{"tcfuzz-text 1\ntool = t\n", "missing required key 'kind'"}));

TEST(TextFormat, TypedAccessErrorsNameTheLine) {
  auto doc =
      TextDoc::Parse("tcfuzz-text 1\ntool = t\nkind = k\nm = 0x\nn = 12z\nb = 2\nbig = 300\n");
  ASSERT_TRUE(doc.ok()) << doc.error();
  EXPECT_EQ(doc.value().Uint("m", 10).error(), "line 4: m: '0x' is not a number");
  EXPECT_EQ(doc.value().Uint("n", 10).error(), "line 5: n: '12z' is not a number");
  EXPECT_EQ(doc.value().Bool("b").error(), "line 6: b: expected 0 or 1, got '2'");
  EXPECT_EQ(doc.value().Uint("big", 255).error(), "line 7: big: 300 exceeds the maximum 255");
  EXPECT_EQ(doc.value().Uint("absent", 1).error(), "missing required key 'absent'");
  EXPECT_EQ(ParseUint("18446744073709551616", ~uint64_t{0}).error(),
            "number '18446744073709551616' does not fit in 64 bits");
  // A hex number is quoted as written, 0x and all (issue 33: the message dropped its 0x).
  EXPECT_EQ(ParseUint("0x1ffffffffffffffff", ~uint64_t{0}).error(),
            "number '0x1ffffffffffffffff' does not fit in 64 bits");
  EXPECT_EQ(ParseUint("0x-1", ~uint64_t{0}).error(), "'0x-1' is not a number");
}

TEST(TextFormat, WriterHeaderCarriesFormatAndToolVersion) {
  TextWriter w("thing");
  w.AddHex("desc", 0xab, 4).AddInt("m", -3);
  EXPECT_EQ(w.str(), "tcfuzz-text 1\ntool = " + std::string(ToolVersion()) +
                         "\nkind = thing\ndesc = 0x00ab\nm = -3\n");
}

// Whatever the bytes, parsing returns a value or a one-line error; it never crashes.
RC_GTEST_PROP(TextFormatProps, ArbitraryInputNeverCrashes, (const std::string& body)) {
  auto doc = TextDoc::Parse("tcfuzz-text 1\n" + body);
  if (!doc.ok()) RC_ASSERT(doc.error().find('\n') == std::string::npos);
}

// Hex digits are C's "%0*llx" (printf, what Hex was written with before, is the reference): lower
// case, zero-padded to the width, a wider value whole. HexRow is those digits without "0x", one
// space between.
RC_GTEST_PROP(TextFormatProps, HexIsPrintfsPaddedHex, (uint64_t value, uint8_t shift)) {
  const uint64_t v = value >> (shift % 64);
  const int digits = *rc::gen::inRange(0, 18);
  char want[40];
  std::snprintf(want, sizeof want, "0x%0*llx", digits, static_cast<unsigned long long>(v));
  RC_ASSERT(Hex(v, digits) == want);
  const std::vector<uint64_t> row = {v, 0, 0xabc};
  char want_row[80];
  std::snprintf(want_row, sizeof want_row, "%0*llx %0*llx %0*llx", digits,
                static_cast<unsigned long long>(v), digits, 0ull, digits, 0xabcull);
  RC_ASSERT(HexRow(row, digits) == want_row);
}

TEST(TextFormat, HexEdges) {
  EXPECT_EQ(Hex(0, 0), "0x0");
  EXPECT_EQ(Hex(0, 2), "0x00");
  EXPECT_EQ(Hex(0xAB, 1), "0xab");
  EXPECT_EQ(Hex(~uint64_t{0}, 16), "0xffffffffffffffff");
  EXPECT_EQ(Hex(0x1f, 5), "0x0001f");
  EXPECT_EQ(HexRow(std::vector<uint64_t>{}, 4), "");
}

// Written values read back unchanged.
RC_GTEST_PROP(TextFormatProps, WriterOutputParsesBack, (uint64_t value, int64_t number)) {
  TextWriter w("k");
  w.AddHex("v", value, 16).AddInt("i", number);
  auto doc = TextDoc::Parse(w.str());
  RC_ASSERT(doc.ok());
  RC_ASSERT(doc.value().Uint("v", ~uint64_t{0}).value() == value);
  RC_ASSERT(doc.value().String("i").value() == std::to_string(number));
}

// Issue 18: a file of many keys parses in time linear in its size (a set of keys, not a scan per
// line), a duplicate among them is still found, and a header that only starts like ours is
// reported as a missing header.
TEST(TextFormat, ManyKeysAndLookalikeHeaders) {
  std::string text = "tcfuzz-text 1\ntool = t\nkind = k\n";
  for (int i = 0; i < 80000; ++i)
    text += "x" + std::to_string(i) + " = " + std::to_string(i) + "\n";
  const auto doc = TextDoc::Parse(text);
  ASSERT_TRUE(doc.ok()) << doc.error();
  EXPECT_EQ(doc.value().String("x79999").value(), "79999");
  EXPECT_EQ(doc.value().entries().size(), 80002u);
  EXPECT_EQ(TextDoc::Parse(text + "x123 = again\n").error(), "line 80004: duplicate key 'x123'");
  EXPECT_EQ(TextDoc::Parse("tcfuzz-textual 1\ntool = t\nkind = k\n").error(),
            "line 1: missing header 'tcfuzz-text 1'");
}

}  // namespace
}  // namespace tcfuzz::oracle

namespace tcfuzz::oracle {
namespace {

// Issue 33: invalid UTF-8 was echoed raw into messages, and long values made error lines of
// 128 KiB. Valid UTF-8 stays as it is; every other byte and control character is escaped.
TEST(TextFormat, OneLineEscapesInvalidUtf8AndBoundsLength) {
  EXPECT_EQ(OneLine("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"),
            "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
  EXPECT_EQ(OneLine("a\xff"
                    "b"),
            "a\\xffb");
  EXPECT_EQ(OneLine("\xc3"), "\\xc3");                             // truncated sequence
  EXPECT_EQ(OneLine("\xc0\xaf"), "\\xc0\\xaf");                    // overlong '/'
  EXPECT_EQ(OneLine("\xed\xa0\x80"), "\\xed\\xa0\\x80");           // a surrogate
  EXPECT_EQ(OneLine("\xf4\x90\x80\x80"), "\\xf4\\x90\\x80\\x80");  // past U+10FFFF
  EXPECT_EQ(OneLine("\x80x"), "\\x80x");                           // a stray continuation byte
  EXPECT_EQ(OneLine("a\nb\x01"), "a\\nb\\x01");
  EXPECT_EQ(OneLine(std::string(5000, 'x'), 1000), std::string(1000, 'x') + "...");
  // Cut at a character's start, never inside a UTF-8 sequence.
  std::string euros;
  for (int i = 0; i < 500; ++i) euros += "\xe2\x82\xac";
  EXPECT_EQ(OneLine(euros, 1000), euros.substr(0, 999) + "...");
}

// Issue 33: a message quoting a 128 KiB value was cut after its first 1000 bytes, so what was
// wrong (said after the value) never showed. The line keeps both ends.
TEST(TextFormat, ALongErrorLineKeepsWhatIsWrong) {
  const std::string value(128 << 10, 'x');
  const std::string line =
      ErrorLine("--tiler: '/tmp/" + value + "\n\xff' is not an executable file");
  EXPECT_EQ(line, "tcfuzz: error: --tiler: '/tmp/" + std::string(600 - 15, 'x') + " ... " +
                      std::string(380 - 33, 'x') + "\\n\\xff' is not an executable file\n");
  // Short lines are whole; the ends of a long one are cut at characters' starts.
  EXPECT_EQ(ErrorLine("a\tb"), "tcfuzz: error: a\\tb\n");
  std::string euros;
  for (int i = 0; i < 1000; ++i) euros += "\xe2\x82\xac";
  EXPECT_EQ(ErrorLine(euros),
            "tcfuzz: error: " + euros.substr(0, 600) + " ... " + euros.substr(0, 378) + "\n");
  // Nor an escape: the \x01 that would cross byte 600 is left out whole.
  EXPECT_EQ(ErrorLine(std::string(598, 'a') + "\x01" + std::string(2000, 'b')),
            "tcfuzz: error: " + std::string(598, 'a') + " ... " + std::string(380, 'b') + "\n");
}

}  // namespace
}  // namespace tcfuzz::oracle
