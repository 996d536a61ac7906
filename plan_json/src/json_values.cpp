#include "json_values.hpp"

#include <limits>
#include <string>

namespace heteropipe::plan_json {

Error wrong_type(Field field, std::int64_t index, const json& value) {
  return Error{ErrorCode::wrong_type, field, index, 0.0, value.dump()};
}

const json* member(const json& object, const char* key) {
  const auto it = object.find(key);
  return it == object.end() ? nullptr : &*it;
}

Result<const json*> required(const json& object, const char* key, Field field, std::int64_t index) {
  const json* value = member(object, key);
  if (!value) return Error{ErrorCode::empty, field, index, 0.0, {}};
  return value;
}

Result<double> number_at(const json& value, Field field, std::int64_t index) {
  // JSON has no NaN or infinity; these spellings (JavaScript's and Python's)
  // carry one to the checks, which refuse it by name.
  if (value.is_string()) {
    const auto& text = value.get_ref<const std::string&>();
    if (text == "NaN") return std::numeric_limits<double>::quiet_NaN();
    if (text == "Infinity") return std::numeric_limits<double>::infinity();
    if (text == "-Infinity") return -std::numeric_limits<double>::infinity();
  }
  if (!value.is_number()) return wrong_type(field, index, value);
  return value.get<double>();
}

Result<std::optional<double>> optional_number(const json& object, const char* key, Field field, std::int64_t index) {
  const json* value = member(object, key);
  if (!value) return std::optional<double>{};
  auto x = number_at(*value, field, index);
  if (!x) return x.error();
  return std::optional<double>{x.value()};
}

Result<std::string> string_at(const json& value, Field field, std::int64_t index) {
  if (!value.is_string()) return wrong_type(field, index, value);
  return value.get<std::string>();
}

Result<std::vector<double>> numbers_at(const json& value, Field field, std::int64_t owner) {
  if (!value.is_array()) return wrong_type(field, owner, value);
  std::vector<double> out;
  out.reserve(value.size());
  for (std::size_t k = 0; k < value.size(); ++k) {
    const auto index = owner == kWholeField ? static_cast<std::int64_t>(k) : owner;
    auto x = number_at(value[k], field, index);
    if (!x) return x.error();
    out.push_back(x.value());
  }
  return out;
}

}  // namespace heteropipe::plan_json
