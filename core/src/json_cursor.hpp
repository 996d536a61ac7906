#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "heteropipe/error.hpp"
#include "heteropipe/limits.hpp"

// A pull reader over JSON text, the one JSON reader of the core: the trace
// reader and the planner's input reader ask for the values they want and skip
// the rest, so a large file costs no tree in memory. Nothing in it recurses:
// skipping a value nested any depth keeps one bit per open level. The first
// problem is kept in `error` and every later call fails at once.
namespace heteropipe::json_detail {

// The text after a leading UTF-8 byte-order mark, if it has one.
std::string_view skip_bom(std::string_view text);
// The one check every text reader makes first: text that starts with a UTF-32
// byte-order mark (FF FE 00 00 or 00 00 FE FF) is utf32_text on `field`, and
// one that starts with a UTF-16 mark (FF FE or FE FF) utf16_text, not a
// syntax or number error a few bytes in.
std::optional<Error> encoding_error(std::string_view text, Field field, std::int64_t index = kWholeField,
                                 std::string_view label = {});

enum class JsonType { object, array, string, number, boolean, null, none };

// What an error quotes of a value's text: up to limits::kMaxQuoteBytes of it,
// cut at a UTF-8 character's start, and "..." when cut.
std::string quote_cut(std::string_view text);

// A JSON number's text (as number_text accepts it) as the nearest double, the
// value decimal_value gives, without it for the numbers profilers write: when
// its digits make an integer up to 2^53 and its power of ten is at most 22
// either way (one correctly rounded multiplication or division of two exact
// doubles: Clinger's fast path), or when it has a fraction and its whole part
// is below 2^53 (rounded by integer arithmetic); through decimal_value
// otherwise.
double json_number_value(std::string_view token);

class JsonCursor {
 public:
  // Syntax errors are not_json on `field` at the byte where reading stopped
  // (index), with `label` as token; entering more than `max_depth` open
  // objects and arrays is too_large there (skip_value has no such limit). A
  // leading byte-order mark is skipped.
  JsonCursor(std::string_view text, std::string_view label, Field field = Field::trace,
             std::int64_t max_depth = limits::kMaxTraceDepth)
      : text_(text), label_(label), field_(field), max_depth_(max_depth), pos_(text.size() - skip_bom(text).size()) {}

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
  // A number's text as it is written, for the reader to judge by its own
  // rules (a count, a time, a value of the plan), each of which refuses a
  // number typed other than 0 that reads as 0 or a subnormal
  // (lost_below_normal); NaN and Infinity literals are a not_finite error
  // naming `field`. There is no reader of a plain double here, which would
  // skip those rules.
  bool read_number_text(std::string_view& token, Field field);
  // Any one value, at any depth, without recursion.
  bool skip_value();
  // The text from `begin` to where reading is now.
  std::string_view text_from(std::size_t begin) const { return text_.substr(begin, pos_ - begin); }
  // Only blanks may follow the top-level value.
  bool finish();

  // Records an error at the given offset (the current one by default).
  bool fail(ErrorCode code, Field field, double value = 0, std::optional<std::size_t> at = std::nullopt);

 private:
  void blanks();
  bool expect(char c);
  bool leave();  // past a closing bracket; always false (the end of a list)
  bool string_body(std::string* out);
  bool open(char bracket);  // enter without the depth limit
  bool literal();

  std::string_view text_;
  std::string label_;
  Field field_;
  std::int64_t max_depth_;
  std::size_t pos_;
  std::vector<bool> first_;  // per open object or array: no item read yet
  std::string key_;  // the keys of skipped objects, one buffer for all
};

}  // namespace heteropipe::json_detail
