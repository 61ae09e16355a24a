// The body every GPU suite's worker shares: the shard's cases drawn in parallel, the ones this
// device cannot run counted per reason, the rest grouped by instruction (one batched launch per
// group, `per_launch` cases at most, in index order), each device result judged in parallel
// while the next launch runs, and the worker protocol printed (suites/engine/worker_protocol.h)
// with the time each phase took. A PTX JIT error or a batch the host side refuses is a harness
// error of the group's cases; any other launch error is a sticky fault that ends the worker (the
// engine then bisects the range in fresh workers).
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <ostream>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "harness/host_threads.h"
#include "harness/ptx_kernel.h"
#include "oracle/core/result.h"
#include "suites/checks/discrimination.h"
#include "suites/engine/device_workers.h"
#include "suites/engine/worker_protocol.h"

namespace tcfuzz::suites {

// Suite: struct with
//   Case Draw(uint64_t index) const;
//   std::string Unsupported(const Case&) const;   // empty: the device runs it
//   std::string Key(const Case&) const;           // cases with one key share a launch
//   std::string Family(const Case&) const;        // its form or layout (DescribedCase::family)
//   oracle::Result<std::vector<std::vector<uint32_t>>> Run(std::span<const Case* const>) const;
//   std::string Judge(uint64_t index, const Case&, const std::vector<uint32_t>& d,
//                     std::vector<ProbeResult>& probes) const;   // "": pass
// where Judge also says what the case's expected D tells apart (suites/checks/discrimination.h),
// counted per key: a key is one instruction, the family of a GPU suite's discrimination.
template <class Case, class Suite>
int RunBatchedCases(const WorkerArgs& a, const std::vector<uint64_t>& indices,
                    std::size_t per_launch, const Suite& suite, std::ostream& out) {
  if (const auto planted = RunPlantedFaults(a, indices, out)) return *planted;
  const unsigned threads =
      a.threads ? a.threads : std::max(1u, std::thread::hardware_concurrency());
  using Clock = std::chrono::steady_clock;
  const auto seconds_since = [](Clock::time_point t) {
    return std::chrono::duration<double>(Clock::now() - t).count();
  };
  double device_s = 0, judge_s = 0;
  const Clock::time_point draw_start = Clock::now();
  std::vector<Case> drawn(indices.size());
  std::vector<std::string> why(indices.size()), family(indices.size());
  harness::ParallelFor(indices.size(), threads, [&](std::size_t j) {
    drawn[j] = suite.Draw(indices[j]);
    why[j] = suite.Unsupported(drawn[j]);
    family[j] = suite.Family(drawn[j]);
  });
  std::map<std::string, uint64_t> unsupported;
  FamilyCounts families, unsupported_families;
  std::map<std::string, std::vector<std::size_t>> groups;  // positions in `indices`, in order
  for (std::size_t j = 0; j < indices.size(); ++j) {
    if (why[j].empty()) {
      groups[suite.Key(drawn[j])].push_back(j);
      ++families[family[j]];
    } else {
      ++unsupported[why[j]];
      ++unsupported_families[family[j]];
    }
  }
  const double draw_s = seconds_since(draw_start);
  std::vector<std::string> lines(indices.size());  // per case: its line, if it did not pass
  std::vector<std::vector<ProbeResult>> probes(indices.size());
  per_launch = std::max<std::size_t>(1, per_launch);
  // The oracle judges a launch while the device runs the next one; "judge" is the time the
  // worker waited for it beyond that (so the phases add up to the worker's time).
  std::jthread judging;  // joined on every way out, an exception's too
  const auto finish_judging = [&] {
    const Clock::time_point wait_start = Clock::now();
    if (judging.joinable()) judging.join();
    judge_s += seconds_since(wait_start);
  };
  for (const auto& group : groups) {
    const std::vector<std::size_t>& members = group.second;
    for (std::size_t at = 0; at < members.size(); at += per_launch) {
      const std::size_t n = std::min(per_launch, members.size() - at);
      std::vector<const Case*> batch;
      for (std::size_t m = at; m < at + n; ++m) batch.push_back(&drawn[members[m]]);
      const Clock::time_point device_start = Clock::now();
      auto got = std::make_shared<const oracle::Result<std::vector<std::vector<uint32_t>>>>(
          suite.Run(batch));
      device_s += seconds_since(device_start);
      finish_judging();  // the previous launch's
      if (!got->ok()) {
        if (!harness::IsContextSafeError(got->error())) {
          out << "fault " << got->error() << "\n" << std::flush;  // the context is gone: stop here
          return kWorkerFaultExit;
        }
        for (std::size_t m = at; m < at + n;
             ++m) {  // our PTX, the assembler or the host side: not sticky
          lines[members[m]] = CaseLine(indices[members[m]], CaseOutcome::kHarnessError,
                                       got->error().substr(0, 300));
        }
        continue;
      }
      judging = std::jthread([&, got, at, n, group_members = &members] {
        harness::ParallelFor(n, threads, [&](std::size_t m) {
          const std::size_t j = (*group_members)[at + m];
          lines[j] = suite.Judge(indices[j], drawn[j], got->value()[m], probes[j]);
        });
      });
    }
  }
  finish_judging();
  for (const std::string& line : lines) {
    if (!line.empty()) out << line << "\n";
  }
  for (const auto& [reason, n] : unsupported) out << "unsupported " << n << " " << reason << "\n";
  out << FamilyLines(families, unsupported_families);
  Discrimination discrimination;
  for (const auto& [key, members] : groups) {
    for (const std::size_t j : members) {
      if (!probes[j].empty()) Count(discrimination[key], probes[j]);
    }
  }
  for (const std::string& line : DiscriminationLines(discrimination)) out << line << "\n";
  // Where the time went: drawing on the host's threads, JIT-compiling modules, the device
  // (packing, copies, launches), and waiting for the oracle where it did not hide behind the
  // device.
  const double jit_s = std::min(device_s, harness::ProcessJitTotals().seconds);
  out << PhaseLine("draw", draw_s) << "\n"
      << PhaseLine("jit", jit_s) << "\n"
      << PhaseLine("device", device_s - jit_s) << "\n"
      << PhaseLine("judge", judge_s) << "\n";
  out << "ran " << indices.size() << "\ndone\n";
  return 0;
}

// One case from a file through the same Suite: reported as case 0 ("pass" carries the D too).
template <class Case, class Suite>
int RunOneCase(const Case& c, const Suite& suite, std::ostream& out) {
  if (const std::string why = suite.Unsupported(c); !why.empty()) {
    out << "unsupported 1 " << why << "\n"
        << FamilyLines({}, {{suite.Family(c), 1}}) << "ran 1\ndone\n";
    return 0;
  }
  const Case* one[] = {&c};
  const auto got = suite.Run(one);
  if (!got.ok()) {
    if (harness::IsContextSafeError(got.error()))
      return CaseFileError(got.error().substr(0, 300), out);
    out << "fault " << got.error() << "\n" << std::flush;
    return kWorkerFaultExit;
  }
  std::vector<ProbeResult> probes;  // one case tells nothing about its family
  const std::string line = suite.Judge(0, c, got.value()[0], probes);
  out << (line.empty() ? CaseLine(0, CaseOutcome::kPass, ObservedField(got.value()[0]).substr(1))
                       : line)
      << "\n"
      << FamilyLines({{suite.Family(c), 1}}, {}) << "ran 1\ndone\n";
  return 0;
}

}  // namespace tcfuzz::suites
