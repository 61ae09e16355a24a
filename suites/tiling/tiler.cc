#include "suites/tiling/tiler.h"

#include <memory>
#include <nlohmann/json.hpp>
#include <span>

#include "oracle/ascend/reference_tiler.h"
#include "oracle/core/json_reader.h"
#include "suites/engine/subprocess.h"

namespace tcfuzz::suites {

using namespace oracle::ascend;

namespace {

TilerAnswer ParseAnswer(const std::string& out) {
  TilerAnswer a;
  const std::size_t first = out.find_first_not_of(" \t\r\n");
  oracle::Result<TCubeTiling> t = oracle::Result<TCubeTiling>::Fail("");
  if (first != std::string::npos && out[first] == '{') {
    t = FromJson(out);
  } else if (out.size() == 4 * kTilingFields) {
    t = FromImage(
        std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(out.data()), out.size()));
  } else {
    t = oracle::Result<TCubeTiling>::Fail("stdout is neither a JSON tiling nor a 200-byte image (" +
                                          std::to_string(out.size()) + " bytes)");
  }
  if (!t.ok()) {
    a.kind = TilerAnswer::Kind::kGarbage;
    a.detail = t.error();
    return a;
  }
  a.kind = TilerAnswer::Kind::kTiling;
  a.tiling = t.value();
  return a;
}

std::string FirstLine(const std::string& s) {
  const std::string line = s.substr(0, s.find('\n'));
  return line.size() > 200 ? line.substr(0, 200) + "..." : line;
}

}  // namespace

Tiler ReferenceTilerUnderTest() {
  return [](const Problem& p, const ChipProfile& chip, const std::string&) {
    TilerAnswer a;
    auto t = MakeTiling(p, chip);
    if (!t.ok()) {
      a.kind = TilerAnswer::Kind::kRefused;
      a.detail = t.error();
      return a;
    }
    a.kind = TilerAnswer::Kind::kTiling;
    a.tiling = t.value();
    return a;
  };
}

std::string TilerRequestLine(const Problem& p, const ChipProfile& chip, const std::string& chip_arg,
                             int64_t l1_size) {
  nlohmann::ordered_json j;
  j["problem"] = nlohmann::ordered_json::parse(ProblemToJson(p));
  j["chip"] = chip_arg;
  j["chip_profile"] = nlohmann::ordered_json::parse(ChipToJson(chip));
  j["l1_size"] = l1_size > 0 ? l1_size : chip.l1_platform;
  return j.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

namespace {

// One answer line of the lines protocol.
TilerAnswer ParseAnswerLine(const std::string& line) {
  TilerAnswer a;
  a.kind = TilerAnswer::Kind::kGarbage;
  // The strict reader: a key given twice is garbage here as in the per-process answer.
  const auto parsed = oracle::ParseJson(line);
  if (!parsed.ok()) {
    a.detail = "an answer line that is not JSON: " + parsed.error();
    return a;
  }
  const nlohmann::json& j = parsed.value();
  if (j.is_object() && j.size() == 1 && j.contains("tiling") && j["tiling"].is_object())
    return ParseAnswer(j["tiling"].dump());
  if (j.is_object() && j.size() == 1 && j.contains("refused") && j["refused"].is_string()) {
    a.kind = TilerAnswer::Kind::kRefused;
    a.detail = FirstLine(j["refused"].get<std::string>());
    return a;
  }
  a.detail = "an answer line that is neither {\"tiling\": {...}} nor {\"refused\": \"why\"}: " +
             FirstLine(line);
  return a;
}

Tiler LinesTiler(const std::string& command, std::chrono::milliseconds timeout, int64_t l1_size) {
  // Shared by the copies of the function: the one process answers every problem.
  auto session = std::make_shared<std::unique_ptr<LineSession>>();
  return [command, timeout, l1_size, session](const Problem& p, const ChipProfile& chip,
                                              const std::string& chip_arg) {
    if (*session == nullptr) {
      CommandOptions o;
      o.env = {{"TCFUZZ_TILER_PROTOCOL", "lines"}};
      *session = std::make_unique<LineSession>(command, o);
    }
    auto line = (*session)->Ask(TilerRequestLine(p, chip, chip_arg, l1_size), timeout);
    if (line.ok()) return ParseAnswerLine(line.value());
    const LineSession::Failure why = (*session)->failure();
    session->reset();  // ended: the next problem starts it again
    TilerAnswer a;
    a.kind = why == LineSession::Failure::kTimeout   ? TilerAnswer::Kind::kHang
             : why == LineSession::Failure::kGarbage ? TilerAnswer::Kind::kGarbage
                                                     : TilerAnswer::Kind::kCrash;
    a.detail = line.error();
    return a;
  };
}

}  // namespace

Tiler ExternalTiler(const std::string& command, std::chrono::milliseconds timeout, int64_t l1_size,
                    TilerProtocol protocol) {
  if (protocol == TilerProtocol::kLines) return LinesTiler(command, timeout, l1_size);
  return [command, timeout, l1_size](const Problem& p, const ChipProfile& chip,
                                     const std::string& chip_arg) {
    CommandOptions o;
    o.timeout = timeout;
    o.env = {{"TCFUZZ_CHIP", chip_arg},
             {"TCFUZZ_CHIP_PROFILE", ChipToJson(chip)},
             {"TCFUZZ_L1_SIZE", std::to_string(l1_size > 0 ? l1_size : chip.l1_platform)}};
    const CommandResult r = RunCommand(command, ProblemToJson(p), o);
    TilerAnswer a;
    if (!r.started) {
      a.kind = TilerAnswer::Kind::kCrash;
      a.detail = r.Describe(timeout);
    } else if (r.timed_out) {
      a.kind = TilerAnswer::Kind::kHang;
      a.detail = r.Describe(timeout);
    } else if (r.signal != 0 || (r.exit_code != 0 && r.exit_code != 1)) {
      a.kind = TilerAnswer::Kind::kCrash;
      a.detail = r.Describe(timeout) + (r.err.empty() ? "" : ": " + FirstLine(r.err));
    } else if (r.exit_code == 1) {
      if (r.out.find_first_not_of(" \t\r\n") == std::string::npos) {
        a.kind = TilerAnswer::Kind::kRefused;
        a.detail = FirstLine(r.err);
      } else {
        a.kind = TilerAnswer::Kind::kGarbage;
        a.detail = "exit 1 (a refusal) with output on stdout";
      }
    } else if (r.out_truncated) {
      a.kind = TilerAnswer::Kind::kGarbage;
      a.detail = "more than 1 MiB on stdout";
    } else {
      a = ParseAnswer(r.out);
    }
    return a;
  };
}

}  // namespace tcfuzz::suites
