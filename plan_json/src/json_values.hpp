#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include <nlohmann/json.hpp>

#include "heteropipe/error.hpp"

// Reading typed values out of a JSON document, each failure a coded error.
namespace heteropipe::plan_json {

using nlohmann::json;

Error wrong_type(Field field, std::int64_t index, const json& value);

// The member, or nullptr when the key is absent.
const json* member(const json& object, const char* key);
// The member, or empty on `field` when the key is absent.
Result<const json*> required(const json& object, const char* key, Field field, std::int64_t index = kWholeField);

Result<double> number_at(const json& value, Field field, std::int64_t index);
// An optional number: absent stays nullopt.
Result<std::optional<double>> optional_number(const json& object, const char* key, Field field, std::int64_t index);
Result<std::string> string_at(const json& value, Field field, std::int64_t index);
// A list of numbers; errors carry `owner` (a device) when the list belongs
// to one, else the item.
Result<std::vector<double>> numbers_at(const json& value, Field field, std::int64_t owner = kWholeField);

}  // namespace heteropipe::plan_json
