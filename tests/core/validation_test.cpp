// Every bad-input class: the code, the field, the index and the value.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "support.hpp"

using namespace heteropipe;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

Error error_of(AnalysisRequest request) {
  auto result = analyze(request);
  REQUIRE_FALSE(result.ok());
  return result.error();
}

void check_error(const AnalysisRequest& request, ErrorCode code, Field field, std::int64_t index, double value) {
  const Error e = error_of(request);
  CHECK(error_code_name(e.code) == error_code_name(code));
  CHECK(field_name(e.field) == field_name(field));
  CHECK(e.index == index);
  CHECK(e.value == value);
  CHECK(std::isfinite(e.value));
}

}  // namespace

TEST_CASE("tau: empty, negative, not finite, too large, all zero, too many") {
  check_error({{}, {}, 8, 1, {}}, ErrorCode::empty, Field::tau, kWholeField, 0);
  check_error({{1, -2, 3}, {}, 8, 1, {}}, ErrorCode::negative, Field::tau, 1, -2);
  check_error({{1, 2, kNaN}, {}, 8, 1, {}}, ErrorCode::not_finite, Field::tau, 2, 0);
  check_error({{kInf}, {}, 8, 1, {}}, ErrorCode::not_finite, Field::tau, 0, 0);
  check_error({{1, 2e15}, {}, 8, 1, {}}, ErrorCode::too_large, Field::tau, 1, 2e15);
  check_error({{0, 0, 0}, {}, 8, 1, {}}, ErrorCode::all_zero, Field::tau, kWholeField, 0);
  CHECK(error_of({{1, 2, kNaN}, {}, 8, 1, {}}).token == "nan");
  CHECK(error_of({{-kInf}, {}, 8, 1, {}}).token == "-inf");
  const std::vector<double> huge(static_cast<std::size_t>(limits::kMaxStages) + 1, 1.0);
  check_error({huge, {}, 8, 1, {}}, ErrorCode::too_many, Field::tau, kWholeField, static_cast<double>(huge.size()));
}

TEST_CASE("d: wrong length, negative, not finite, too large") {
  check_error({{1, 2, 3}, {1}, 8, 1, {}}, ErrorCode::wrong_length, Field::d, kWholeField, 1);
  check_error({{1, 2, 3}, {1, 2, 3}, 8, 1, {}}, ErrorCode::wrong_length, Field::d, kWholeField, 3);
  check_error({{1}, {0.5}, 8, 1, {}}, ErrorCode::wrong_length, Field::d, kWholeField, 1);
  check_error({{1, 2, 3}, {0.1, -0.5}, 8, 1, {}}, ErrorCode::negative, Field::d, 1, -0.5);
  check_error({{1, 2, 3}, {kNaN, 1}, 8, 1, {}}, ErrorCode::not_finite, Field::d, 0, 0);
  check_error({{1, 2, 3}, {1, 1e16}, 8, 1, {}}, ErrorCode::too_large, Field::d, 1, 1e16);
}

TEST_CASE("M: integer in [1, 2^53]") {
  const std::vector<double> tau{1, 2};
  check_error({tau, {}, 0, 1, {}}, ErrorCode::out_of_range, Field::M, kWholeField, 0);
  check_error({tau, {}, -3, 1, {}}, ErrorCode::out_of_range, Field::M, kWholeField, -3);
  check_error({tau, {}, 2.5, 1, {}}, ErrorCode::not_integer, Field::M, kWholeField, 2.5);
  check_error({tau, {}, 1e300, 1, {}}, ErrorCode::out_of_range, Field::M, kWholeField, 1e300);
  check_error({tau, {}, kNaN, 1, {}}, ErrorCode::not_finite, Field::M, kWholeField, 0);
  CHECK(analyze({tau, {}, limits::kMaxBatches, 1, {}}).ok());
  check_error({tau, {}, limits::kMaxBatches * 2, 1, {}}, ErrorCode::out_of_range, Field::M, kWholeField,
              limits::kMaxBatches * 2);
}

TEST_CASE("rho in [0, 1], T_real finite and > 0") {
  const std::vector<double> tau{1, 2};
  check_error({tau, {}, 8, 1.5, {}}, ErrorCode::out_of_range, Field::rho, kWholeField, 1.5);
  check_error({tau, {}, 8, -0.1, {}}, ErrorCode::out_of_range, Field::rho, kWholeField, -0.1);
  check_error({tau, {}, 8, kInf, {}}, ErrorCode::not_finite, Field::rho, kWholeField, 0);
  check_error({tau, {}, 8, 1, 0.0}, ErrorCode::not_positive, Field::T_real, kWholeField, 0);
  check_error({tau, {}, 8, 1, -4.0}, ErrorCode::not_positive, Field::T_real, kWholeField, -4);
  check_error({tau, {}, 8, 1, kNaN}, ErrorCode::not_finite, Field::T_real, kWholeField, 0);
  check_error({tau, {}, 8, 1, 1e16}, ErrorCode::too_large, Field::T_real, kWholeField, 1e16);
}

TEST_CASE("check_request reports one error per bad field, in field order") {
  const auto errors = check_request({{1, -1}, {-2, 3}, 0.5, 2, -1.0});
  REQUIRE(errors.size() == 5);
  CHECK(errors[0].field == Field::tau);
  CHECK(errors[1].field == Field::d);
  CHECK(errors[1].code == ErrorCode::wrong_length);  // checked against S = 2
  CHECK(errors[2].field == Field::M);
  CHECK(errors[3].field == Field::rho);
  CHECK(errors[4].field == Field::T_real);
  CHECK(check_request({{1, 2}, {0.5}, 8, 1, 3.0}).empty());
}

TEST_CASE("check_scalars reports the first bad one of M, rho, T_real, as analyze does") {
  const auto first = check_scalars(2.5, 2, -1.0);
  REQUIRE(first);
  CHECK(first->field == Field::M);
  CHECK(first->code == ErrorCode::not_integer);
  CHECK(first->value == 2.5);
  CHECK(check_scalars(8, 2, -1.0)->code == ErrorCode::out_of_range);
  CHECK(check_scalars(8, 2, -1.0)->field == Field::rho);
  CHECK(check_scalars(8, 1, -1.0)->code == ErrorCode::not_positive);
  CHECK(check_scalars(8, 1, -1.0)->field == Field::T_real);
  CHECK_FALSE(check_scalars(8, 0.5, std::nullopt));
  CHECK_FALSE(check_scalars(8, 0.5, 3.0));
  const auto e = analyze({{1, 2}, {0.5}, 8, 2, -1.0}).error();
  CHECK(e.field == Field::rho);
  CHECK(e.code == ErrorCode::out_of_range);
}

TEST_CASE("a pipeline hands its arrays back, storage and values") {
  std::vector<double> tau{0.5, 1, 1, 5}, d;
  const double* storage = tau.data();
  auto arrays = Pipeline::create(std::move(tau), std::move(d)).value().release();
  CHECK(arrays.first == std::vector<double>{0.5, 1, 1, 5});
  CHECK(arrays.first.data() == storage);
  CHECK(arrays.second == std::vector<double>{0, 0, 0});  // no d given: zero latencies
}

TEST_CASE("the largest inputs still give finite results") {
  const std::vector<double> tau{limits::kMaxValue, 0, limits::kMaxValue};
  const std::vector<double> d{limits::kMaxValue, limits::kMaxValue};
  const Analysis a = analyze({tau, d, limits::kMaxBatches, 0, limits::kMaxValue}).value();
  for (double x : {a.T_free, a.T_async, a.T_block, a.T_gpipe, a.homogeneity_bias, a.full_bias, a.overlap_gap,
                   a.effective_slope, a.crossover_batches, a.gpipe_overestimate, *a.overlap_ratio}) {
    CHECK(std::isfinite(x));
  }
  // The smallest accepted tau_max, with a one-ulp gap and the largest T_real.
  const double t = limits::kMinStageTime;
  const Analysis tiny = analyze({{t, 0}, {std::nextafter(t, 1.0)}, limits::kMaxBatches, 0, limits::kMaxValue}).value();
  for (double x : {tiny.T_block, tiny.asymptotic_throughput_async, tiny.crossover_batches, *tiny.overlap_ratio}) {
    CHECK(std::isfinite(x));
  }
  // A subnormal given is too_small at its item (limit min_normal_number), as typed text is; one the core
  // computed (of_computed_times) is a value, below the smallest stage time like any other.
  check_error({{5e-324, 0}, {}, 8, 1, {}}, ErrorCode::too_small, Field::tau, 0, 5e-324);
  CHECK(error_of({{5e-324, 0}, {}, 8, 1, {}}).limit == limits::kMinNormalNumber);
  CHECK(Pipeline::of_computed_times({5e-324, 0}).error().limit == limits::kMinStageTime);
  CHECK(Pipeline::of_computed_times({5e-324, 0}).error().index == kWholeField);
  CHECK(Pipeline::of_computed_times({1, 5e-324}).value().tau()[1] == 5e-324);
}

TEST_CASE("curve points given as a number follow the count rules of --curve") {
  CHECK_FALSE(check_curve_points(2).has_value());
  CHECK_FALSE(check_curve_points(static_cast<double>(limits::kMaxCurvePoints)).has_value());
  CHECK(check_curve_points(1)->code == ErrorCode::out_of_range);
  CHECK(check_curve_points(1)->limit == static_cast<double>(limits::kMinCurvePoints));
  CHECK(check_curve_points(1e9)->limit == static_cast<double>(limits::kMaxCurvePoints));
  CHECK(check_curve_points(12.5)->code == ErrorCode::not_integer);
  CHECK(check_curve_points(std::numeric_limits<double>::quiet_NaN())->code == ErrorCode::not_finite);
  CHECK(check_curve_points(1)->field == Field::points);
}

TEST_CASE("kFieldCount counts every field: field_name knows each below it and none at it") {
  for (std::size_t k = 0; k < kFieldCount; ++k) CHECK(field_name(static_cast<Field>(k)) != "unknown");
  CHECK(field_name(static_cast<Field>(kFieldCount)) == "unknown");
  CHECK(field_name(static_cast<Field>(kFieldCount - 1)) == "device");
}
