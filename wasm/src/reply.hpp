#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "heteropipe/error.hpp"
#include "heteropipe/visit.hpp"
#include "protocol.hpp"

// Replies: any result, walked through its visitor (heteropipe/visit.hpp),
// becomes records (protocol.hpp) that one JS function turns into plain
// objects. The records give the addresses of lists and texts, not copies. A
// small reply is then copied whole into an area the module shares between
// calls, and all the rest given back at once; a large one keeps what its
// records point into until the wrapper calls release().
namespace heteropipe::wasm {

// wasm32 addresses are below 2^32, so a double holds them exactly.
inline double address_of(const void* p) { return static_cast<double>(reinterpret_cast<std::uintptr_t>(p)); }

// What every operation returns, at the address it hands the wrapper.
struct Reply {
  double status;   // 0: the records are the result; -1: they are one error
  double records;  // address of the first record
  double count;    // how many records
  double kept;     // address of what the records point into, for release(); 0: nothing to release
};

// A reply being written, and everything its records point into. Given-back
// ones are reused, so a call allocates no records in the steady state.
struct Kept {
  Reply head;
  std::vector<double> records;             // the first `used` hold records
  std::size_t used = 0;
  std::string texts;                       // every text value, copied (some are temporaries)
  std::vector<std::vector<double>> lists;  // lists computed on demand, moved here
  std::shared_ptr<const void> result;      // the result whose members the other lists are
};

// An empty Kept, reused when one was given back.
std::unique_ptr<Kept> new_reply();

// The names of reply fields, each kept once, by its text: a record names its
// field by its index in this table, and gives the address of the table's copy
// of the text, which the wrapper reads the first time it meets that index
// (decode.js keys its shapes by the indices). The table never moves or
// allocates; past its room (far more names than every visitor has) a name
// has index -1 and is read from its record every time.
struct FieldName {
  double index;      // -1: not in the table
  const char* text;  // the table's copy, or the name's own characters
};
FieldName field_name(std::string_view name);

// The visitor every result is walked with (see heteropipe/visit.hpp).
class Writer {
 public:
  explicit Writer(Kept& kept) : kept_(kept) {}

  void operator()(std::string_view name, double x) { put(Kind::number, name, x); }
  void operator()(std::string_view name, std::int64_t x) { put(Kind::integer, name, static_cast<double>(x)); }
  void operator()(std::string_view name, bool x) { put(Kind::boolean, name, x ? 1 : 0); }
  void operator()(std::string_view name, std::string_view x);
  void operator()(std::string_view name, const std::vector<double>& x) {
    put(Kind::list, name, address_of(x.data()), static_cast<double>(x.size()));
  }
  void operator()(std::string_view name, std::vector<double>&& x) {
    kept_.lists.push_back(std::move(x));
    (*this)(name, static_cast<const std::vector<double>&>(kept_.lists.back()));
  }
  void operator()(std::string_view name, const ComputedList& x) { (*this)(name, x.values()); }
  // Whole numbers (counts) travel as doubles, exact below 2^53.
  void operator()(std::string_view name, const std::vector<std::int64_t>& x) {
    (*this)(name, std::vector<double>(x.begin(), x.end()));
  }
  void operator()(std::string_view name, const std::optional<double>& x) {
    if (x) {
      put(Kind::number, name, *x);
    } else {
      put(Kind::null_value, name, 0);
    }
  }
  // Passed by reference: a list's address must outlive the call.
  void operator()(std::string_view name, const std::optional<std::vector<double>>& x) {
    if (x) {
      (*this)(name, *x);
    } else {
      put(Kind::null_value, name, 0);
    }
  }
  template <class F>
  void operator()(std::string_view name, const Object<F>& object) {
    const std::size_t at = open(Kind::object, name);
    object.fields(*this);
    close(at);
  }
  template <class U>
  void operator()(std::string_view name, const Objects<U>& list) {
    const std::size_t at = open(Kind::objects, name);
    for (const U& item : list.items) {
      const std::size_t inner = open(Kind::object, {});
      visit_fields(item, *this);
      close(inner);
    }
    close(at);
  }
  // Each item's values, unnamed, in visit_fields' order.
  template <class U>
  void operator()(std::string_view name, const Tuples<U>& list) {
    const std::size_t at = open(Kind::tuples, name);
    for (const U& item : list.items) {
      const std::size_t inner = open(Kind::tuple, {});
      visit_fields(item, [this](std::string_view, const auto& element) { (*this)({}, element); });
      close(inner);
    }
    close(at);
  }

 private:
  void put(Kind kind, std::string_view name, double a, double b = 0);
  std::size_t open(Kind kind, std::string_view name);
  void close(std::size_t at);

  Kept& kept_;
};

// Whether a reply is small enough to be copied whole into the shared area.
bool fits_shared(const Kept& kept);
// The address of a finished reply (Reply above).
double finish(std::unique_ptr<Kept> kept, double status);

// A reply whose fields `fields(writer)` writes.
template <class Fields>
double reply_of(Fields&& fields) {
  auto kept = new_reply();
  Writer writer(*kept);
  fields(writer);
  return finish(std::move(kept), 0);
}

// A reply of `result`, whose fields `fields(result, writer)` writes (by
// default its visit_fields). A large one keeps the result until release:
// moved, its lists keep their addresses.
template <class T, class Fields>
double answer(T&& result, Fields&& fields) {
  auto kept = new_reply();
  Writer writer(*kept);
  fields(static_cast<const std::decay_t<T>&>(result), writer);
  if (!fits_shared(*kept)) kept->result = std::make_shared<std::decay_t<T>>(std::forward<T>(result));
  return finish(std::move(kept), 0);
}
template <class T>
double answer(T&& result) {
  return answer(std::forward<T>(result), [](const auto& r, Writer& w) { visit_fields(r, w); });
}

// One value, named "value".
template <class T>
double value(T x) {
  return reply_of([x](Writer& w) { w("value", x); });
}

// The failed reply: the error's fields and its English sentence.
double refuse(const Error& error);
// The failed reply of several errors: the first's fields and sentence, and
// all of them (the first included) as `errors`.
double refuse(const std::vector<Error>& errors);

// Frees a large reply (plumbing, called by the wrapper once it has read it).
void release(double kept);

}  // namespace heteropipe::wasm
