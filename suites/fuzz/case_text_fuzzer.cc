// libFuzzer target for the case files of every registered kind (suites/kinds/case_kind.h): the
// reproducers and corpus entries `tcfuzz replay`, `repro`, `minimize` and the workers read. A text
// input must parse to a one-line error or to a case whose text form is a fixed point (written,
// read back and written again, the same text) and replay without crashing, the oracle's answer
// computed once on the way; any other input draws a case of one kind from the bytes and holds it
// to the same round trip.
#include <span>
#include <string>

#include "generators/core/bytes_source.h"
#include "suites/fuzz/fuzz_target.h"
#include "suites/kinds/case_kind.h"

namespace {

using namespace tcfuzz;

// The case's text form through its kind, or "" when the document holds no case of a known kind.
std::string Rewrite(const oracle::TextDoc& doc) {
  const suites::CaseKind* kind = suites::FindCaseKind(doc.String("kind").value());
  if (kind == nullptr) return {};
  const auto text = kind->reprint(doc);
  if (!text.ok()) {
    if (text.error().find('\n') != std::string::npos)
      suites::AbortOn({{"text.one_line", text.error()}});
    return {};
  }
  return text.value();
}

// The input's own document replayed: a verdict or a one-line error, never a crash. Once per input:
// the written text is the same case, and replay is where a descriptor tile's answer is computed
// (most of an input's time; the kind's reprint leaves it out).
void Replay(const oracle::TextDoc& doc) {
  if (const suites::CaseKind* kind = suites::FindCaseKind(doc.String("kind").value()))
    (void)kind->replay(doc);
}

// The written text reads back and writes the same text again.
void CheckFixedPoint(const std::string& text) {
  const auto doc = oracle::TextDoc::Parse(text);
  if (!doc.ok()) suites::AbortOn({{"text.reparse", doc.error()}});
  const std::string again = Rewrite(doc.value());
  if (again != text)
    suites::AbortOn({{"text.fixed_point", "the written case reads back to a different text"}});
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  if (input.starts_with(oracle::kTextMagic)) {
    const auto doc = oracle::TextDoc::Parse(input);
    if (!doc.ok()) {
      if (doc.error().find('\n') != std::string::npos)
        suites::AbortOn({{"text.one_line", doc.error()}});
      return -1;
    }
    const std::string text = Rewrite(doc.value());
    if (text.empty()) return -1;
    Replay(doc.value());
    CheckFixedPoint(text);
    return 0;
  }
  gen::BytesSource source(std::span<const uint8_t>(data, size));
  const auto kinds = suites::CaseKinds();
  const suites::CaseKind& kind = kinds[source.Below(kinds.size())];
  const auto drawn = oracle::TextDoc::Parse(kind.draw(source));
  if (!drawn.ok()) suites::AbortOn({{"text.draw", std::string(kind.name) + ": " + drawn.error()}});
  const auto text = kind.reprint(drawn.value());
  if (!text.ok()) suites::AbortOn({{"text.reprint", std::string(kind.name) + ": " + text.error()}});
  Replay(drawn.value());
  CheckFixedPoint(text.value());
  return 0;
}
