// The device-judged kernels' work on a host backend (harness/judged_launch.h RunJudgedOnHost),
// written once for every suite: each case of the range is drawn and placed by the suite's own lane
// code (what the kernel's threads run), the cases that share an instruction go to the backend as
// one call of the ABI, and each case's D is judged against the D its lane code's device model
// computed, with the kernel's report rules (every failing index; the first keep_mismatches
// failures and the sampled cases keep their D). Nothing here computes a D from the case: the
// backend executes, the lane code judges, as on the GPU.
//
// A suite's HostJudge<Launch> (harness/judged_host_warp.cc, harness/judged_host_tile.cc) gives:
//   struct Call;                               one backend call being filled
//   kChunk                                     cases of a call (bounds the memory held)
//   Group(l, cs)                               the instruction case cs runs (cases that share one
//                                              share a call)
//   MakeCall(l, group, cases)                  a call of `cases` cases, operands unset
//   Words(l, group)                            D words a case of the group holds (the kept layout)
//   Draw(l, cs, call, slot, expected)          the lane code of every lane or thread of case cs:
//                                              its operands into the call's slot, the D its device
//                                              model expects into expected[0, Words)
//   Execute(call)                              the backend's instruction: D of every slot
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "harness/host_threads.h"
#include "harness/judged_launch.h"
#include "harness/ptx_kernel.h"
#include "oracle/core/counter_hash.h"

namespace tcfuzz::harness {

template <class Launch>
struct HostJudge;

// A host backend's D for one call (RunWarpMmaOnHost or RunSmemMmaOnHost); nothing when the
// process's backend is cuda, which RunJudged never sends here.
inline oracle::Result<std::vector<uint32_t>> HostD(
    std::optional<oracle::Result<std::vector<uint32_t>>> d) {
  if (!d)
    return oracle::Result<std::vector<uint32_t>>::Fail(std::string(kHostError) +
                                                       "the process's backend is cuda");
  return std::move(*d);
}

template <class Launch>
oracle::Result<JudgedResult> RunJudgedOnHost(const Launch& l) {
  using H = HostJudge<Launch>;
  using R = oracle::Result<JudgedResult>;
  if (l.count == 0) return R::Ok({});
  if (const std::string why = JudgedCheck(l); !why.empty())
    return R::Fail(std::string(kHostError) + Launch::kSuite + ": " + why);
  JudgedResult out;
  uint64_t kept_failures = 0;
  const unsigned threads = DefaultHostThreads();
  // The range's cases by instruction (an index each), then each instruction's cases kChunk at a
  // time: calls are full whatever the mix, and at most kChunk cases' operands are held.
  std::map<uint32_t, std::vector<uint64_t>> groups;  // instruction -> case offsets w
  for (uint64_t w = 0; w < l.count; ++w)
    groups[H::Group(l, oracle::CaseSeedFromKey(l.suite_key, l.first + w * l.stride))].push_back(w);
  for (const auto& [group, all] : groups) {
    const std::size_t words = H::Words(l, group);
    for (std::size_t from = 0; from < all.size(); from += H::kChunk) {
      const std::span<const uint64_t> cases =
          std::span(all).subspan(from, std::min<std::size_t>(H::kChunk, all.size() - from));
      typename H::Call call = H::MakeCall(l, group, cases.size());
      std::vector<uint32_t> expected(cases.size() * words);
      ParallelFor(
          cases.size(), threads,
          [&](std::size_t i) {
            const uint64_t cs = oracle::CaseSeedFromKey(l.suite_key, l.first + cases[i] * l.stride);
            H::Draw(l, cs, call, i, expected.data() + i * words);
          },
          /*at_least=*/H::kChunk / 64);  // a tile's draw is costly: a thread for each
      const oracle::Result<std::vector<uint32_t>> d = H::Execute(call);
      if (!d.ok()) return R::Fail(d.error());
      for (std::size_t i = 0; i < cases.size(); ++i) {
        const uint64_t index = l.first + cases[i] * l.stride;
        const uint64_t cs = oracle::CaseSeedFromKey(l.suite_key, index);
        const auto got = d.value().begin() + static_cast<std::ptrdiff_t>(i * words);
        const auto want = expected.begin() + static_cast<std::ptrdiff_t>(i * words);
        const bool bad = !std::equal(want, want + static_cast<std::ptrdiff_t>(words), got);
        if (bad) out.failed.push_back(index);
        const bool keep = bad ? kept_failures++ < l.keep_mismatches
                              : l.sample_every != 0 && cs % l.sample_every == 0;
        if (keep) out.kept.push_back({index, std::vector<uint32_t>(got, got + words)});
      }
    }
  }
  return R::Ok(std::move(out));
}

}  // namespace tcfuzz::harness
