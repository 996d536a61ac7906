#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

// The one shape every result takes on its way out. A result type T offers
//
//   template <class Visitor> void visit_fields(const T&, Visitor&& visit);
//
// which calls visit(name, value) once per field, in output order, with value
// one of:
//   double, std::int64_t, bool, std::string_view, const std::vector<double>&,
//   ComputedList  a list of doubles computed value by value (below),
//   std::optional<double>  a number, or null when empty,
//   const std::optional<std::vector<double>>&  a list of doubles, or null when empty,
//   Object<F>     a nested object whose fields F(visit) reports,
//   Objects<U>    a list of nested objects, each reported by visit_fields(const U&, visit),
//   Tuples<U>     a list of arrays, each the values that visit_fields(const U&, visit)
//                 reports, in order: numbers, nulls, booleans or texts, whose names
//                 name nothing in the output.
// A name is a string literal (or a view of one, such as field_name's), so a
// serializer may keep it. A list passed by const reference lives as long as
// the result (a member, or a view of one); a list computed on demand is passed
// as a temporary, so a serializer that keeps lists past the call moves it.
// Every front end (the CLI's JSON, the Python dicts, the JS objects) walks
// results through this protocol alone, so a field added to a visitor appears
// everywhere with no other change.
namespace heteropipe {

// A list whose i-th value is at(i), computed when asked: a pipeline's derived
// per-stage lists, which would otherwise cost a huge pipeline an array of its
// size each. `at` holds what it reads alive. A serializer either writes
// values(), or keeps the list and reads each value when it is asked for.
struct ComputedList {
  std::int64_t size = 0;
  std::function<double(std::int64_t)> at;

  std::vector<double> values() const {
    std::vector<double> out(static_cast<std::size_t>(size));
    for (std::int64_t i = 0; i < size; ++i) out[static_cast<std::size_t>(i)] = at(i);
    return out;
  }
};

template <class F>
struct Object {
  F fields;
};

template <class F>
Object<F> object(F fields) {
  return Object<F>{std::move(fields)};
}

template <class U>
struct Objects {
  const std::vector<U>& items;
};

template <class U>
Objects<U> objects(const std::vector<U>& items) {
  return Objects<U>{items};
}

template <class U>
struct Tuples {
  const std::vector<U>& items;
};

template <class U>
Tuples<U> tuples(const std::vector<U>& items) {
  return Tuples<U>{items};
}

template <class T>
struct is_object : std::false_type {};
template <class F>
struct is_object<Object<F>> : std::true_type {};

template <class T>
struct is_objects : std::false_type {};
template <class U>
struct is_objects<Objects<U>> : std::true_type {};

template <class T>
struct is_tuples : std::false_type {};
template <class U>
struct is_tuples<Tuples<U>> : std::true_type {};

}  // namespace heteropipe
