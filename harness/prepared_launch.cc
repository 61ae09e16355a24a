#include "harness/ptx_kernel.h"

namespace tcfuzz::harness {

oracle::Result<std::vector<std::vector<uint32_t>>> RunPrepared(const PreparedLaunch& p) {
  using R = oracle::Result<std::vector<std::vector<uint32_t>>>;
  const auto out = RunPtxKernel(p.launch);
  if (!out.ok()) return R::Fail(out.error());
  std::vector<std::vector<uint32_t>> d;
  for (std::size_t i = 0; i < p.cases; ++i) {
    auto one = p.unpack(out.value(), i);
    if (!one.ok()) return R::Fail(one.error());
    d.push_back(std::move(one).value());
  }
  return R::Ok(std::move(d));
}

}  // namespace tcfuzz::harness
