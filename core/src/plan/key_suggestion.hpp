#pragma once

#include <cstddef>
#include <string_view>

#include "heteropipe/error.hpp"

// The keys a JSON object of the planner's input may hold, and the error for
// one it may not: its name, and the nearest known key when one is near (a
// typo such as "objectve" or "allow_idle_device").
namespace heteropipe::plan_detail {

struct Key {
  std::string_view name;
  Field field;
};

// The keys of one object, as a view of a table.
struct Keys {
  constexpr Keys() = default;
  template <std::size_t N>
  constexpr Keys(const Key (&table)[N]) : begin(table), size(N) {}  // NOLINT(google-explicit-constructor)
  const Key* begin = nullptr;
  std::size_t size = 0;
};

const Key* find_key(Keys keys, std::string_view name);

// unknown_key for `name` in the object at (where, index): token the name; when
// a key of `keys` is near it, field that key and value 1, else field `where`
// and value 0.
Error unknown_key(std::string_view name, Field where, std::int64_t index, Keys keys);

}  // namespace heteropipe::plan_detail
