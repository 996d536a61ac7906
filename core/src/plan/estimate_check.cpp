#include "estimate_check.hpp"

#include <cmath>
#include <string>

#include "heteropipe/limits.hpp"
#include "heteropipe/pipeline.hpp"

namespace heteropipe::plan_detail {
namespace {

// A whole number in [low, high].
std::optional<Error> check_count(double x, Field field, double low, double high) {
  if (std::isnan(x)) return Error{ErrorCode::not_finite, field, kWholeField, 0.0, "nan"};
  if (std::isinf(x)) return Error{ErrorCode::not_finite, field, kWholeField, 0.0, x > 0 ? "inf" : "-inf"};
  if (x < low || x > high) return Error{ErrorCode::out_of_range, field, kWholeField, x, {}, x < low ? low : high};
  if (x != std::floor(x)) return Error{ErrorCode::not_integer, field, kWholeField, x, {}};
  return std::nullopt;
}

}  // namespace

std::optional<Error> check_number(double x, Field field, std::int64_t index, bool may_be_zero) {
  if (std::isnan(x)) return Error{ErrorCode::not_finite, field, index, 0.0, "nan"};
  if (std::isinf(x)) return Error{ErrorCode::not_finite, field, index, 0.0, x > 0 ? "inf" : "-inf"};
  if (x < 0) return Error{ErrorCode::negative, field, index, x, {}};
  if (x == 0 && !may_be_zero) return Error{ErrorCode::not_positive, field, index, 0.0, {}};
  return std::nullopt;
}

std::optional<Error> check_estimate_scalars(const EstimateInput& input) {
  const auto S = static_cast<std::int64_t>(input.devices.size());
  if (S == 0) return Error{ErrorCode::empty, Field::devices, kWholeField, 0.0, {}};
  if (S > limits::kMaxPlanDevices) {
    return Error{ErrorCode::too_many, Field::devices, kWholeField, static_cast<double>(S), {},
                 static_cast<double>(limits::kMaxPlanDevices)};
  }
  if (auto e = check_count(input.tokens, Field::tokens, 1, limits::kMaxEstimateTokens)) return e;
  if (auto e = check_count(input.context, Field::context, 0, limits::kMaxEstimateContext)) return e;
  return check_batches(input.M);  // before the KV cache of M micro-batches is sized
}

}  // namespace heteropipe::plan_detail
