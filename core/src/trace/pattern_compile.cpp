// Reads a trace pattern and compiles it to the Pike VM's program (pattern.hpp).
// One pass with an explicit stack of open groups, so no pattern's nesting can
// exhaust the call stack. A piece of program ("fragment") jumps to positions
// of its own; its size is where it continues. Joining fragments shifts them.
#include <cstddef>
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "heteropipe/limits.hpp"
#include "pattern.hpp"

namespace heteropipe::trace_detail {
namespace {

using Inst = Pattern::Inst;
using Op = Pattern::Op;
using Code = std::vector<Inst>;
using Bytes = std::array<std::uint64_t, 4>;

// Counts beyond this are too large for any program the limit allows.
constexpr std::int64_t kCountCap = static_cast<std::int64_t>(limits::kMaxPatternStates) + 1;

bool digit(char c) { return c >= '0' && c <= '9'; }
bool letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

void add(Bytes& set, unsigned char b) { set[b >> 6] |= std::uint64_t{1} << (b & 63); }
void add_range(Bytes& set, unsigned char low, unsigned char high) {
  for (unsigned b = low; b <= high; ++b) add(set, static_cast<unsigned char>(b));
}
void add_set(Bytes& set, const Bytes& other) {
  for (int w = 0; w < 4; ++w) set[w] |= other[w];
}
Bytes negated(Bytes set) {
  for (auto& w : set) w = ~w;
  return set;
}

// \d, \s, \w (bytes: the ASCII sets) and their complements; false for other letters.
bool class_escape(char e, Bytes& set) {
  Bytes s{};
  switch (e) {
    case 'd': case 'D': add_range(s, '0', '9'); break;
    case 's': case 'S':
      for (unsigned char b : {'\t', '\n', '\v', '\f', '\r', ' '}) add(s, b);
      break;
    case 'w': case 'W':
      add_range(s, '0', '9'), add_range(s, 'a', 'z'), add_range(s, 'A', 'Z'), add(s, '_');
      break;
    default: return false;
  }
  set = (e >= 'A' && e <= 'Z') ? negated(s) : s;
  return true;
}

// \n \r \t \f \v as their byte; false for other characters.
bool control_escape(char e, unsigned char& byte) {
  switch (e) {
    case 'n': byte = '\n'; return true;
    case 'r': byte = '\r'; return true;
    case 't': byte = '\t'; return true;
    case 'f': byte = '\f'; return true;
    case 'v': byte = '\v'; return true;
    default: return false;
  }
}

Inst byte_in(const Bytes& set) {
  Inst i{Op::byte_in};
  i.bytes = set;
  return i;
}
Inst one(Op op, std::int32_t x = 0, std::int32_t y = 0) { return Inst{op, x, y, {}}; }

// `code`'s own targets moved by `by`, appended to `out`.
void append(Code& out, const Code& code) {
  const auto by = static_cast<std::int32_t>(out.size());
  for (Inst i : code) {
    if (i.op == Op::split || i.op == Op::jump) i.x += by;
    if (i.op == Op::split) i.y += by;
    out.push_back(i);
  }
}
std::int32_t size_of(const Code& c) { return static_cast<std::int32_t>(c.size()); }
// A split whose first choice is `preferred` (greedy) or `other` (lazy).
Inst choice(bool greedy, std::int32_t preferred, std::int32_t other) {
  return greedy ? one(Op::split, preferred, other) : one(Op::split, other, preferred);
}

Code alternatives(const Code& a, const Code& b) {
  const std::int32_t to_b = size_of(a) + 2, end = to_b + size_of(b);
  Code out{one(Op::split, 1, to_b)};
  append(out, a);
  out.push_back(one(Op::jump, end));
  append(out, b);
  return out;
}
// Whether `a` can match without taking a byte (assertions taken as passing).
bool can_be_empty(const Code& a) {
  std::vector<bool> seen(a.size(), false);
  std::vector<std::int32_t> todo{0};
  while (!todo.empty()) {
    const std::int32_t pc = todo.back();
    todo.pop_back();
    if (pc == size_of(a)) return true;
    if (seen[static_cast<std::size_t>(pc)]) continue;
    seen[static_cast<std::size_t>(pc)] = true;
    const Inst& i = a[static_cast<std::size_t>(pc)];
    if (i.op == Op::byte_in || i.op == Op::match) continue;
    if (i.op == Op::split) todo.push_back(i.y);
    todo.push_back(i.op == Op::split || i.op == Op::jump ? i.x : pc + 1);
  }
  return false;
}

// a*. When `a` can match nothing, it is (a+)?, so that the one iteration
// that matches nothing still sets its groups, as in Perl and RE2: a loop back
// to the same state at the same position ends that thread.
Code star(const Code& a, bool greedy) {
  const std::int32_t n = size_of(a);
  if (can_be_empty(a)) {
    Code out{choice(greedy, 1, n + 2)};
    append(out, a);
    out.push_back(choice(greedy, 1, n + 2));
    return out;
  }
  Code out{choice(greedy, 1, n + 2)};
  append(out, a);
  out.push_back(one(Op::jump, 0));
  return out;
}
// a{low,high}, high < 0 for no bound: low copies, then the rest optional,
// nested so that each later copy is tried only after the one before.
Code repeated(const Code& a, std::int64_t low, std::int64_t high, bool greedy) {
  Code out;
  if (high < 0 && low > 0) {
    // a{low,} is low - 1 copies, then a+ looping back to the last one (as
    // RE2 compiles it: the groups of a loop that matches nothing agree).
    for (std::int64_t k = 1; k < low; ++k) append(out, a);
    const std::int32_t start = size_of(out);
    append(out, a);
    out.push_back(choice(greedy, start, size_of(out) + 1));
    return out;
  }
  if (high < 0) return star(a, greedy);
  for (std::int64_t k = 0; k < low; ++k) append(out, a);
  // Every skip goes to the end: once one copy is left out, so are the rest.
  const std::int32_t end = size_of(out) + static_cast<std::int32_t>(high - low) * (size_of(a) + 1);
  for (std::int64_t k = low; k < high; ++k) {
    out.push_back(choice(greedy, size_of(out) + 1, end));
    append(out, a);
  }
  return out;
}
// Its states, bounded above, before it is built.
std::int64_t repeated_size(const Code& a, std::int64_t low, std::int64_t high) {
  const std::int64_t n = size_of(a);
  return high < 0 ? n * std::max<std::int64_t>(low, 1) + 2 : n * low + (n + 1) * (high - low);
}

// A group being read: its finished alternatives, the sequence of the current
// one, and the last atom (kept apart until we know whether a quantifier
// follows it).
struct Group {
  std::size_t open = 0;  // where its '(' is
  bool first = false;    // the pattern's first capturing group, whose text is kept
  bool has_alternatives = false;
  Code alternatives, sequence, atom;
  bool has_atom = false, repeatable = false;
};

class Compiler {
 public:
  Compiler(std::string_view pattern, Field field) : p_(pattern), field_(field) {}

  Result<Code> run() {
    groups_.push_back(Group{});
    for (i_ = 0; i_ < p_.size(); ++i_) {
      if (auto problem = step()) return *problem;
    }
    if (groups_.size() > 1) return refuse(groups_.back().open, kPatternSyntax);  // an unclosed '('
    Code code = finish(groups_.back());
    code.push_back(one(Op::match));
    if (code.size() > limits::kMaxPatternStates) return refuse(p_.size() - 1, kPatternTooLarge);
    return code;
  }

 private:
  Error refuse(std::size_t at, double what) const {
    // The 0-based character: UTF-8 lead bytes before `at`.
    std::int64_t character = 0;
    for (std::size_t k = 0; k < at && k < p_.size(); ++k) {
      if ((static_cast<unsigned char>(p_[k]) & 0xC0) != 0x80) ++character;
    }
    Error e{ErrorCode::bad_pattern, field_, character, what, std::string(p_)};
    if (what == kPatternTooLarge) e.limit = static_cast<double>(limits::kMaxPatternStates);
    return e;
  }
  bool too_large(std::int64_t states) const { return states > static_cast<std::int64_t>(limits::kMaxPatternStates); }

  Group& top() { return groups_.back(); }
  // Ends the pending atom of `g` (the innermost group unless given): it
  // joins its sequence.
  std::optional<Error> flush() { return flush(top()); }
  std::optional<Error> flush(Group& g) {
    if (g.has_atom) append(g.sequence, g.atom);
    g.atom.clear();
    g.has_atom = g.repeatable = false;
    if (too_large(size_of(g.sequence))) return refuse(i_, kPatternTooLarge);
    return std::nullopt;
  }
  std::optional<Error> atom(Code code, bool repeatable) {
    if (auto problem = flush()) return problem;
    top().atom = std::move(code);
    top().has_atom = true;
    top().repeatable = repeatable;
    return std::nullopt;
  }
  std::optional<Error> bytes(const Bytes& set) { return atom(Code{byte_in(set)}, true); }
  std::optional<Error> byte(unsigned char b) {
    Bytes set{};
    add(set, b);
    return bytes(set);
  }
  // The group's program: its alternatives, in order.
  Code finish(Group& g) {
    (void)flush(g);  // its size is checked by the caller, with the group's whole program
    if (!g.has_alternatives) return std::move(g.sequence);
    return alternatives(g.alternatives, g.sequence);
  }

  std::optional<Error> step() {
    const char c = p_[i_];
    switch (c) {
      case '(': return open();
      case ')': return close();
      case '|': {
        if (auto problem = flush()) return problem;
        Group& g = top();
        g.alternatives = g.has_alternatives ? alternatives(g.alternatives, g.sequence) : std::move(g.sequence);
        g.has_alternatives = true;
        g.sequence.clear();
        if (too_large(size_of(g.alternatives))) return refuse(i_, kPatternTooLarge);
        return std::nullopt;
      }
      case '*': return quantify(0, -1, i_);
      case '+': return quantify(1, -1, i_);
      case '?': return quantify(0, 1, i_);
      case '{': return braces();
      case '}': case ']': return refuse(i_, kPatternSyntax);
      case '^': return atom(Code{one(Op::text_begin)}, false);
      case '$': return atom(Code{one(Op::text_end)}, false);
      case '.': {
        Bytes set{};
        add(set, '\n'), add(set, '\r');
        return bytes(negated(set));
      }
      case '[': return bracket();
      case '\\': return escape();
      default: return byte(static_cast<unsigned char>(c));
    }
  }

  std::optional<Error> open() {
    const std::size_t at = i_;
    bool capturing = true;
    if (i_ + 1 < p_.size() && p_[i_ + 1] == '?') {
      const char kind = i_ + 2 < p_.size() ? p_[i_ + 2] : '\0';
      const char after = i_ + 3 < p_.size() ? p_[i_ + 3] : '\0';
      if (kind == '=' || kind == '!' || (kind == '<' && (after == '=' || after == '!'))) {
        return refuse(at, kPatternLookaround);
      }
      if (kind != ':') return refuse(at, kPatternSyntax);  // named groups and flags are not the dialect's
      capturing = false;
      i_ += 2;
    }
    if (auto problem = flush()) return problem;
    Group g;
    g.open = at;
    if (capturing) g.first = ++captures_ == 1;
    groups_.push_back(std::move(g));
    return std::nullopt;
  }

  std::optional<Error> close() {
    if (groups_.size() == 1) return refuse(i_, kPatternSyntax);
    Group g = std::move(groups_.back());
    groups_.pop_back();
    Code body = finish(g);
    if (g.first) {
      Code saved{one(Op::save, 0)};
      append(saved, body);
      saved.push_back(one(Op::save, 1));
      body = std::move(saved);
    }
    if (too_large(size_of(body))) return refuse(i_, kPatternTooLarge);
    return atom(std::move(body), true);
  }

  // A quantifier at `at` ending at i_; a '?' after it makes it lazy.
  std::optional<Error> quantify(std::int64_t low, std::int64_t high, std::size_t at) {
    Group& g = top();
    if (!g.has_atom || !g.repeatable) return refuse(at, kPatternSyntax);  // nothing to repeat
    const bool lazy = i_ + 1 < p_.size() && p_[i_ + 1] == '?';
    if (lazy) ++i_;
    if (too_large(repeated_size(g.atom, low, high))) return refuse(at, kPatternTooLarge);
    g.atom = repeated(g.atom, low, high, !lazy);
    g.repeatable = false;
    return std::nullopt;
  }

  // A count at i_ (digits), capped at kCountCap; false when there is none.
  bool count(std::int64_t& n) {
    if (i_ >= p_.size() || !digit(p_[i_])) return false;
    n = 0;
    for (; i_ < p_.size() && digit(p_[i_]); ++i_) n = std::min(kCountCap, n * 10 + (p_[i_] - '0'));
    return true;
  }

  // {n}, {n,} or {n,m}.
  std::optional<Error> braces() {
    const std::size_t at = i_;
    std::int64_t low = 0, high = 0;
    ++i_;
    if (!count(low)) return refuse(at, kPatternSyntax);
    high = low;
    if (i_ < p_.size() && p_[i_] == ',') {
      ++i_;
      if (!count(high)) high = -1;
    }
    if (i_ >= p_.size() || p_[i_] != '}' || (high >= 0 && high < low)) return refuse(at, kPatternSyntax);
    return quantify(low, high, at);
  }

  std::optional<Error> escape() {
    const std::size_t at = i_;
    if (i_ + 1 >= p_.size()) return refuse(at, kPatternSyntax);
    const char e = p_[++i_];
    if (digit(e) && e != '0') return refuse(at, kPatternBackReference);
    if (e == '0') {
      if (i_ + 1 < p_.size() && digit(p_[i_ + 1])) return refuse(at, kPatternSyntax);  // octal: not the dialect's
      return byte(0);
    }
    if (e == 'b' || e == 'B') return atom(Code{one(e == 'b' ? Op::word_edge : Op::not_word_edge)}, false);
    Bytes set{};
    if (class_escape(e, set)) return bytes(set);
    unsigned char b = 0;
    if (control_escape(e, b)) return byte(b);
    if (letter(e)) return refuse(at, kPatternSyntax);  // \x, \u, \c, \k, \p ...: not the dialect's
    return byte(static_cast<unsigned char>(e));
  }

  // [...] or [^...]: bytes, ranges between two plain bytes, and the escapes
  // \d \D \s \S \w \W \n \r \t \f \v and escaped punctuation.
  std::optional<Error> bracket() {
    const std::size_t at = i_;
    std::size_t j = i_ + 1;
    const bool negate = j < p_.size() && p_[j] == '^';
    if (negate) ++j;
    if (j < p_.size() && p_[j] == ']') return refuse(j, kPatternSyntax);  // empty, or ']' first
    Bytes set{};
    int previous = -1;  // the last plain byte, for a range
    while (j < p_.size() && p_[j] != ']') {
      const char c = p_[j];
      if (c == '[') return refuse(j, kPatternSyntax);  // nested classes and [: :]: not the dialect's
      if (c == '\\') {
        if (j + 1 >= p_.size()) return refuse(j, kPatternSyntax);
        const char e = p_[j + 1];
        Bytes escaped{};
        unsigned char b = 0;
        if (class_escape(e, escaped)) {
          add_set(set, escaped);
        } else if (control_escape(e, b)) {
          add(set, b);
        } else if (letter(e) || digit(e)) {
          return refuse(j, kPatternSyntax);
        } else {
          add(set, static_cast<unsigned char>(e));
        }
        // A range from an escape is not the dialect's.
        if (j + 3 < p_.size() && p_[j + 2] == '-' && p_[j + 3] != ']') return refuse(j + 2, kPatternSyntax);
        previous = -1;
        j += 2;
        continue;
      }
      if (c == '-' && previous >= 0 && j + 1 < p_.size() && p_[j + 1] != ']') {
        const auto high = static_cast<unsigned char>(p_[j + 1]);
        if (high == '\\' || high == '[' || high < previous) return refuse(j, kPatternSyntax);
        add_range(set, static_cast<unsigned char>(previous), high);
        previous = -1;
        j += 2;
        continue;
      }
      add(set, static_cast<unsigned char>(c));
      previous = static_cast<unsigned char>(c);
      ++j;
    }
    if (j >= p_.size()) return refuse(at, kPatternSyntax);  // an unclosed '['
    i_ = j;
    return bytes(negate ? negated(set) : set);
  }

  std::string_view p_;
  Field field_;
  std::size_t i_ = 0;
  int captures_ = 0;
  std::vector<Group> groups_;
};

}  // namespace

Result<Pattern> Pattern::compile(std::string_view pattern, Field field) {
  auto code = Compiler(pattern, field).run();
  if (!code) return code.error();
  Pattern compiled;
  compiled.program_ = std::move(code).value();
  return compiled;
}

}  // namespace heteropipe::trace_detail
