// The simulator (tool_bindings.cpp): the request's values become the core's
// options as Python's Pipeline.simulate makes them, text read by the core's
// own readers as the CLI reads it, and the core checks them all. Nested
// lists (shared groups, matrix rows, per-stage samples) arrive flattened,
// with a list of their lengths; lists of names as one text with their lengths.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <emscripten/val.h>

#include "heteropipe/limits.hpp"
#include "heteropipe/parse.hpp"
#include "heteropipe/sim/simulate.hpp"
#include "heteropipe/sim/text_input.hpp"
#include "memory.hpp"
#include "operations.hpp"

namespace heteropipe::wasm {
namespace {

// The most values one list of a request holds, flattened: the longest list
// any operation takes (tau's), as simulator.js copies no more. A matrix of
// more cells is refused by this count before JS builds it.
constexpr auto kMaxFlat = static_cast<double>(limits::kMaxStages);

// The lengths of the parts of `name` (sent as name + "_lengths").
struct Parts {
  std::vector<double> values, lengths;
};

Result<Parts> parts(Request& in, std::string_view name, std::string_view lengths, Field field) {
  Parts p;
  // The lengths first: the input read last as `field` is the one whose
  // tokens (a value JS passed that was no number) an error quotes.
  auto sizes = in.list(lengths, field, kMaxFlat);
  if (!sizes) return sizes.error();
  auto values = in.list(name, field, kMaxFlat);
  if (!values) return values.error();
  p.values = std::move(values).value();
  p.lengths = std::move(sizes).value();
  double total = 0;
  for (double n : p.lengths) total += n;
  // The wrapper sends them consistent; anything else is refused, never read past.
  if (total != static_cast<double>(p.values.size())) {
    return Error{ErrorCode::wrong_length, field, kWholeField, total, {}, static_cast<double>(p.values.size())};
  }
  return p;
}

// The values of part k of `p`, which starts at `at`.
std::vector<double> part(const Parts& p, std::size_t k, std::size_t at) {
  const auto n = static_cast<std::size_t>(p.lengths[k]);
  return std::vector<double>(p.values.begin() + static_cast<std::ptrdiff_t>(at),
                             p.values.begin() + static_cast<std::ptrdiff_t>(at + n));
}

Result<std::vector<std::vector<std::int64_t>>> read_shared(Request& in) {
  if (in.has("shared_text")) {
    auto t = in.text("shared_text", Field::shared);
    if (!t) return t.error();
    return sim::parse_shared(t.value());
  }
  auto p = parts(in, "shared", "shared_lengths", Field::shared);
  if (!p) return p.error();
  std::vector<std::vector<std::int64_t>> groups;
  std::size_t at = 0;
  for (std::size_t g = 0; g < p.value().lengths.size(); ++g) {
    std::vector<std::int64_t> links;
    for (double link : part(p.value(), g, at)) {
      // A subnormal (5e-324) is shared_link's too_small, named by its group as the CLI's --shared names it.
      auto member = sim::shared_link(link, static_cast<std::int64_t>(g));
      if (!member) return member.error();
      links.push_back(member.value());
    }
    at += links.size();
    groups.push_back(std::move(links));
  }
  return groups;
}

// None sent: every buffer infinite. Sent, even empty, the core checks it.
Result<std::optional<std::vector<double>>> read_buffers(Request& in) {
  if (!in.has("buffers_text")) {
    if (!in.has("buffers")) return std::optional<std::vector<double>>();
    auto values = in.list("buffers", Field::buffers, kMaxFlat);
    if (!values) return values.error();
    return std::optional<std::vector<double>>(std::move(values).value());
  }
  auto t = in.text("buffers_text", Field::buffers);
  if (!t) return t.error();
  auto parsed = sim::parse_buffers(t.value());
  if (!parsed) return parsed.error();
  return std::optional<std::vector<double>>(std::move(parsed).value());
}

// One name, or several (one text, cut at the UTF-8 lengths given).
Result<std::vector<sim::Distribution>> read_distributions(Request& in, std::string_view name,
                                                          std::string_view lengths_name, Field field) {
  auto t = in.text(name, field);
  if (!t) return t.error();
  if (!in.has(lengths_name)) {
    if (!in.has(name)) return std::vector<sim::Distribution>{};
    auto one = sim::parse_distribution(t.value(), field);
    if (!one) return one.error();
    return std::vector<sim::Distribution>{one.value()};
  }
  auto lengths = in.list(lengths_name, field, kMaxFlat);
  if (!lengths) return lengths.error();
  std::vector<sim::Distribution> list;
  std::size_t at = 0;
  for (double length : lengths.value()) {
    const std::string_view all = t.value();
    auto parsed = sim::parse_distribution(all.substr(std::min(at, all.size()), static_cast<std::size_t>(length)), field);
    if (!parsed) {
      Error e = parsed.error();
      e.index = static_cast<std::int64_t>(list.size());
      return e;
    }
    at += static_cast<std::size_t>(length);
    list.push_back(parsed.value());
  }
  return list;
}

// M rows of `width` numbers (S for service_matrix, S-1 for link_matrix),
// flattened; a row of another length is refused. Sent empty, it stays given
// (the core refuses it by its count).
Result<std::optional<std::vector<double>>> read_matrix(Request& in, const char* name, const char* lengths_name,
                                                       Field field, std::int64_t width) {
  if (!in.has(name)) return std::optional<std::vector<double>>();
  auto p = parts(in, name, lengths_name, field);
  if (!p) return p.error();
  const std::vector<double>& rows = p.value().lengths;
  for (std::size_t m = 0; m < rows.size(); ++m) {
    if (rows[m] != static_cast<double>(width)) {
      return Error{ErrorCode::wrong_length, field, static_cast<std::int64_t>(m), rows[m], {},
                   static_cast<double>(width)};
    }
  }
  // A subnormal cell (5e-324) is the core's too_small at its row and column (sim::option_errors).
  return std::optional<std::vector<double>>(std::move(p).value().values);
}

Result<std::optional<std::vector<sim::Empirical>>> read_samples(Request& in) {
  if (!in.has("service_samples")) return std::optional<std::vector<sim::Empirical>>();
  auto p = parts(in, "service_samples", "service_samples_lengths", Field::service_samples);
  if (!p) return p.error();
  const bool quantiles = in.flag("quantiles", false);
  const bool scaled = in.flag("scaled", false);
  std::vector<sim::Empirical> stages;
  std::size_t at = 0;
  for (std::size_t s = 0; s < p.value().lengths.size(); ++s) {
    stages.push_back(sim::Empirical{part(p.value(), s, at), quantiles, scaled});
    at += stages.back().values.size();
  }
  return std::optional<std::vector<sim::Empirical>>(std::move(stages));
}

// A whole number sent as a number, or as text (name + "_text") read as the
// CLI reads --reps and --seed: "x" is no number, "1.5" no whole number.
Result<double> whole(Request& in, std::string_view name, std::string_view text_name, Field field, double low,
                     double high, double fallback) {
  if (!in.has(text_name)) return in.number(name, field, fallback);
  auto t = in.text(text_name, field);
  if (!t) return t.error();
  return parse_count(t.value(), field, low, high);
}

// Reads one field into `into`, or adds its error (the field keeps its default,
// which the checks pass, so that the other fields are still checked).
template <class T>
void keep(Result<T> read, T& into, std::vector<Error>& errors) {
  if (read) into = std::move(read).value();
  else errors.push_back(read.error());
}

// The options, with every field's error reading them (checking is the core's).
sim::Options read_options(Request& in, std::int64_t S, std::vector<Error>& errors) {
  sim::Options o;
  o.M = in.number("M", Field::M, o.M);
  const std::string_view links = in.word("links");
  if (in.has("links")) keep(sim::link_mode_from_name(links), o.links, errors);
  keep(read_shared(in), o.shared, errors);
  keep(read_buffers(in), o.buffers, errors);
  keep(read_distributions(in, "service", "service_lengths", Field::service), o.service, errors);
  keep(read_distributions(in, "link_service", "link_service_lengths", Field::link_service), o.link_service, errors);
  keep(read_matrix(in, "service_matrix", "service_matrix_lengths", Field::service_matrix, S), o.service_matrix, errors);
  keep(read_matrix(in, "link_matrix", "link_matrix_lengths", Field::link_matrix, S - 1), o.link_matrix, errors);
  keep(read_samples(in), o.service_samples, errors);
  keep(in.list("service_probabilities", Field::service_probabilities, kMaxFlat), o.service_probabilities, errors);
  keep(whole(in, "reps", "reps_text", Field::reps, 1, limits::kMaxReps, o.reps), o.reps, errors);
  keep(whole(in, "seed", "seed_text", Field::seed, 0, limits::kMaxBatches, o.seed), o.seed, errors);
  o.timeline = in.flag("timeline", false);
  return o;
}

// Where in service_samples' flattened list the value a stage's not_finite is
// about lies: the stage's first value that is not finite (the core judges a
// stage's values in order), after the values of the stages before it.
std::int64_t sample_item(const sim::Options& o, std::int64_t stage) {
  if (!o.service_samples || stage < 0 || stage >= static_cast<std::int64_t>(o.service_samples->size())) return stage;
  std::int64_t item = 0;
  for (std::int64_t s = 0; s < stage; ++s) item += static_cast<std::int64_t>((*o.service_samples)[s].values.size());
  for (double x : (*o.service_samples)[stage].values) {
    if (!std::isfinite(x)) return item;
    ++item;
  }
  return item;
}

// The error, as JS passed its value: a matrix's cell was sent as item
// row x width + column of its flattened list, a stage's samples after the
// samples of the stages before it.
Error as_passed(const Request& in, const Error& e, std::int64_t S, const sim::Options& o) {
  if (e.field == Field::service_samples && e.index != kWholeField) return in.annotated(e, sample_item(o, e.index));
  if (!has_column(e) || e.column == kWholeField) return in.annotated(e);
  const std::int64_t width = e.field == Field::service_matrix ? S : S - 1;
  return in.annotated(e, e.index * width + e.column);
}

// The reader's errors, then the checks' about the other fields: every bad
// field at once, each once, each as JS passed it.
std::vector<Error> all_errors(const Request& in, std::vector<Error> read, const std::vector<Error>& checked,
                              std::int64_t S, const sim::Options& o) {
  for (const Error& e : checked) {
    const bool refused = std::any_of(read.begin(), read.end(), [&e](const Error& r) { return r.field == e.field; });
    if (!refused) read.push_back(e);
  }
  for (Error& e : read) e = as_passed(in, e, S, o);
  return read;
}

}  // namespace

double simulate(double staging, emscripten::val progress) {
  Request in(staging);
  auto p = read_pipeline(in);
  if (!p) return refuse(p.error());
  std::vector<Error> read_errors;
  sim::Options options = read_options(in, p.value().S(), read_errors);
  // The call's own on_progress, or undefined (simulator.js): the wrapper's
  // function, which never throws into the module. The request was staged in
  // an area of its own, so a call made from there cannot reach it.
  if (!progress.isUndefined()) {
    options.progress = [progress](double fraction) { progress(fraction); };
  }
  // The checks make the stages' samplers already: what these stages need at
  // least (one micro-batch, one replication) must fit before they run.
  sim::Options least;
  least.M = 1;
  least.reps = 1;
  const double stages = sim::working_bytes(p.value().S(), least);
  if (!room_for(stages)) return refuse(out_of_memory(Field::tau, stages));
  const std::vector<Error> checked = sim::option_errors(p.value(), options);
  if (!read_errors.empty() || !checked.empty()) return refuse(all_errors(in, std::move(read_errors), checked, p.value().S(), options));
  const double bytes = sim::working_bytes(p.value().S(), options);
  if (!room_for(bytes)) return refuse(out_of_memory(options.timeline ? Field::M : Field::reps, bytes));
  auto result = sim::simulate(p.value(), options);
  return result ? answer(std::move(result).value()) : refuse(in.annotated(result.error()));
}

}  // namespace heteropipe::wasm
