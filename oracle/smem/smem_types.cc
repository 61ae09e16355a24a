#include "oracle/smem/smem_types.h"

#include <array>
#include <utility>

namespace tcfuzz::oracle::smem {
namespace {

template <class E, std::size_t N>
std::optional<E> Parse(const std::array<std::pair<E, std::string_view>, N>& table,
                       std::string_view s) {
  for (const auto& [e, name] : table) {
    if (name == s) return e;
  }
  return std::nullopt;
}

template <class E, std::size_t N>
std::string_view NameOf(const std::array<std::pair<E, std::string_view>, N>& table, E e) {
  for (const auto& [x, name] : table) {
    if (x == e) return name;
  }
  return "?";
}

constexpr std::array<std::pair<Arch, std::string_view>, 3> kArch = {
    {{Arch::kSm90a, "sm_90a"}, {Arch::kSm100a, "sm_100a"}, {Arch::kSm103a, "sm_103a"}}};
constexpr std::array<std::pair<Major, std::string_view>, 2> kMajor = {
    {{Major::kK, "k"}, {Major::kMN, "mn"}}};
constexpr std::array<std::pair<Operand, std::string_view>, 2> kOperand = {
    {{Operand::kA, "a"}, {Operand::kB, "b"}}};
constexpr std::array<std::pair<Swizzle, std::string_view>, 5> kSwizzle = {
    {{Swizzle::kNone, "none"},
     {Swizzle::k32B, "32b"},
     {Swizzle::k64B, "64b"},
     {Swizzle::k128B, "128b"},
     {Swizzle::k128B32BAtom, "128b_base32b"}}};
constexpr std::array<std::pair<DType, std::string_view>, 10> kDType = {{{DType::kF16, "f16"},
                                                                        {DType::kBF16, "bf16"},
                                                                        {DType::kTF32, "tf32"},
                                                                        {DType::kE4M3, "e4m3"},
                                                                        {DType::kE5M2, "e5m2"},
                                                                        {DType::kE3M2, "e3m2"},
                                                                        {DType::kE2M3, "e2m3"},
                                                                        {DType::kE2M1, "e2m1"},
                                                                        {DType::kS8, "s8"},
                                                                        {DType::kU8, "u8"}}};

}  // namespace

std::string_view Name(Arch a) { return NameOf(kArch, a); }
std::string_view Name(Major m) { return NameOf(kMajor, m); }
std::string_view Name(Operand o) { return NameOf(kOperand, o); }
std::string_view Name(Swizzle s) { return NameOf(kSwizzle, s); }
std::string_view Name(DType t) { return NameOf(kDType, t); }
std::optional<Arch> ParseArch(std::string_view s) { return Parse(kArch, s); }
std::optional<Major> ParseMajor(std::string_view s) { return Parse(kMajor, s); }
std::optional<Operand> ParseOperand(std::string_view s) { return Parse(kOperand, s); }
std::optional<DType> ParseDType(std::string_view s) { return Parse(kDType, s); }

}  // namespace tcfuzz::oracle::smem
