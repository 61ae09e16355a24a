// A view of contiguous elements, as the installed headers take and return them. The library is
// C++20, but its headers are included by C++17 test trees (CUTLASS's minimum, issue 35), which
// have no std::span; a function declared with one type in both must link from either, so the
// headers use this one type, not std::span under C++20 and another under C++17. It converts from
// any container with data() and size() (std::vector, std::array, std::span, a C array), and
// std::span converts from it.
#pragma once

#include <cstddef>
#include <iterator>
#include <type_traits>
#include <utility>

#if __cplusplus >= 202002L
#include <ranges>
#endif

namespace tcfuzz::oracle {

template <class T>
class Span {
  // Containers of elements a T* may point at: of T itself, or T const-qualified; not of a class
  // derived from T (stepped with T's size, they would be misread), as std::span refuses them.
  template <class C>
  using FromContainer = std::enable_if_t<
      std::is_convertible_v<std::remove_pointer_t<decltype(std::data(std::declval<C&>()))> (*)[],
                            T (*)[]> &&
      std::is_convertible_v<decltype(std::size(std::declval<C&>())), std::size_t>>;

 public:
  using element_type = T;
  using value_type = std::remove_cv_t<T>;
  using iterator = T*;

  constexpr Span() = default;
  constexpr Span(T* data, std::size_t size) : data_(data), size_(size) {}
  template <std::size_t N>
  constexpr Span(T (&array)[N]) : data_(array), size_(N) {}
  template <class C, class = FromContainer<C>>
  constexpr Span(C& c) : data_(std::data(c)), size_(std::size(c)) {}
  template <class C, class = FromContainer<const C>>
  constexpr Span(const C& c) : data_(std::data(c)), size_(std::size(c)) {}

  constexpr T* data() const { return data_; }
  constexpr std::size_t size() const { return size_; }
  constexpr bool empty() const { return size_ == 0; }
  constexpr T& operator[](std::size_t i) const { return data_[i]; }
  constexpr T& front() const { return data_[0]; }
  constexpr T& back() const { return data_[size_ - 1]; }
  constexpr T* begin() const { return data_; }
  constexpr T* end() const { return data_ + size_; }
  constexpr Span first(std::size_t n) const { return {data_, n}; }
  constexpr Span last(std::size_t n) const { return {data_ + size_ - n, n}; }
  constexpr Span subspan(std::size_t offset, std::size_t n = ~std::size_t{0}) const {
    return {data_ + offset, n == ~std::size_t{0} ? size_ - offset : n};
  }

 private:
  T* data_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace tcfuzz::oracle

#if __cpp_lib_ranges
// A view, like std::span: std::span's range constructor takes one from a temporary.
template <class T>
inline constexpr bool std::ranges::enable_borrowed_range<tcfuzz::oracle::Span<T>> = true;
#endif
