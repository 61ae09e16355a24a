#include "suites/discover/ingest.h"

#include <algorithm>
#include <map>
#include <regex>

#include "oracle/core/spec_choices.h"
#include "oracle/core/text_format.h"
#include "oracle/mma/dense_case_text.h"
#include "oracle/tile/descriptor_tile_text.h"
#include "suites/discover/numerics_probes.h"

namespace tcfuzz::suites::discover {
namespace {

namespace num = oracle::num;
using R = oracle::Result<IngestReport>;

// One case of the file with what the device returned.
struct Case {
  std::string question;  // origin.question
  std::optional<oracle::mma::DenseCaseFile> dense;
  std::optional<oracle::tile::DescriptorTileFile> tile;
};

// D of a case under a candidate row.
std::vector<uint32_t> DUnder(const Case& c, const num::DotParams& p) {
  if (c.dense) return oracle::mma::DenseReference(c.dense->tile, p);
  const auto d = oracle::tile::TileReference(c.tile->tile, false, &p);
  return d.ok() ? d.value() : std::vector<uint32_t>{};
}
const std::vector<uint32_t>& Observed(const Case& c) {
  return c.dense ? *c.dense->observed : *c.tile->observed;
}

int Differing(const std::vector<uint32_t>& a, const std::vector<uint32_t>& b) {
  if (a.size() != b.size()) return static_cast<int>(std::max(a.size(), b.size()));
  int n = 0;
  for (std::size_t i = 0; i < a.size(); ++i) n += a[i] != b[i];
  return n;
}

// The parameters of the candidate rows that fit, each as the values they take ("e_zero -131 or
// -132 or -133" where the results cannot tell them apart).
std::string Summary(const std::vector<num::DotParams>& fit) {
  const auto values = [&](auto get) {
    std::vector<std::string> v;
    for (const num::DotParams& p : fit) {
      const std::string x = get(p);
      if (std::find(v.begin(), v.end(), x) == v.end()) v.push_back(x);
    }
    std::string out;
    for (const std::string& x : v) out += (out.empty() ? "" : " or ") + x;
    return out;
  };
  return "F " + values([](const num::DotParams& p) { return std::to_string(p.F); }) + ", L " +
         values([](const num::DotParams& p) { return std::to_string(p.L); }) + ", e_zero " +
         values([](const num::DotParams& p) { return std::to_string(p.e_zero); }) + ", " +
         values([](const num::DotParams& p) {
           return std::string(p.rho == num::Rounding::kRzF32     ? "rz_f32"
                              : p.rho == num::Rounding::kRzE8M13 ? "rz_e8m13"
                                                                 : "rne_f16");
         }) +
         ", a zero D " + values([](const num::DotParams& p) {
           return std::string(p.negative_zero ? "-0" : "+0");
         }) +
         ", " + values([](const num::DotParams& p) {
           return std::string(p.fp8_via_f16 ? "two f16 MMAs then C" : "C fused");
         });
}

}  // namespace

oracle::Result<IngestReport> Ingest(const std::string& text, const std::string& name) {
  // Cases begin at their "tcfuzz-text 1" line; lines before the first are the file's header.
  std::vector<std::string> parts;
  for (std::size_t at = text.find("tcfuzz-text 1"); at != std::string::npos;) {
    const std::size_t next = text.find("\ntcfuzz-text 1", at + 1);
    parts.push_back(text.substr(at, next == std::string::npos ? std::string::npos : next + 1 - at));
    at = next == std::string::npos ? next : next + 1;
  }
  if (parts.empty()) return R::Fail(name + ": no case in it (not a tcfuzz discover result file)");
  IngestReport rep;
  std::vector<Case> cases;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const std::string where = name + ": case " + std::to_string(i + 1);
    auto doc = oracle::TextDoc::Parse(parts[i]);
    if (!doc.ok()) return R::Fail(where + ": " + doc.error());
    const auto device = doc.value().String("origin.device");
    const auto question = doc.value().String("origin.question");
    if (!device.ok() || !question.ok())
      return R::Fail(where + ": no origin.device or origin.question (not from a kit)");
    if (rep.device.empty()) rep.device = device.value();
    if (device.value() != rep.device)
      return R::Fail(where + ": from " + oracle::Quoted(device.value()) + ", the file began with " +
                     oracle::Quoted(rep.device) + " (one device per file)");
    Case c;
    c.question = question.value();
    const auto kind = doc.value().String("kind");
    if (kind.ok() && kind.value() == oracle::mma::kDenseKind) {
      auto f = oracle::mma::DenseCaseFromDoc(doc.value());
      if (!f.ok()) return R::Fail(where + ": " + f.error());
      c.dense = std::move(f).value();
    } else {
      auto f = oracle::tile::DescriptorTileFromDoc(doc.value());
      if (!f.ok()) return R::Fail(where + ": " + f.error());
      c.tile = std::move(f).value();
    }
    if (!(c.dense ? c.dense->observed.has_value() : c.tile->observed.has_value()))
      return R::Fail(where + ": no observed rows (the program did not finish)");
    cases.push_back(std::move(c));
  }
  rep.cases = static_cast<int>(cases.size());
  std::smatch m;
  if (std::regex_search(rep.device, m, std::regex(R"(CC (\d+)\.(\d+))")))
    rep.target = "sm_" + m[1].str() + m[2].str();
  const auto gpu = num::ParseGpu(rep.target);

  // Numerics: every candidate row against every case of its question.
  std::map<std::string, std::vector<const Case*>> by_question;
  for (const Case& c : cases) by_question[c.question].push_back(&c);
  for (const NumericsQuestion& q : NumericsQuestions()) {
    const auto it = by_question.find("numerics " + q.Name());
    if (it == by_question.end()) continue;
    std::vector<num::DotParams> fit;
    for (const CandidateRow& cand : CandidateRows(q)) {
      bool all = true;
      for (const Case* c : it->second) all = all && DUnder(*c, cand.params) == Observed(*c);
      if (all) fit.push_back(cand.params);
    }
    std::string line = q.Name() + " (" + std::to_string(it->second.size()) + " tiles): ";
    line += fit.empty() ? "no candidate row fits (a new arithmetic)" : "fits " + Summary(fit);
    const auto row = gpu ? num::ParamsFor(*gpu, q.instr, q.ab, q.cd) : std::nullopt;
    if (row) {
      int differ = 0;
      for (const Case* c : it->second) differ += Differing(DUnder(*c, *row), Observed(*c));
      line += differ == 0 ? ". The oracle's row " + std::string(row->row) + " fits"
                          : ". CONTRADICTS the oracle's row " + std::string(row->row) + ": " +
                                std::to_string(differ) + " elements differ";
      rep.contradicted += differ != 0;
    } else {
      line += ". The oracle has no row for " + (rep.target.empty() ? "this device" : rep.target);
    }
    rep.lines.push_back(line);
    by_question.erase(it);
  }
  // Deciding tiles: tcfuzz's reading, and the other where the oracle can compute it.
  for (const auto& [question, list] : by_question) {
    for (const Case* c : list) {
      if (!c->tile) continue;
      const auto ours = oracle::tile::TileReference(c->tile->tile);
      if (!ours.ok()) return R::Fail(name + ": " + question + ": " + ours.error());
      const int differ = Differing(ours.value(), Observed(*c));
      std::string line = question + ": ";
      if (question.starts_with("S7")) {
        const auto other = oracle::tile::TileReference(oracle::tile::AsReadUnder(
            c->tile->tile, oracle::spec_choice::Base32BAtomKRows::kEightAsOtherModes));
        const bool theirs = other.ok() && Differing(other.value(), Observed(*c)) == 0;
        line += differ == 0 ? "tcfuzz's reading (4 K rows per atom)"
                : theirs    ? "the other reading (8 K rows per atom): CONTRADICTS tcfuzz's"
                            : "neither reading: CONTRADICTS tcfuzz's";
      } else {
        line += differ == 0 ? "tcfuzz's reading"
                            : "CONTRADICTS tcfuzz's reading: " + std::to_string(differ) +
                                  " elements of D differ";
      }
      rep.contradicted += differ != 0;
      rep.lines.push_back(line);
    }
  }
  rep.doc_row = "| (date) | " + rep.device + " | `tcfuzz discover` kit (" + name + ", " +
                std::to_string(rep.cases) + " cases) | " +
                (rep.contradicted ? std::to_string(rep.contradicted) + " rows contradicted"
                                  : "every oracle row and reading tested fits") +
                " |";
  return R::Ok(std::move(rep));
}

}  // namespace tcfuzz::suites::discover
