#include "oracle/smem/canonical_layout.h"

#include <cctype>
#include <vector>

#include "oracle/smem/swizzle.h"

namespace tcfuzz::oracle::smem {
namespace {

// A CuTe integer tuple: a number or a parenthesised list of tuples.
struct Tuple {
  bool leaf = true;
  int64_t value = 0;
  std::vector<Tuple> kids;
};

class Parser {
 public:
  explicit Parser(std::string_view s) : s_(s) {}

  // `depth`: how many parentheses enclose this tuple. A canonical layout nests three deep; the
  // bound keeps hostile input (thousands of '(') off the stack.
  Result<Tuple> ParseTuple(int depth = 0) {
    Skip();
    if (pos_ < s_.size() && s_[pos_] == '(') {
      if (depth >= kMaxDepth) return Fail("nested deeper than " + std::to_string(kMaxDepth));
      ++pos_;
      Tuple t;
      t.leaf = false;
      while (true) {
        Result<Tuple> kid = ParseTuple(depth + 1);
        if (!kid.ok()) return kid;
        t.kids.push_back(kid.value());
        Skip();
        if (pos_ < s_.size() && s_[pos_] == ',') {
          ++pos_;
          continue;
        }
        if (pos_ < s_.size() && s_[pos_] == ')') {
          ++pos_;
          return Result<Tuple>::Ok(std::move(t));
        }
        return Fail("expected ',' or ')'");
      }
    }
    int64_t v = 0;
    const std::size_t begin = pos_;
    while (pos_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_])) &&
           v < (1ll << 40)) {
      v = v * 10 + (s_[pos_++] - '0');
    }
    if (pos_ == begin) return Fail("expected a number or '('");
    Tuple t;
    t.value = v;
    return Result<Tuple>::Ok(t);
  }

  bool AtEnd() {
    Skip();
    return pos_ == s_.size();
  }
  Result<Tuple> Fail(const std::string& what) const {
    return Result<Tuple>::Fail("layout: " + what + " at character " + std::to_string(pos_ + 1));
  }

 private:
  static constexpr int kMaxDepth = 8;
  void Skip() {
    while (pos_ < s_.size() && s_[pos_] == ' ') ++pos_;
  }
  std::string_view s_;
  std::size_t pos_ = 0;
};

std::string Str(const std::vector<int64_t>& v) {
  std::string s = "(";
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]);
  return s + ")";
}

bool Is(const Tuple& t, std::size_t n) {
  if (t.leaf || t.kids.size() != n) return false;
  for (const Tuple& k : t.kids) {
    if (!k.leaf) return false;
  }
  return true;
}

}  // namespace

int BaseOffsetFor(Swizzle swizzle, uint64_t pattern_start) {
  const uint64_t repeat = static_cast<uint64_t>(SwizzleRepeatBytes(swizzle));
  if (repeat == 0 || pattern_start % repeat == 0) return 0;
  return static_cast<int>((pattern_start >> 7) & 7);
}

int LayoutRows(const CanonicalLayout& l) {
  const int t = 128 / StorageBits(l.dtype);
  return l.major == Major::kK ? 8 * l.m : t * (SwizzleRowBytes(l.swizzle) / 16) * l.m;
}

int LayoutKBytes(const CanonicalLayout& l) {
  return l.major == Major::kK ? 32 * l.k : l.k * AtomKRows(l.swizzle) * StorageBits(l.dtype) / 8;
}

std::string CuteString(const CanonicalLayout& l) {
  const int64_t eb = StorageBits(l.dtype);
  const int64_t t = 128 / eb;
  const int64_t s = SwizzleRowBytes(l.swizzle) / 16;
  const auto el = [eb](uint64_t bytes) { return static_cast<int64_t>(bytes) * 8 / eb; };
  const SwizzleFunctor f = FunctorOf(l.swizzle);
  std::string out = "Swizzle<" + std::to_string(f.b) + "," + std::to_string(f.m) + "," +
                    std::to_string(f.s) + "> o ";
  const bool swz = l.swizzle != Swizzle::kNone;
  if (l.major == Major::kK) {
    out += "(" + Str({8, l.m}) + "," + Str({t, 2 * l.k}) + "):(";
    out += swz ? Str({s * t, el(l.sbo)}) + "," + Str({1, t})
               : Str({t, el(l.sbo)}) + "," + Str({1, el(l.lbo)});
  } else {
    out += "(" + Str({t, s, l.m}) + "," + Str({AtomKRows(l.swizzle), l.k}) + "):(";
    out += swz ? Str({1, t, el(l.lbo)}) + "," + Str({s * t, el(l.sbo)})
               : Str({1, t, el(l.sbo)}) + "," + Str({t, el(l.lbo)});
  }
  return out + ")";
}

Result<CanonicalLayout> ParseCanonical(std::string_view cute, DType dtype) {
  using R = Result<CanonicalLayout>;
  CanonicalLayout l;
  l.dtype = dtype;
  l.swizzle = Swizzle::kNone;
  // Optional "Swizzle<B,M,S> o " header; no header means no swizzle.
  std::string_view rest = cute;
  while (!rest.empty() && rest.front() == ' ') rest.remove_prefix(1);
  if (rest.starts_with("Swizzle<")) {
    const std::size_t close = rest.find('>');
    if (close == std::string_view::npos) return R::Fail("layout: unterminated Swizzle<...>");
    const std::string_view args = rest.substr(8, close - 8);
    int v[3] = {0, 0, 0};
    int n = 0;
    for (std::size_t i = 0; i < args.size() && n < 3; ++i) {
      if (args[i] == ',') {
        ++n;
      } else if (std::isdigit(static_cast<unsigned char>(args[i]))) {
        v[n] = v[n] * 10 + (args[i] - '0');
      } else if (args[i] != ' ') {
        return R::Fail("layout: bad Swizzle arguments '" + std::string(args) + "'");
      }
    }
    bool found = false;
    for (Swizzle s :
         {Swizzle::kNone, Swizzle::k32B, Swizzle::k64B, Swizzle::k128B, Swizzle::k128B32BAtom}) {
      if (FunctorOf(s) == SwizzleFunctor{v[0], v[1], v[2]}) {
        l.swizzle = s;
        found = true;
      }
    }
    if (!found || n != 2) {
      return R::Fail("layout: Swizzle<" + std::string(args) + "> is not a canonical swizzle");
    }
    rest.remove_prefix(close + 1);
    while (!rest.empty() && rest.front() == ' ') rest.remove_prefix(1);
    if (!rest.starts_with("o ")) return R::Fail("layout: expected 'o' after Swizzle<...>");
    rest.remove_prefix(2);
  }
  const std::size_t colon = rest.find(':');
  if (colon == std::string_view::npos) return R::Fail("layout: expected shape:stride");
  Parser ps(rest.substr(0, colon)), pd(rest.substr(colon + 1));
  Result<Tuple> shape = ps.ParseTuple();
  if (!shape.ok()) return R::Fail("shape " + shape.error());
  Result<Tuple> stride = pd.ParseTuple();
  if (!stride.ok()) return R::Fail("stride " + stride.error());
  if (!ps.AtEnd() || !pd.AtEnd()) return R::Fail("layout: trailing characters");
  const Tuple& sh = shape.value();
  const Tuple& st = stride.value();
  if (sh.leaf || st.leaf || sh.kids.size() != 2 || st.kids.size() != 2) {
    return R::Fail("layout: expected (rows,K):(rows,K) modes");
  }
  const int64_t eb = StorageBits(dtype);
  const int64_t t = 128 / eb;
  const int64_t s = SwizzleRowBytes(l.swizzle) / 16;
  const bool swz = l.swizzle != Swizzle::kNone;
  const auto bytes = [eb](int64_t el) { return static_cast<uint64_t>(el * eb / 8); };
  const auto expect = [](int64_t got, int64_t want, const char* what) -> std::string {
    if (got == want) return {};
    return std::string("layout: ") + what + " is " + std::to_string(got) + ", expected " +
           std::to_string(want);
  };
  std::string err;
  if (Is(sh.kids[0], 2) && Is(sh.kids[1], 2) && Is(st.kids[0], 2) && Is(st.kids[1], 2)) {
    // K-major: ((8,m),(T,2k)) : ((rowstride,SBO),(1, LBO or T)).
    l.major = Major::kK;
    const auto& rs = sh.kids[0].kids;
    const auto& ks = sh.kids[1].kids;
    const auto& rd = st.kids[0].kids;
    const auto& kd = st.kids[1].kids;
    for (const std::string& e :
         {expect(rs[0].value, 8, "the row-group size"), expect(ks[0].value, t, "the K unit size"),
          expect(rd[0].value, swz ? s * t : t, "the row stride"),
          expect(kd[0].value, 1, "the element stride"),
          swz ? expect(kd[1].value, t, "the K unit stride") : std::string()}) {
      if (err.empty()) err = e;
    }
    if (ks[1].value % 2 != 0 && err.empty()) err = "layout: the K unit count must be even (2k)";
    l.m = static_cast<int>(rs[1].value);
    l.k = static_cast<int>(ks[1].value / 2);
    l.sbo = bytes(rd[1].value);
    l.lbo = swz ? 0 : bytes(kd[1].value);
  } else if (Is(sh.kids[0], 3) && Is(sh.kids[1], 2) && Is(st.kids[0], 3) && Is(st.kids[1], 2)) {
    // MN-major: ((T,S,m),(R,k)) : ((1,T,LBO|SBO),(S*T,SBO|LBO)), R = AtomKRows (S7).
    l.major = Major::kMN;
    const auto& rs = sh.kids[0].kids;
    const auto& ks = sh.kids[1].kids;
    const auto& rd = st.kids[0].kids;
    const auto& kd = st.kids[1].kids;
    for (const std::string& e :
         {expect(rs[0].value, t, "the MN unit size"),
          expect(rs[1].value, s, "the units per swizzle row"),
          expect(ks[0].value, AtomKRows(l.swizzle), "the K group size"),
          expect(rd[0].value, 1, "the element stride"), expect(rd[1].value, t, "the unit stride"),
          expect(kd[0].value, s * t, "the K stride")}) {
      if (err.empty()) err = e;
    }
    l.m = static_cast<int>(rs[2].value);
    l.k = static_cast<int>(ks[1].value);
    l.lbo = bytes(swz ? rd[2].value : kd[1].value);
    l.sbo = bytes(swz ? kd[1].value : rd[2].value);
  } else {
    return R::Fail("layout: neither ((8,m),(T,2k)) nor ((T,S,m),(R,k)) modes");
  }
  if (!err.empty()) return R::Fail(err);
  if (l.m < 1 || l.k < 1) return R::Fail("layout: repeat counts must be positive");
  return R::Ok(l);
}

EncodedStrides EncodeStrides(const CanonicalLayout& l) {
  const bool k_swizzled = l.major == Major::kK && l.swizzle != Swizzle::kNone;
  return EncodedStrides{k_swizzled && l.lbo == 0 ? 1 : l.lbo >> 4, l.sbo >> 4};
}

SmemMatrix MatrixFor(const CanonicalLayout& l, uint64_t start) {
  SmemMatrix m;
  m.start = start;
  const EncodedStrides e = EncodeStrides(l);
  m.lbo = e.lbo << 4;
  m.sbo = e.sbo << 4;
  m.swizzle = l.swizzle;
  m.base_offset = BaseOffsetFor(l.swizzle, start);
  return m;
}

bool operator==(const CanonicalLayout&, const CanonicalLayout&) = default;

}  // namespace tcfuzz::oracle::smem
