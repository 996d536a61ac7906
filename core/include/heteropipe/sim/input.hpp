#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string_view>
#include <vector>

#include "heteropipe/error.hpp"
#include "heteropipe/pipeline.hpp"

// What the simulator is asked: a pipeline (tau, d) run beyond the paper's
// assumptions, with bounded buffers, link servers, shared links and random
// service times (the model: docs/simulation.md).
namespace heteropipe::sim {

// How a link s -> s+1 carries a micro-batch.
enum class LinkMode {
  async,     // the transfer starts when the micro-batch leaves stage s and overlaps anything (the paper's async)
  blocking,  // the sender is held until its transfer ends (the paper's blocking)
  serial,    // the link is a server: one transfer at a time, in micro-batch order
};

enum class DistributionKind { deterministic, exponential, lognormal, gamma, uniform };

// A service time of mean tau[s] (or d[s] for a link), drawn fresh for each
// micro-batch. param: the coefficient of variation of lognormal and gamma, in
// [0, limits::kMaxCv]; the relative spread of uniform, in [0, kMaxSpread].
// Below limits::kMinCv every draw is exactly the mean.
struct Distribution {
  DistributionKind kind = DistributionKind::deterministic;
  double param = 0;
};

// Measured service times of one stage: samples drawn with equal chance, or
// quantiles at evenly spaced probabilities 0, 1/(n-1), ..., 1 (or at
// Options::service_probabilities) interpolated linearly. Each value finite, > 0 and <= limits::kMaxValue; quantiles
// ascending. scaled: multiplied by tau[s] / their mean, so the stage keeps
// mean tau[s] and takes only the shape; otherwise used as they are.
struct Empirical {
  std::vector<double> values;
  bool quantiles = false;
  bool scaled = false;
};

struct Options {
  double M = 8;
  LinkMode links = LinkMode::async;
  // Sets of links that share one medium, each link in at most one set.
  std::vector<std::vector<std::int64_t>> shared;
  // Micro-batches that may wait between stage s and s+1, in transit
  // included: none (all infinite), one value for every link, or S-1 values;
  // each +infinity or a whole number in [0, limits::kMaxBuffer]. Given, it
  // holds at least one value (an empty list is refused, not read as none).
  std::optional<std::vector<double>> buffers;
  // The stages' service: none (deterministic), one for every stage, or S.
  std::vector<Distribution> service;
  // The links' transfer times, of mean d[s]: none, one for every link, or S-1.
  std::vector<Distribution> link_service;
  // A replay of measured times: M x S values, row m holding micro-batch m's
  // time on each stage. Replaces service. Given, it must hold all M x S
  // (an empty one is refused, never read as none).
  std::optional<std::vector<double>> service_matrix;
  // A replay of measured transfer times: M x (S-1) values, row m holding
  // micro-batch m's time on each link. Replaces link_service. Given, it must
  // hold all M x (S-1) (an empty one is refused, never read as none); each
  // value finite, >= 0 and <= limits::kMaxValue (0 is a link that takes no time).
  std::optional<std::vector<double>> link_matrix;
  // Measured times per stage (S entries). Replaces service. Given, it must
  // hold S (an empty one is refused).
  std::optional<std::vector<Empirical>> service_samples;
  // The probabilities of every stage's quantiles, one per value, strictly
  // increasing within [0, 1]; empty: evenly spaced from 0 to 1. Given, the
  // samples are quantiles at them, and below the first (above the last) the
  // quantile function stays at the first (last) value.
  std::vector<double> service_probabilities;
  double reps = 1;  // a whole number in [1, limits::kMaxReps]
  double seed = 0;  // a whole number in [0, 2^53]
  // Keep replication 0's timeline and per-micro-batch results (M x S at most
  // limits::kMaxTimelineCells).
  bool timeline = false;
  // Called with the fraction of replications done, between replications and
  // at most about 100 times a run (a page's progress bar); may be empty.
  std::function<void(double)> progress;
};

std::string_view link_mode_name(LinkMode mode);
std::string_view distribution_name(DistributionKind kind);
// "async", "blocking" or "serial"; the former "delay" and "block" are still
// read as the first two.
Result<LinkMode> link_mode_from_name(std::string_view name);

// The first error of the options for this pipeline, in the order of
// Options' fields, then the work limits (too_many_sim_cells, naming M when
// M x S alone is over it, else reps; too_many_cells for the timeline;
// buffer_history_too_large; too_many_transfers with shared links), or nullopt.
std::optional<Error> check_options(const Pipeline& pipeline, const Options& options);

// Every field's first error, in the same order (each field checked on its
// own, so that a form can mark every bad field at once); the work limits
// only when every field is good. Empty when the options are good;
// check_options gives the first of these.
std::vector<Error> option_errors(const Pipeline& pipeline, const Options& options);

}  // namespace heteropipe::sim
