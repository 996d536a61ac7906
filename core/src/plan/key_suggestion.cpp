#include "key_suggestion.hpp"

#include <algorithm>
#include <string>
#include <vector>

namespace heteropipe::plan_detail {
namespace {

// Longer names are no typo of a key (the longest is 18 bytes).
constexpr std::size_t kLongestTypo = 64;

// Edits (insert, delete, replace, swap of neighbours) from a to b.
std::size_t distance(std::string_view a, std::string_view b) {
  const std::size_t n = a.size(), m = b.size();
  std::vector<std::size_t> d((n + 1) * (m + 1));
  auto at = [&](std::size_t i, std::size_t j) -> std::size_t& { return d[i * (m + 1) + j]; };
  for (std::size_t i = 0; i <= n; ++i) at(i, 0) = i;
  for (std::size_t j = 0; j <= m; ++j) at(0, j) = j;
  for (std::size_t i = 1; i <= n; ++i) {
    for (std::size_t j = 1; j <= m; ++j) {
      const std::size_t change = a[i - 1] == b[j - 1] ? 0 : 1;
      at(i, j) = std::min({at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + change});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) at(i, j) = std::min(at(i, j), at(i - 2, j - 2) + 1);
    }
  }
  return at(n, m);
}

}  // namespace

const Key* find_key(Keys keys, std::string_view name) {
  for (std::size_t k = 0; k < keys.size; ++k) {
    if (keys.begin[k].name == name) return keys.begin + k;
  }
  return nullptr;
}

Error unknown_key(std::string_view name, Field where, std::int64_t index, Keys keys) {
  Error e{ErrorCode::unknown_key, where, index, 0.0, std::string(name)};
  if (name.size() > kLongestTypo) return e;
  std::size_t best = 0;
  for (std::size_t k = 0; k < keys.size; ++k) {
    const std::string_view key = keys.begin[k].name;
    // Near: at most 2 edits, and fewer than half the key's length (so "x" is no typo of "M").
    const std::size_t edits = distance(name, key);
    if (edits <= 2 && 2 * edits < key.size() && (e.value == 0 || edits < best)) {
      e.field = keys.begin[k].field;
      e.value = 1;
      best = edits;
    }
  }
  return e;
}

}  // namespace heteropipe::plan_detail
