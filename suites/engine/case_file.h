// Reading a case file of one kind (a reproducer or corpus entry): the file, its text form, its
// kind, then the kind's own decoder. Every error is one line naming the file.
#pragma once

#include <string>
#include <string_view>

#include "oracle/core/result.h"
#include "oracle/core/text_format.h"
#include "suites/engine/atomic_file.h"

namespace tcfuzz::suites {

// The file's text form (any kind).
inline oracle::Result<oracle::TextDoc> ReadCaseDoc(const std::string& path) {
  auto text = ReadFile(path);
  if (!text.ok())
    return oracle::Result<oracle::TextDoc>::Fail(text.error());  // names the path already
  auto doc = oracle::TextDoc::Parse(text.value());
  if (!doc.ok()) return oracle::Result<oracle::TextDoc>::Fail(path + ": " + doc.error());
  return doc;
}

template <class T>
oracle::Result<T> ReadCaseFile(const std::string& path, std::string_view kind,
                               oracle::Result<T> (*from_doc)(const oracle::TextDoc&)) {
  using R = oracle::Result<T>;
  auto doc = ReadCaseDoc(path);
  if (!doc.ok()) return R::Fail(doc.error());
  const auto k = doc.value().String("kind");
  if (!k.ok() || k.value() != kind)
    return R::Fail(path + ": not a " + std::string(kind) + " case file");
  auto c = from_doc(doc.value());
  if (!c.ok()) return R::Fail(path + ": " + c.error());
  return c;
}

}  // namespace tcfuzz::suites
