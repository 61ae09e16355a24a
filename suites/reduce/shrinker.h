// The loop every minimizer shares: run a candidate on the device, keep it when it fails with the
// same signature (together with the D the device returned), count tries against a budget; and
// zeroing values the delta-debugging way: all at once, then halves, quarters, down to singles.
#pragma once

#include <algorithm>
#include <cstddef>
#include <functional>
#include <span>
#include <utility>
#include <vector>

#include "suites/reduce/signature.h"

namespace tcfuzz::suites {

// Case: a case file with an `observed` member (the device's D).
template <class Case>
class Shrinker {
 public:
  Shrinker(Case start, FailureSignature signature, std::function<Evaluation(const Case&)> evaluate,
           int budget)
      : current_(std::move(start)),
        signature_(std::move(signature)),
        evaluate_(std::move(evaluate)),
        budget_(budget) {}

  bool Try(Case candidate) {
    if (spent()) return false;
    ++tries_;
    const Evaluation e = evaluate_(candidate);
    if (!e.failure || !(*e.failure == signature_)) return false;
    candidate.observed = e.observed;
    current_ = std::move(candidate);
    ++accepted_;
    return true;
  }

  // `live(case)` lists the slots holding a non-zero value; `zero(copy, slots)` zeroes them in a
  // copy of the current case (false: that is no candidate).
  template <class Slot>
  void ZeroInParts(const std::function<std::vector<Slot>(const Case&)>& live,
                   const std::function<bool(Case&, std::span<const Slot>)>& zero) {
    for (std::size_t parts = 1; !spent(); parts *= 2) {
      const std::vector<Slot> slots = live(current_);
      if (slots.empty()) break;
      const std::size_t n = std::min(parts, slots.size());
      for (std::size_t p = 0; p < n; ++p) {
        const std::size_t lo = slots.size() * p / n, hi = slots.size() * (p + 1) / n;
        Case c = current_;
        if (zero(c, std::span<const Slot>(slots).subspan(lo, hi - lo))) Try(std::move(c));
      }
      if (n == slots.size()) break;
    }
  }

  bool spent() const { return tries_ >= budget_; }
  const Case& current() const { return current_; }
  int tries() const { return tries_; }
  int accepted() const { return accepted_; }

 private:
  Case current_;
  FailureSignature signature_;
  std::function<Evaluation(const Case&)> evaluate_;
  int budget_;
  int tries_ = 0, accepted_ = 0;
};

}  // namespace tcfuzz::suites
