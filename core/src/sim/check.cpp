// The simulator's input checks (its names are in names.cpp).
#include <cmath>
#include <string>

#include "check_time.hpp"
#include "engine.hpp"
#include "heteropipe/limits.hpp"
#include "heteropipe/parse.hpp"
#include "heteropipe/sim/input.hpp"

namespace heteropipe::sim {
namespace {

std::string non_finite(double x) { return std::isnan(x) ? "nan" : x > 0 ? "inf" : "-inf"; }

Error at(ErrorCode code, Field field, std::int64_t index, double value, double limit = 0) {
  return Error{code, field, index, value, {}, limit};
}

}  // namespace

std::optional<Error> check_time(double x, Field field, std::int64_t index) {
  if (!std::isfinite(x)) return Error{ErrorCode::not_finite, field, index, 0.0, non_finite(x)};
  // A subnormal (5e-324) is too_small, as the same number typed in a CSV is: a matrix's cell at its
  // row and column, a sample at its stage, whichever front end passed it.
  if (auto e = subnormal_error(x, field, index, {})) return e;
  if (x < 0) return at(ErrorCode::negative, field, index, x);
  if (x > limits::kMaxValue) return at(ErrorCode::too_large, field, index, x, limits::kMaxValue);
  return std::nullopt;
}

std::optional<Error> check_sample(double x, std::int64_t index) {
  if (auto e = check_time(x, Field::service_samples, index)) return e;
  if (x == 0) return at(ErrorCode::not_positive, Field::service_samples, index, 0);
  // Each may be drawn alone, so each is a stage time's least (a makespan
  // of subnormal samples made the throughput, M over it, overflow).
  if (x < limits::kMinStageTime) return at(ErrorCode::too_small, Field::service_samples, index, x, limits::kMinStageTime);
  return std::nullopt;
}

namespace {

// A whole number in [low, high].
std::optional<Error> check_whole(double x, Field field, double low, double high) {
  if (!std::isfinite(x)) return Error{ErrorCode::not_finite, field, kWholeField, 0.0, non_finite(x)};
  if (x != std::floor(x)) return at(ErrorCode::not_integer, field, kWholeField, x);
  if (x < low) return at(ErrorCode::out_of_range, field, kWholeField, x, low);
  if (x > high) return at(ErrorCode::out_of_range, field, kWholeField, x, high);
  return std::nullopt;
}

// None, one for all, or one each.
std::optional<Error> check_count(std::size_t n, std::int64_t each, Field field) {
  if (n == 0 || n == 1 || static_cast<std::int64_t>(n) == each) return std::nullopt;
  return at(ErrorCode::wrong_length, field, kWholeField, static_cast<double>(n), static_cast<double>(each));
}

std::optional<Error> check_shared(const Options& o, std::int64_t links) {
  std::vector<std::int64_t> owner(static_cast<std::size_t>(links > 0 ? links : 0), -1);
  for (std::size_t g = 0; g < o.shared.size(); ++g) {
    const auto group = static_cast<std::int64_t>(g);
    if (o.shared[g].empty()) return at(ErrorCode::empty, Field::shared, group, 0);
    for (std::int64_t link : o.shared[g]) {
      if (link < 0 || link >= links) {
        return at(ErrorCode::no_such_link, Field::shared, group, static_cast<double>(link), static_cast<double>(links));
      }
      if (owner[link] >= 0) return at(ErrorCode::overlapping_groups, Field::shared, group, static_cast<double>(link));
      owner[link] = group;
    }
  }
  return std::nullopt;
}

std::optional<Error> check_buffers(const Options& o, std::int64_t links) {
  if (!o.buffers) return std::nullopt;
  const std::vector<double>& buffers = *o.buffers;
  // Given but empty is a mistake (an empty text or list), not "all infinite".
  if (buffers.empty()) return at(ErrorCode::empty, Field::buffers, kWholeField, 0);
  if (auto e = check_count(buffers.size(), links, Field::buffers)) return e;
  for (std::size_t i = 0; i < buffers.size(); ++i) {
    const double b = buffers[i];
    const auto index = static_cast<std::int64_t>(i);
    if (b == INFINITY) continue;
    if (!std::isfinite(b)) return Error{ErrorCode::not_finite, Field::buffers, index, 0.0, non_finite(b)};
    if (auto e = subnormal_error(b, Field::buffers, index, {})) return e;  // 5e-324, as typed text's
    if (b < 0) return at(ErrorCode::negative, Field::buffers, index, b);
    if (b != std::floor(b)) return at(ErrorCode::not_integer, Field::buffers, index, b);
    if (b > limits::kMaxBuffer) return at(ErrorCode::too_large, Field::buffers, index, b, limits::kMaxBuffer);
  }
  return std::nullopt;
}

// The engines keep, for the largest buffer that can fill, its history on
// every stage (docs/simulation.md); infinite ones and those that never fill
// keep none.
std::optional<Error> check_buffer_history(const Options& o, std::int64_t S) {
  if (S < 2 || !o.buffers) return std::nullopt;
  double largest = -1;
  std::int64_t where = kWholeField;
  for (std::size_t i = 0; i < o.buffers->size(); ++i) {
    const double b = (*o.buffers)[i];
    if (detail::can_fill(b, o.M) && b > largest) {  // never an infinite one
      largest = b;
      where = static_cast<std::int64_t>(i);
    }
  }
  const double history = static_cast<double>(S) * (largest + 1);
  if (largest < 0 || history <= limits::kMaxBufferHistory) return std::nullopt;
  return at(ErrorCode::buffer_history_too_large, Field::buffers, where, history, limits::kMaxBufferHistory);
}

// The event engine (shared links) may hold every transfer of a run queued
// (docs/simulation.md), so their number is bounded before anything is allocated.
std::optional<Error> check_queued_transfers(const Options& o, std::int64_t links) {
  if (o.shared.empty()) return std::nullopt;
  const double transfers = o.M * static_cast<double>(links);
  if (transfers <= limits::kMaxQueuedTransfers) return std::nullopt;
  return at(ErrorCode::too_many_transfers, Field::M, kWholeField, transfers, limits::kMaxQueuedTransfers);
}

std::optional<Error> check_distributions(const std::vector<Distribution>& list, std::int64_t each, Field field) {
  if (auto e = check_count(list.size(), each, field)) return e;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const Distribution& dist = list[i];
    const auto index = list.size() == 1 ? kWholeField : static_cast<std::int64_t>(i);
    const auto kind = static_cast<int>(dist.kind);
    if (kind < 0 || kind > static_cast<int>(DistributionKind::uniform)) {
      return Error{ErrorCode::unknown_name, field, index, 0.0, std::to_string(kind)};
    }
    const bool spread = dist.kind == DistributionKind::uniform;
    const bool shaped = spread || dist.kind == DistributionKind::lognormal || dist.kind == DistributionKind::gamma;
    if (!shaped) continue;
    const double x = dist.param, high = spread ? limits::kMaxSpread : limits::kMaxCv;
    if (!std::isfinite(x)) return Error{ErrorCode::not_finite, field, index, 0.0, non_finite(x)};
    if (x < 0 || x > high) return at(ErrorCode::out_of_range, field, index, x, high);
  }
  return std::nullopt;
}

// A matrix's cell i of rows `width` wide, its error at its row and column.
std::optional<Error> check_cell(double x, Field field, std::size_t i, std::int64_t width) {
  const auto cell = static_cast<std::int64_t>(i);
  auto e = check_time(x, field, cell / width);
  if (e) e->column = cell % width;
  return e;
}

std::optional<Error> check_matrix(const Pipeline& p, const Options& o) {
  if (!o.service_matrix) return std::nullopt;
  const std::vector<double>& matrix = *o.service_matrix;
  const double cells = o.M * static_cast<double>(p.S());
  if (static_cast<double>(matrix.size()) != cells) {
    return at(ErrorCode::wrong_length, Field::service_matrix, kWholeField, static_cast<double>(matrix.size()), cells);
  }
  double largest = 0;
  for (std::size_t i = 0; i < matrix.size(); ++i) {
    // The row is the micro-batch and the column the stage, as a person finds them in a file.
    if (auto e = check_cell(matrix[i], Field::service_matrix, i, p.S())) return e;
    largest = matrix[i] > largest ? matrix[i] : largest;
  }
  if (largest < limits::kMinStageTime) return at(ErrorCode::all_zero, Field::service_matrix, kWholeField, largest);
  return std::nullopt;
}

// The links' replayed times: any may be 0, as a measured link's can.
std::optional<Error> check_link_matrix(const Pipeline& p, const Options& o) {
  if (!o.link_matrix) return std::nullopt;
  const std::vector<double>& matrix = *o.link_matrix;
  const std::int64_t links = p.S() - 1;
  const double cells = o.M * static_cast<double>(links);
  if (static_cast<double>(matrix.size()) != cells) {
    return at(ErrorCode::wrong_length, Field::link_matrix, kWholeField, static_cast<double>(matrix.size()), cells);
  }
  for (std::size_t i = 0; i < matrix.size(); ++i) {
    if (auto e = check_cell(matrix[i], Field::link_matrix, i, links)) return e;
  }
  return std::nullopt;
}

// Strictly increasing, each in [0, 1]; as many as each stage has quantiles.
std::optional<Error> check_probabilities(const Options& o) {
  const std::vector<double>& probabilities = o.service_probabilities;
  if (probabilities.empty()) return std::nullopt;
  if (!o.service_samples) return at(ErrorCode::empty, Field::service_samples, kWholeField, 0);
  for (std::size_t k = 0; k < probabilities.size(); ++k) {
    const auto index = static_cast<std::int64_t>(k);
    const double x = probabilities[k];
    if (!std::isfinite(x)) return Error{ErrorCode::not_finite, Field::service_probabilities, index, 0.0, non_finite(x)};
    if (auto e = subnormal_error(x, Field::service_probabilities, index, {})) return e;
    if (x < 0 || x > 1) return at(ErrorCode::out_of_range, Field::service_probabilities, index, x, 1);
    if (k > 0 && x <= probabilities[k - 1]) return at(ErrorCode::not_ascending, Field::service_probabilities, index, x);
  }
  for (const Empirical& stage : *o.service_samples) {
    if (stage.values.size() != probabilities.size()) {
      return at(ErrorCode::wrong_length, Field::service_probabilities, kWholeField,
                static_cast<double>(probabilities.size()), static_cast<double>(stage.values.size()));
    }
  }
  return std::nullopt;
}

std::optional<Error> check_samples(const Pipeline& p, const Options& o) {
  if (!o.service_samples) return check_probabilities(o);
  const std::vector<Empirical>& stages = *o.service_samples;
  if (static_cast<std::int64_t>(stages.size()) != p.S()) {
    return at(ErrorCode::wrong_length, Field::service_samples, kWholeField, static_cast<double>(stages.size()),
              static_cast<double>(p.S()));
  }
  double total = 0;
  for (std::size_t s = 0; s < stages.size(); ++s) {
    const auto index = static_cast<std::int64_t>(s);
    const std::vector<double>& values = stages[s].values;
    if (values.empty()) return at(ErrorCode::empty, Field::service_samples, index, 0);
    total += static_cast<double>(values.size());
    if (total > limits::kMaxServiceSamples) {
      return at(ErrorCode::too_many, Field::service_samples, kWholeField, total, limits::kMaxServiceSamples);
    }
    for (std::size_t k = 0; k < values.size(); ++k) {
      if (auto e = check_sample(values[k], index)) return e;
      const bool quantiles = stages[s].quantiles || !o.service_probabilities.empty();
      if (quantiles && k > 0 && values[k] < values[k - 1]) {
        return at(ErrorCode::not_ascending, Field::service_samples, index, values[k]);
      }
    }
  }
  return check_probabilities(o);
}

}  // namespace

std::vector<Error> option_errors(const Pipeline& p, const Options& o) {
  const std::int64_t links = p.S() - 1;
  std::vector<Error> errors;
  const auto keep = [&errors](std::optional<Error> e) {
    if (e) errors.push_back(std::move(*e));
  };
  // Each field on its own first, so that every bad one is named at once.
  keep(check_batches(o.M));
  const auto mode = static_cast<int>(o.links);
  if (mode < 0 || mode > static_cast<int>(LinkMode::serial)) {
    errors.push_back(Error{ErrorCode::unknown_name, Field::link_mode, kWholeField, 0.0, std::to_string(mode)});
  }
  keep(check_shared(o, links));
  keep(check_buffers(o, links));
  keep(check_distributions(o.service, p.S(), Field::service));
  keep(check_distributions(o.link_service, links, Field::link_service));
  keep(check_matrix(p, o));
  keep(check_link_matrix(p, o));
  keep(check_samples(p, o));
  keep(check_whole(o.reps, Field::reps, 1, limits::kMaxReps));
  keep(check_whole(o.seed, Field::seed, 0, limits::kMaxBatches));
  if (!errors.empty()) return errors;
  // Then the work limits, which several fields decide together.
  const double cells = o.M * static_cast<double>(p.S());
  if (cells * o.reps > limits::kMaxSimCells) {
    // One replication over the limit is M's fault, not reps'.
    const Field culprit = cells > limits::kMaxSimCells ? Field::M : Field::reps;
    return {at(ErrorCode::too_many_sim_cells, culprit, kWholeField, cells * o.reps, limits::kMaxSimCells)};
  }
  // A random run's work: its draws and the streams each replication seeds.
  const detail::Setup setup = detail::make_setup(p, o);
  if (setup.random) {
    double samplers = 0;
    if (!setup.matrix) {
      for (const detail::Sampler& s : setup.stage) samplers += s.random() ? 1 : 0;
    }
    if (!setup.link_matrix) {
      for (const detail::Sampler& s : setup.link) samplers += s.random() ? 1 : 0;
    }
    const double per_rep = cells + limits::kSimDrawSteps * o.M * samplers +
                           limits::kSimStreamSteps * (2 * static_cast<double>(p.S()) - 1);
    if (per_rep * o.reps > limits::kMaxSimCells) {
      // One replication over the limit is its shape's fault: M's, or the
      // stages' (tau) when M is 1.
      const Field culprit = per_rep <= limits::kMaxSimCells ? Field::reps : o.M > 1 ? Field::M : Field::tau;
      return {at(ErrorCode::too_much_sim_work, culprit, kWholeField, per_rep * o.reps, limits::kMaxSimCells)};
    }
  }
  if (o.timeline && cells > limits::kMaxTimelineCells) {
    return {at(ErrorCode::too_many_cells, Field::M, kWholeField, cells, limits::kMaxTimelineCells)};
  }
  keep(check_buffer_history(o, p.S()));
  if (errors.empty()) keep(check_queued_transfers(o, links));
  // The event engine's time, once its memory is known to be bounded.
  if (errors.empty() && !o.shared.empty() && cells * o.reps > limits::kMaxSharedSimCells) {
    const Field culprit = cells > limits::kMaxSharedSimCells ? Field::M : Field::reps;
    errors.push_back(at(ErrorCode::too_many_sim_cells, culprit, kWholeField, cells * o.reps, limits::kMaxSharedSimCells));
  }
  return errors;
}

std::optional<Error> check_options(const Pipeline& p, const Options& o) {
  std::vector<Error> errors = option_errors(p, o);
  if (errors.empty()) return std::nullopt;
  return errors.front();
}

}  // namespace heteropipe::sim
