// The Pike VM (pattern.hpp): every live thread steps over the text in
// lockstep, one per program state, kept in priority order, so a search takes
// text bytes x states at most. A thread carries where the first group began
// and ended. Following splits and jumps uses an explicit stack, not recursion.
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "pattern.hpp"

namespace heteropipe::trace_detail {
namespace {

struct Thread {
  std::int32_t pc;
  std::int32_t group[2];
};

// The threads at one position, in priority order, at most one per state.
class Threads {
 public:
  explicit Threads(std::size_t states) : slot_(states, 0) { list_.reserve(states); }
  bool holds(std::int32_t pc) const {
    const std::uint32_t k = slot_[static_cast<std::size_t>(pc)];
    return k < list_.size() && list_[k].pc == pc;
  }
  void add(const Thread& t) {
    slot_[static_cast<std::size_t>(t.pc)] = static_cast<std::uint32_t>(list_.size());
    list_.push_back(t);
  }
  void clear() { list_.clear(); }
  const std::vector<Thread>& list() const { return list_; }

 private:
  std::vector<std::uint32_t> slot_;  // a state's place in list_, if list_ holds it there
  std::vector<Thread> list_;
};

bool word(std::string_view text, std::size_t at) {
  if (at >= text.size()) return false;
  const char c = text[at];
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

}  // namespace

bool Pattern::run(std::string_view text, bool want_group, std::int32_t group[2]) const {
  using Op = Pattern::Op;
  Threads now(program_.size()), next(program_.size());
  std::vector<Thread> stack;
  // Adds `from` and every thread its splits, jumps, saves and assertions lead
  // to at position `at`, depth first, earlier choices first.
  auto follow = [&](Threads& into, Thread from, std::size_t at) {
    stack.push_back(from);
    while (!stack.empty()) {
      Thread t = stack.back();
      stack.pop_back();
      if (into.holds(t.pc)) continue;
      into.add(t);
      const Inst& inst = program_[static_cast<std::size_t>(t.pc)];
      bool pass = false;
      switch (inst.op) {
        case Op::jump:
          stack.push_back({inst.x, {t.group[0], t.group[1]}});
          continue;
        case Op::split:
          stack.push_back({inst.y, {t.group[0], t.group[1]}});
          stack.push_back({inst.x, {t.group[0], t.group[1]}});
          continue;
        case Op::save:
          t.group[inst.x] = static_cast<std::int32_t>(at);
          pass = true;
          break;
        case Op::text_begin: pass = at == 0; break;
        case Op::text_end: pass = at == text.size(); break;
        case Op::word_edge: pass = (at > 0 && word(text, at - 1)) != word(text, at); break;
        case Op::not_word_edge: pass = (at > 0 && word(text, at - 1)) == word(text, at); break;
        case Op::byte_in:
        case Op::match:
          continue;  // they wait in the list for the step
      }
      if (pass) stack.push_back({t.pc + 1, {t.group[0], t.group[1]}});
    }
  };
  bool matched = false;
  for (std::size_t at = 0; at <= text.size(); ++at) {
    // A match may start here, after every thread that started earlier.
    if (!matched) follow(now, Thread{0, {-1, -1}}, at);
    work_ += 1 + static_cast<double>(now.list().size());
    if (now.list().empty()) break;
    next.clear();
    for (const Thread& t : now.list()) {
      const Inst& inst = program_[static_cast<std::size_t>(t.pc)];
      if (inst.op == Op::match) {
        matched = true;
        group[0] = t.group[0];
        group[1] = t.group[1];
        if (!want_group) return true;
        break;  // the threads after it have lower priority
      }
      if (inst.op != Op::byte_in || at == text.size()) continue;
      const auto b = static_cast<unsigned char>(text[at]);
      if ((inst.bytes[b >> 6] >> (b & 63)) & 1) follow(next, Thread{t.pc + 1, {t.group[0], t.group[1]}}, at + 1);
    }
    std::swap(now, next);
  }
  return matched;
}

bool Pattern::found_in(std::string_view text) const {
  std::int32_t group[2];
  return run(text, false, group);
}

std::optional<std::string_view> Pattern::first_group(std::string_view text) const {
  std::int32_t group[2] = {-1, -1};
  if (!run(text, true, group) || group[0] < 0 || group[1] < group[0]) return std::nullopt;
  return text.substr(static_cast<std::size_t>(group[0]), static_cast<std::size_t>(group[1] - group[0]));
}

}  // namespace heteropipe::trace_detail
