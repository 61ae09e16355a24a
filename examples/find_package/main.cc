// What a kernel library's test asks of the oracle: is the descriptor my code built the one I
// meant, and which byte does each element come from? And what does a zero-column mask zero?
//
//   descriptor_check DESC ROW K   (a wgmma K-major f16 A operand of 64 rows x 32 bytes of K)
//   descriptor_check --zcm DESC M N
//   descriptor_check --version   (the tcfuzz its headers come from)
#include <tcfuzz/oracle/smem/smem_case.h>
#include <tcfuzz/oracle/tcgen05/zero_column_mask.h>
#include <tcfuzz/version.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace smem = tcfuzz::oracle::smem;
namespace tc = tcfuzz::oracle::tcgen05;

int main(int argc, char** argv) {
  if (argc == 2 && std::string(argv[1]) == "--version")
    return std::printf("tcfuzz %s\n", TCFUZZ_VERSION_STRING), 0;
  if (argc == 5 && std::string(argv[1]) == "--zcm") {
    const auto e =
        tc::Expand(std::strtoull(argv[2], nullptr, 0), std::atoi(argv[3]), std::atoi(argv[4]));
    if (!e) return std::fprintf(stderr, "no such M or N\n"), 2;
    std::printf("mask %s\n", e->MaskHex().c_str());
    return 0;
  }
  if (argc != 4) return std::fprintf(stderr, "usage: descriptor_check DESC ROW K\n"), 2;
  smem::SmemCase c;
  c.arch = smem::Arch::kSm90a;
  c.operand = smem::Operand::kA;
  c.view = {smem::Major::kK, smem::DType::kF16, 64, 32};
  c.desc = std::strtoull(argv[1], nullptr, 0);
  const auto verdict = smem::Validate(c);
  const auto map = smem::Map(c);
  if (!map.ok()) return std::fprintf(stderr, "%s\n", map.error().c_str()), 2;
  const int row = std::atoi(argv[2]), k = std::atoi(argv[3]);
  std::printf("%s; element (%d, %d) at byte %llu\n", verdict.legal() ? "legal" : "illegal", row, k,
              static_cast<unsigned long long>(map.value().Byte(row, k)));
  return 0;
}
