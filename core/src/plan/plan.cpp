#include "heteropipe/plan/plan.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <numeric>

#include "chain.hpp"
#include "heteropipe/plan/report.hpp"
#include "orders.hpp"
#include "search.hpp"

namespace heteropipe {
namespace {

using plan_detail::Bounds;
using plan_detail::Chain;

// The input's numbers with the devices in `order` (links stay in place).
Chain chain_of(const PlanInput& input, const std::vector<std::int64_t>& order, plan_detail::StageCost cost) {
  Chain chain;
  chain.S = static_cast<std::int64_t>(input.devices.size());
  chain.L = static_cast<std::int64_t>(input.layer_memory.size());
  const std::int64_t S = chain.S, L = chain.L;
  chain.layer_memory = input.layer_memory;
  chain.allow_idle = input.allow_idle_devices;
  chain.cost = cost;
  chain.times.reserve(static_cast<std::size_t>(S * L));
  chain.prefix.reserve(static_cast<std::size_t>(S * (L + 1)));
  chain.delay.reserve(static_cast<std::size_t>(S * L));
  for (std::int64_t s = 0; s < S; ++s) {
    const PlanDevice& device = input.devices[order[s]];
    chain.capacity.push_back(device.memory_capacity);
    chain.times.insert(chain.times.end(), device.layer_times.begin(), device.layer_times.end());
    plan_detail::DoubleDouble sum;
    chain.prefix.push_back(sum);
    for (double t : device.layer_times) chain.prefix.push_back(sum = plan_detail::add(sum, t));
    for (std::int64_t b = 0; b < L; ++b) {
      // No link leaves the last position: a stage there must end the model.
      double delay = std::numeric_limits<double>::infinity();
      if (b == L - 1) delay = 0;
      else if (s + 1 < S) delay = input.links[s].latency + input.cut_bytes[b] / input.links[s].bandwidth;
      chain.delay.push_back(delay);
    }
  }
  return chain;
}

// What breaks a tie of objective values: the bottleneck, or for
// throughput (whose value is the bottleneck) T_async.
double tie_breaker(const Analysis& a, Objective objective) {
  switch (objective) {
    case Objective::async: return a.tau_max;
    case Objective::blocking: return a.sigma_max;
    case Objective::throughput: return a.T_async;
  }
  return a.tau_max;
}

// The spread of a priced split, as spread_of adds it: each stage's
// (tau + d)^2 in chain order, the last stage's d 0.
double spread(const Plan& plan) {
  double sum = 0;
  for (std::size_t k = 0; k < plan.tau().size(); ++k) {
    const double cost = plan.tau()[k] + (k < plan.d().size() ? plan.d()[k] : 0.0);
    sum += cost * cost;
  }
  return sum;
}

Plan plan_of(const PlanInput& input, const Chain& chain, const std::vector<std::int64_t>& order,
             const Bounds& bounds) {
  Plan plan;
  plan.objective = input.objective;
  std::vector<double> tau, d;
  for (std::int64_t s = 0; s < chain.S; ++s) {
    const std::int64_t begin = bounds[s], end = bounds[s + 1];
    if (begin == end) continue;
    PlanStage stage;
    stage.device = order[s];
    stage.first_layer = begin;
    stage.last_layer = end - 1;
    stage.layers = end - begin;
    stage.tau = plan_detail::stage_tau(chain, s, begin, end);
    for (std::int64_t b = begin; b < end; ++b) stage.memory_used += chain.layer_memory[b];
    stage.memory_capacity = chain.capacity[s];
    plan.stages.push_back(stage);
    tau.push_back(stage.tau);
    if (end < chain.L) d.push_back(plan_detail::stage_delay(chain, s, begin, end));
  }
  // Valid by construction: check_plan_input bounds every tau and d and the
  // largest tau from below.
  auto pipeline = std::make_shared<const Pipeline>(Pipeline::of_computed_times(std::move(tau), std::move(d)).value());
  plan.analysis = analyze(std::move(pipeline), input.M, 1, std::nullopt);
  plan.objective_value = objective_value(plan.analysis, input.objective);
  return plan;
}

// Ranks the splits one make_plan prices. A split whose value ties the least
// value seen so far (objective_ties) beats one that does not; among those
// that do, the smaller tie-breaker wins, and among equal tie-breakers the
// smaller spread (the evener split). Anchored to the least value, a
// chain of steps each tying the one before cannot drift: the plan stays
// within one tolerance of the least value priced (a split that lowers it
// and loses to the plan ties the plan).
class Ranking {
 public:
  explicit Ranking(std::int64_t S) : S_(S) {}

  // Whether a beats b; both must have been seen.
  bool better(const Plan& a, const Plan& b) const {
    const bool a_ties = ties_least(a), b_ties = ties_least(b);
    if (a_ties != b_ties) return a_ties;
    const double a_tie = tie_breaker(a.analysis, a.objective), b_tie = tie_breaker(b.analysis, b.objective);
    if (a_ties && a_tie != b_tie) return a_tie < b_tie;
    if (!a_ties && a.objective_value != b.objective_value) return a.objective_value < b.objective_value;
    if (a_tie != b_tie) return a_tie < b_tie;
    const double a_spread = spread(a), b_spread = spread(b);
    if (a_spread != b_spread) return a_spread < b_spread;
    return a.objective_value < b.objective_value;
  }

  // Notes a priced split's value; hands the split back.
  Plan see(Plan plan) {
    least_ = std::min(least_, plan.objective_value);
    return plan;
  }

 private:
  bool ties_least(const Plan& plan) const { return objective_ties(plan.objective_value, least_, S_); }

  std::int64_t S_;
  double least_ = std::numeric_limits<double>::infinity();
};

// Whether a split keeps the plan's rules: every stage within its device's
// memory (summed in layer order, as reported) and, unless allowed, no idle
// device.
bool allowed(const Chain& chain, const Bounds& bounds) {
  for (std::int64_t s = 0; s < chain.S; ++s) {
    if (bounds[s] == bounds[s + 1]) {
      if (!chain.allow_idle) return false;
      continue;
    }
    double used = 0;
    for (std::int64_t b = bounds[s]; b < bounds[s + 1]; ++b) used += chain.layer_memory[b];
    if (used > chain.capacity[s]) return false;
  }
  return true;
}

// The most boundary moves the polish below makes, per layer and device.
constexpr std::int64_t kPolishMovesPerLayerOrDevice = 16;

// The search ranks splits by its own fill (prefix sums in double-double,
// rounded per stage), which can differ from the reported sum(tau) + sum(d)
// by units in the last place. Where two splits tie in exact arithmetic the
// search's pick can then report more than the other, or have the larger
// bottleneck: layer times [3e13, 3e13, 9e13, 2.1] and [6e13, 3e13, 7.6, 6.3],
// M = 1, run the same four numbers as 0 | 1-3 and 0-1 | 2-3, reported a
// unit apart; at M = 1 on identical devices every split ties so. So the
// split found moves each boundary by one layer while that ranks better
// (Ranking: a tie of values goes to the smaller bottleneck): no split one
// move away ranks better. Exact (dyadic) inputs move only to a split whose
// value ties within the tolerance (docs/planner.md).
Plan polished(const PlanInput& input, const Chain& chain, const std::vector<std::int64_t>& order, Bounds& bounds,
              Ranking& ranking) {
  Plan plan = ranking.see(plan_of(input, chain, order, bounds));
  // Each move ranks better; the ranking changes only when the least value
  // seen falls, which a finite set of splits allows finitely often, so the
  // walk ends. The budget only bounds its time on a hostile input (a move is
  // priced in O(L + S)). Real walks take a few dozen moves.
  std::int64_t budget = kPolishMovesPerLayerOrDevice * (chain.L + chain.S);
  for (bool moved = true; moved && budget > 0;) {
    moved = false;
    for (std::int64_t s = 1; s < chain.S; ++s) {
      for (const std::int64_t step : {-1, 1}) {
        // Walk this boundary while each step reports better.
        while (budget > 0) {
          Bounds next = bounds;
          next[s] += step;
          if (next[s] < next[s - 1] || next[s] > next[s + 1] || !allowed(chain, next)) break;
          Plan candidate = ranking.see(plan_of(input, chain, order, next));
          if (!ranking.better(candidate, plan)) break;
          plan = std::move(candidate);
          bounds = std::move(next);
          moved = true;
          --budget;
        }
      }
    }
  }
  return plan;
}

// Whether positions s and s + 1 hold devices no split can tell apart: the
// same layer times and the same capacity.
bool identical(const Chain& chain, std::int64_t s) {
  if (chain.capacity[s] != chain.capacity[s + 1]) return false;
  const double* a = &chain.times[s * chain.L];
  return std::equal(a, a + chain.L, a + chain.L);
}

// The least-spread split of layers [first, end) over positions
// [p0, p1] (identical devices), each stage's cost within `bound` and its
// memory within capacity; nullopt when none is. Summed layer by layer in
// layer order, as stage_tau adds.
std::optional<Bounds> even_run(const Chain& chain, std::int64_t p0, std::int64_t p1, std::int64_t first,
                               std::int64_t end, double bound) {
  const std::int64_t width = end - first + 1;
  constexpr double kNone = std::numeric_limits<double>::infinity();
  // best[k][q]: the least spread of layers first .. first + q - 1 on
  // positions p0 .. p0 + k - 1; from[k][q]: where position p0 + k - 1 starts.
  const std::int64_t R = p1 - p0 + 1;
  std::vector<double> best(static_cast<std::size_t>((R + 1) * width), kNone);
  std::vector<std::int64_t> from(best.size(), -1);
  best[0] = 0;
  for (std::int64_t k = 0; k < R; ++k) {
    const std::int64_t s = p0 + k;
    const double* row = &best[k * width];
    double* next = &best[(k + 1) * width];
    std::int64_t* next_from = &from[(k + 1) * width];
    for (std::int64_t q = 0; q < width; ++q) {
      if (row[q] == kNone) continue;
      if (chain.allow_idle && row[q] < next[q]) next[q] = row[q], next_from[q] = q;
      double tau = 0, used = 0;
      for (std::int64_t e = q + 1; e < width; ++e) {
        const std::int64_t b = first + e - 1;  // the stage's last layer
        tau += chain.time(s, b);
        used += chain.layer_memory[b];
        if (used > chain.capacity[s] || tau > bound) break;
        const double delay = chain.link_delay(s, b);
        if (!(delay < kNone)) continue;
        if (chain.cost == plan_detail::StageCost::sigma && tau + delay > bound) continue;
        const double cost = tau + delay;
        const double value = row[q] + cost * cost;
        if (value < next[e]) next[e] = value, next_from[e] = q;
      }
    }
  }
  if (best[R * width + width - 1] == kNone) return std::nullopt;
  Bounds bounds(static_cast<std::size_t>(R + 1));
  bounds[R] = end;
  for (std::int64_t k = R, q = width - 1; k > 0; --k) {
    q = from[k * width + q];
    bounds[k - 1] = first + q;
  }
  return bounds;
}

// Among the splits that tie the plan's value and bottleneck, the evenest
// (least spread). The program finds it where every sum is exact; where
// rounding separates splits equal in exact arithmetic, it re-splits each run
// of identical devices (which is where such splits come from) for the least
// spread within the plan's bottleneck, and keeps what ranks better.
Plan evened(const PlanInput& input, const Chain& chain, const std::vector<std::int64_t>& order, Bounds& bounds,
            Ranking& ranking, Plan plan) {
  const double bound = plan_detail::bottleneck_of(chain, bounds);
  if (const auto split = plan_detail::most_even_split(chain, bound)) {
    Plan candidate = ranking.see(plan_of(input, chain, order, split->bounds));
    if (ranking.better(candidate, plan)) {
      plan = std::move(candidate);
      bounds = split->bounds;
    }
  }
  for (std::int64_t p0 = 0; p0 < chain.S;) {
    std::int64_t p1 = p0;
    while (p1 + 1 < chain.S && identical(chain, p1)) ++p1;
    if (p1 > p0) {
      if (const auto run = even_run(chain, p0, p1, bounds[p0], bounds[p1 + 1], bound)) {
        Bounds next = bounds;
        std::copy(run->begin(), run->end(), next.begin() + p0);
        if (next != bounds) {
          Plan candidate = ranking.see(plan_of(input, chain, order, next));
          if (ranking.better(candidate, plan)) {
            plan = std::move(candidate);
            bounds = std::move(next);
          }
        }
      }
    }
    p0 = p1 + 1;
  }
  return plan;
}

// The report's baselines (the devices as given) are splits too; where one
// ranks better than the plan (a value below it by more than a tie, or tied
// with a smaller bottleneck), it is the plan, so that no feasible baseline
// shows a negative loss.
void keep_better_baselines(const PlanInput& input, Plan& best, Ranking& ranking) {
  const auto S = static_cast<std::int64_t>(input.devices.size());
  const auto L = static_cast<std::int64_t>(input.layer_memory.size());
  std::vector<double> capacities;
  for (const PlanDevice& device : input.devices) capacities.push_back(device.memory_capacity);
  for (const auto& counts : {even_layer_counts(L, S), memory_proportional_layer_counts(capacities, L)}) {
    if (!input.allow_idle_devices && std::count(counts.begin(), counts.end(), 0) > 0) continue;
    Plan baseline = ranking.see(plan_of_counts(input, counts));
    bool fits = true;
    for (const PlanStage& stage : baseline.stages) fits = fits && stage.memory_used <= stage.memory_capacity;
    if (fits && ranking.better(baseline, best)) best = std::move(baseline);
  }
}

// The search's split; at M = 1 (async or blocking), `balanced` also receives
// the split of least fill among those of least bottleneck (see start).
std::optional<Bounds> solve(const Chain& chain, const PlanInput& input, Bounds* balanced) {
  if (input.objective == Objective::throughput) return plan_detail::least_bottleneck_split(chain);
  return plan_detail::least_makespan(chain, input.M, input.M == 1 ? balanced : nullptr);
}

// Where the walk starts. At M = 1 the value is the fill alone, and on
// identical devices every split ties it: the search's pick among them is
// arbitrary (Llama 2 7B on two RTX 4090s: 22 | 10), and a walk of one
// boundary at a time can stall where two stages share the bottleneck. The
// split of least fill among those of least bottleneck ties it there, so the
// one of the two that ranks better is the start.
std::optional<Bounds> start(const PlanInput& input, const Chain& chain, const std::vector<std::int64_t>& order,
                            Ranking& ranking) {
  Bounds balanced;
  auto bounds = solve(chain, input, &balanced);
  if (!bounds || balanced.empty() || balanced == *bounds) return bounds;
  const Plan found = ranking.see(plan_of(input, chain, order, *bounds));
  if (ranking.better(ranking.see(plan_of(input, chain, order, balanced)), found)) return balanced;
  return bounds;
}

// Reasons no split can fit, found before any search: each needs every
// device to run a layer.
std::optional<Error> certain_infeasibility(const PlanInput& input) {
  if (input.allow_idle_devices) return std::nullopt;
  const auto S = static_cast<std::int64_t>(input.devices.size());
  const auto L = static_cast<std::int64_t>(input.layer_memory.size());
  if (L < S) {
    return Error{ErrorCode::fewer_layers_than_devices, Field::devices, kWholeField, static_cast<double>(L), {},
                 static_cast<double>(S)};
  }
  const double smallest = *std::min_element(input.layer_memory.begin(), input.layer_memory.end());
  for (std::int64_t s = 0; s < S; ++s) {
    const double capacity = input.devices[s].memory_capacity;
    if (capacity < smallest) {
      return Error{ErrorCode::device_too_small, Field::memory_capacity, s, capacity, {}, smallest};
    }
  }
  return std::nullopt;
}

// Why the search found no split: too little memory in all, or none that
// the layers' order lets fit.
Error infeasibility(const PlanInput& input) {
  double need = 0, have = 0;
  for (double m : input.layer_memory) need += m;
  for (const PlanDevice& device : input.devices) have += device.memory_capacity;
  if (need > have) return Error{ErrorCode::memory_short, Field::memory_capacity, kWholeField, need - have, {}, need};
  return Error{ErrorCode::no_feasible_split, Field::memory_capacity, kWholeField, 0.0, {}};
}

}  // namespace

bool objective_ties(double a, double b, std::int64_t S) {
  return std::abs(a - b) <= static_cast<double>(S) * Pipeline::tie_tolerance_of(std::max(a, b));
}

double objective_value(const Analysis& a, Objective objective) {
  switch (objective) {
    case Objective::async: return a.T_async;
    case Objective::blocking: return a.T_block;
    case Objective::throughput: return a.tau_max;
  }
  return a.T_async;
}

Result<Plan> make_plan(const PlanInput& input) {
  if (auto e = check_plan_input(input)) return *e;
  if (auto e = certain_infeasibility(input)) return *e;
  const auto cost = input.objective == Objective::blocking ? plan_detail::StageCost::sigma
                                                            : plan_detail::StageCost::tau;
  Ranking ranking(static_cast<std::int64_t>(input.devices.size()));
  std::optional<Plan> best;  // ties between orders go to the first tried
  for (const auto& order : plan_detail::device_orders(input)) {
    const Chain chain = chain_of(input, order, cost);
    if (auto bounds = start(input, chain, order, ranking)) {
      Plan plan = polished(input, chain, order, *bounds, ranking);
      plan = evened(input, chain, order, *bounds, ranking, std::move(plan));
      if (!best || ranking.better(plan, *best)) best = std::move(plan);
    }
  }
  if (!best) return infeasibility(input);
  keep_better_baselines(input, *best, ranking);
  return std::move(*best);
}

}  // namespace heteropipe
