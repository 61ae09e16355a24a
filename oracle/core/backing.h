// How each answer of the oracle is backed: one table of every spec choice, fragment / metadata /
// layout hypothesis and numerics row tcfuzz follows, with what backs it.
//
//   hardware    a GPU showed it (which one, which test or capture is named); it holds on the
//               targets it was seen on and is a hypothesis on any other
//   spec        derived from the PTX text, its tables or worked examples; no GPU has run it
//   hypothesis  tcfuzz's best reading where the spec is silent, contradicts itself or gives only
//               figures, or a model no hardware has confirmed
//
// Ids are the rows of docs/doc-vs-hardware.md (Z1, S7, SP1, N4, ...) and of the numerics rows
// (R90-wgmma, ...): spec_choices.h says what each reading is, this table how sure it is. A
// campaign mismatch whose expectation rests on anything but `hardware` on the device it ran on is
// reported as model_unconfirmed, apart from failures; `tcfuzz oracle dot` declines such rows.
#pragma once

#include <string_view>

#include "oracle/core/span.h"

namespace tcfuzz::oracle {

enum class Backing { kHardware, kSpec, kHypothesis };
std::string_view Name(Backing b);  // "hardware", "spec", "hypothesis"

struct BackedReading {
  std::string_view id;       // stable: docs/doc-vs-hardware.md's row, or a numerics row id
  std::string_view topic;    // what it is about: "numerics", "smem descriptor", "sparse maps", ...
  std::string_view reading;  // what tcfuzz follows, one line
  Backing backing;
  std::string_view seen_on;  // hardware: the targets it was seen on ("sm_90"); empty otherwise
  std::string_view basis;  // which GPU and test or capture; or the spec passage; or why it is open
};

// Every reading, in the order docs/doc-vs-hardware.md lists them.
Span<const BackedReading> BackedReadings();
const BackedReading* FindReading(std::string_view id);

// How `id` is backed on target `gpu` ("sm_90"; empty: whatever the target): a hardware reading
// seen only on other targets is a hypothesis here, and an unknown id is a hypothesis.
Backing BackingOf(std::string_view id, std::string_view gpu = {});

}  // namespace tcfuzz::oracle
