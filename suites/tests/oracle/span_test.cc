// tcfuzz::oracle::Span, the view the installed headers use in place of std::span (C++17 test trees
// include them): what it is made from, what it refuses, and what it gives back.
#include "oracle/core/span.h"

#include <gtest/gtest.h>

#include <array>
#include <span>
#include <type_traits>
#include <vector>

namespace tcfuzz::oracle {
namespace {

struct Base {
  int x;
};
struct Derived : Base {
  int y;
};

int Sum(Span<const int> s) {
  int total = 0;
  for (int v : s) total += v;
  return total;
}

TEST(Span, TakesEveryContiguousContainerAndGivesItsElements) {
  std::vector<int> v = {1, 2, 3, 4, 5};
  const std::array<int, 3> a = {10, 20, 30};
  int c[2] = {100, 200};
  EXPECT_EQ(Sum(v), 15);
  EXPECT_EQ(Sum(a), 60);
  EXPECT_EQ(Sum(c), 300);
  EXPECT_EQ(Sum(std::span<const int>(v).subspan(1, 2)), 5);
  EXPECT_EQ(Sum(std::vector<int>{7, 8}), 15);  // a temporary lives through the call
  const Span<int> s(v);
  EXPECT_EQ(s.size(), 5u);
  EXPECT_EQ(s.front(), 1);
  EXPECT_EQ(s.back(), 5);
  EXPECT_EQ(Sum(s.first(2)), 3);
  EXPECT_EQ(Sum(s.last(2)), 9);
  EXPECT_EQ(Sum(s.subspan(3)), 9);
  EXPECT_EQ(Sum(s.subspan(1, 3)), 9);
  EXPECT_TRUE(s.subspan(5).empty());
  s[0] = 42;  // a view: writes reach the vector
  EXPECT_EQ(v[0], 42);
  // std::span takes one back, from a temporary too (a borrowed range).
  const std::span<const int> back = Span<const int>(v);
  EXPECT_EQ(back.size(), 5u);
  EXPECT_EQ(back.data(), v.data());
  EXPECT_EQ(std::span<int>(Span<int>(v)).data(), v.data());
}

TEST(Span, RefusesWhatStdSpanRefuses) {
  // Derived elements read with Base's size would be misread from the second on.
  static_assert(!std::is_constructible_v<Span<const Base>, std::vector<Derived>&>);
  static_assert(!std::is_constructible_v<Span<const Base>, Derived(&)[2]>);
  // Const elements are not handed out as mutable ones.
  static_assert(!std::is_constructible_v<Span<int>, const std::vector<int>&>);
  static_assert(std::is_constructible_v<Span<const int>, std::vector<int>&>);
  static_assert(std::is_constructible_v<Span<const Base>, std::vector<Base>&>);
}

}  // namespace
}  // namespace tcfuzz::oracle
