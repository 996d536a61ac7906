#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <nlohmann/json.hpp>

#include "heteropipe/visit.hpp"

// Any visitable result as JSON (see heteropipe/visit.hpp). ordered_json keeps
// the visitor's order; its dump writes the shortest text that reads back to
// the same double.
namespace heteropipe::cli {

using Json = nlohmann::ordered_json;

template <class Fields>
Json json_object(Fields&& fields);

template <class T>
Json json_value(const T& value) {
  if constexpr (std::is_same_v<T, std::string_view>) {
    return std::string(value);
  } else if constexpr (std::is_same_v<T, ComputedList>) {
    return value.values();
  } else if constexpr (std::is_same_v<T, std::optional<double>>) {
    return value ? Json(*value) : Json(nullptr);
  } else if constexpr (std::is_same_v<T, std::optional<std::vector<double>>>) {
    return value ? Json(*value) : Json(nullptr);
  } else if constexpr (is_object<T>::value) {
    return json_object(value.fields);
  } else if constexpr (is_objects<T>::value) {
    Json list = Json::array();
    for (const auto& item : value.items) {
      list.push_back(json_object([&item](auto&& visit) { visit_fields(item, visit); }));
    }
    return list;
  } else if constexpr (is_tuples<T>::value) {
    Json list = Json::array();
    for (const auto& item : value.items) {
      Json tuple = Json::array();
      visit_fields(item, [&tuple](std::string_view, const auto& element) { tuple.push_back(json_value(element)); });
      list.push_back(std::move(tuple));
    }
    return list;
  } else {
    return value;
  }
}

template <class Fields>
Json json_object(Fields&& fields) {
  Json object = Json::object();
  fields([&object](std::string_view name, const auto& value) { object[std::string(name)] = json_value(value); });
  return object;
}

// The JSON object of a result whose visit_fields is found by argument lookup.
template <class T>
Json to_json(const T& result) {
  return json_object([&result](auto&& visit) { visit_fields(result, visit); });
}

}  // namespace heteropipe::cli
