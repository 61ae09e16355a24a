#include "oracle/core/json_reader.h"

#include <set>
#include <string>
#include <vector>

#include "oracle/core/text_format.h"

namespace tcfuzz::oracle {
namespace {

using Json = nlohmann::json;

// nlohmann's DOM builder behind a SAX layer that counts depth and the keys of each open object.
class BoundedSax {
 public:
  BoundedSax(Json& root, int max_depth) : dom_(root, false), max_depth_(max_depth) {}

  bool null() { return dom_.null(); }
  bool boolean(bool v) { return dom_.boolean(v); }
  bool number_integer(Json::number_integer_t v) { return dom_.number_integer(v); }
  bool number_unsigned(Json::number_unsigned_t v) { return dom_.number_unsigned(v); }
  bool number_float(Json::number_float_t v, const Json::string_t& s) {
    return dom_.number_float(v, s);
  }
  bool string(Json::string_t& v) { return dom_.string(v); }
  bool binary(Json::binary_t& v) { return dom_.binary(v); }
  bool start_object(std::size_t n) {
    if (!Enter()) return false;
    keys_.emplace_back();
    return dom_.start_object(n);
  }
  bool key(Json::string_t& k) {
    if (!keys_.back().insert(k).second) {
      error_ = "duplicate key \"" + OneLine(k, 64) + "\"";  // a key may hold \\n
      return false;
    }
    return dom_.key(k);
  }
  bool end_object() {
    keys_.pop_back();
    --depth_;
    return dom_.end_object();
  }
  bool start_array(std::size_t n) { return Enter() && dom_.start_array(n); }
  bool end_array() {
    --depth_;
    return dom_.end_array();
  }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception& e) {
    error_ = e.what();
    return false;
  }

  const std::string& error() const { return error_; }

 private:
  bool Enter() {
    if (++depth_ <= max_depth_) return true;
    error_ = "nested deeper than " + std::to_string(max_depth_) + " levels";
    return false;
  }

  nlohmann::detail::json_sax_dom_parser<Json> dom_;
  int max_depth_;
  int depth_ = 0;
  std::vector<std::set<std::string>> keys_;
  std::string error_;
};

}  // namespace

Result<nlohmann::json> ParseJson(std::string_view text, int max_depth) {
  Json root;
  BoundedSax sax(root, max_depth);
  bool ok = false;
  try {
    ok = Json::sax_parse(text.begin(), text.end(), &sax);
  } catch (const std::exception& e) {  // nlohmann's own, e.g. an allocation that failed
    return Error(std::string("not JSON: ") + e.what());
  }
  if (!ok) return Error(sax.error().empty() ? std::string("not JSON") : "not JSON: " + sax.error());
  return Result<nlohmann::json>::Ok(std::move(root));
}

}  // namespace tcfuzz::oracle
