#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "heteropipe/error.hpp"

// A pull reader over JSON text: the trace reader asks for the values it
// wants and skips the rest, so a large file costs no tree in memory. The
// first problem is kept in `error` and every later call fails at once.
namespace heteropipe::trace_detail {

enum class JsonType { object, array, string, number, boolean, null, none };

// A JSON number's text (as number_text accepts it) as the nearest double, the
// value strtod gives, without strtod for the numbers profilers write: when
// its digits make an integer up to 2^53 and its power of ten is at most 22
// either way (one correctly rounded multiplication or division of two exact
// doubles: Clinger's fast path), or when it has a fraction and its whole part
// is below 2^53 (rounded by integer arithmetic); through strtod otherwise.
double json_number_value(std::string_view token);

class JsonCursor {
 public:
  JsonCursor(std::string_view text, std::string_view label) : text_(text), label_(label) {}

  std::optional<Error> error;

  std::size_t offset() const { return pos_; }
  // The type of the next value (after blanks), or none at the end or on error.
  JsonType peek();
  // '{' / '[' of the next value.
  bool enter(char open);
  // In an object: the next key, or false at its '}' (consumed).
  bool next_key(std::string& key);
  // In an array: whether another item follows, or false at its ']' (consumed).
  bool next_item();
  bool read_string(std::string& out);
  // A number; NaN and Infinity literals are a not_finite error naming `field`.
  bool read_number(double& out, Field field);
  // The digits of a whole number exactly (for nanosecond clocks past 2^53).
  bool read_integer(std::int64_t& out, Field field);
  bool skip_value();
  // Only blanks may follow the top-level value.
  bool finish();

  // Records an error at the given offset (the current one by default).
  bool fail(ErrorCode code, Field field, double value = 0, std::optional<std::size_t> at = std::nullopt);

 private:
  void blanks();
  bool expect(char c);
  bool leave();
  bool string_body(std::string* out);  // past a closing bracket; always false (the end of a list)
  bool number_text(std::string_view& token, Field field);

  std::string_view text_;
  std::string label_;
  std::size_t pos_ = 0;
  std::vector<bool> first_;
  std::string key_;  // the keys of skipped objects, one buffer for all  // per open object or array: no item read yet
};

}  // namespace heteropipe::trace_detail
