#include "messages.hpp"

#include "format.hpp"
#include "heteropipe/limits.hpp"

namespace heteropipe::cli {
namespace {

bool is_scalar(Field field) { return field == Field::M || field == Field::rho || field == Field::T_real; }

// The offending text when the parser kept it, else the value.
std::string shown(const Error& e) { return e.token.empty() ? exact(e.value) : e.token; }

std::string what(const Error& e, const MessageContext& context) {
  switch (e.code) {
    case ErrorCode::empty:
      return is_scalar(e.field) ? "is empty" : "needs at least one value";
    case ErrorCode::too_many:
      return "at most " + grouped(static_cast<double>(limits::kMaxStages)) + " values";
    case ErrorCode::not_finite:
      return "must be a finite number (got " + shown(e) + ")";
    case ErrorCode::negative:
      return "must be >= 0 (got " + exact(e.value) + ")";
    case ErrorCode::all_zero:
      return "at least one stage time must be > 0";
    case ErrorCode::too_small:
      return "the largest stage time must be at least 1e-15 (got " + exact(e.value) + ")";
    case ErrorCode::too_large:
      return std::string("must be at most ") + (e.field == Field::M ? "2^53" : "1e15") + " (got " + shown(e) + ")";
    case ErrorCode::wrong_length:
      // S - 1 links: a count for the sentence, not a model quantity.
      return "needs S-1 = " + std::to_string(context.stages - 1) +
             " link latencies, one per link, or none (got " + exact(e.value) + ")";
    case ErrorCode::not_integer:
      return "must be a whole number (got " + exact(e.value) + ")";
    case ErrorCode::out_of_range:
      if (e.field == Field::M) return "must be between 1 and 2^53 (got " + exact(e.value) + ")";
      return "must be between 0 and 1 (got " + exact(e.value) + ")";
    case ErrorCode::not_positive:
      return "must be > 0 (got " + exact(e.value) + ")";
    case ErrorCode::empty_item:
      return "empty item between separators";
    case ErrorCode::not_a_number:
      return "'" + e.token + "' is not a number";
    case ErrorCode::no_overlap_headroom:
      return "no overlap headroom: T_block equals T_async, so the overlap ratio is undefined";
    case ErrorCode::too_many_cells:
      return "M x S = " + grouped(e.value) +
             " cells is over the limit of " + grouped(context.cell_limit);
  }
  return std::string(error_code_name(e.code));
}

}  // namespace

std::string message(const Error& error, const MessageContext& context) {
  std::string where(field_name(error.field));
  if (error.index != kWholeField) where += ", item " + std::to_string(error.index + 1);
  return where + ": " + what(error, context);
}

}  // namespace heteropipe::cli
