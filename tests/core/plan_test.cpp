// The planner on small cases worked out by hand, the idle-device link rule,
// and its fields as every front end will see them.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include <heteropipe/plan/plan.hpp>

using namespace heteropipe;

namespace {

PlanInput two_devices(std::vector<double> a, std::vector<double> b, std::vector<double> cuts) {
  PlanInput in;
  in.devices = {{std::move(a), 1e9}, {std::move(b), 1e9}};
  in.layer_memory.assign(in.devices[0].layer_times.size(), 1);
  in.links = {{0, 1}};
  in.cut_bytes = std::move(cuts);
  return in;
}

std::vector<std::int64_t> layer_counts(const Plan& plan) {
  std::vector<std::int64_t> counts;
  for (const PlanStage& stage : plan.stages) counts.push_back(stage.layers);
  return counts;
}

}  // namespace

TEST_CASE("plan: identical devices split identical layers evenly") {
  PlanInput in = two_devices({1, 1, 1, 1}, {1, 1, 1, 1}, {0, 0, 0});
  const Plan plan = make_plan(in).value();
  CHECK(layer_counts(plan) == std::vector<std::int64_t>{2, 2});
  CHECK(plan.objective_value == 4 + 7 * 2);  // sum(tau) + (M - 1) tau_max
}

TEST_CASE("plan: a twice-as-fast device takes twice the layers for throughput") {
  PlanInput in = two_devices({1, 1, 1, 1, 1, 1}, {2, 2, 2, 2, 2, 2}, {0, 0, 0, 0, 0});
  in.objective = Objective::throughput;
  const Plan plan = make_plan(in).value();
  CHECK(layer_counts(plan) == std::vector<std::int64_t>{4, 2});
  CHECK(plan.objective_value == 4);
  CHECK(plan.tau() == std::vector<double>{4, 4});
}

TEST_CASE("plan: a costly cut is avoided, and blocking pays it in the slope") {
  // Cutting after layer 2 sends 10 bytes over a 1 byte/s link.
  PlanInput in = two_devices({1, 1, 1, 1}, {1, 1, 1, 1}, {0, 10, 0});
  const Plan async = make_plan(in).value();
  CHECK(async.objective_value == 4 + 0 + 7 * 3);  // 1 + 3 layers, a free cut
  CHECK(async.d() == std::vector<double>{0});
  in.objective = Objective::blocking;
  CHECK(make_plan(in).value().objective_value == 4 + 7 * 3);
  // At M = 1 only the fill counts: the even split would cost 10 more.
  in.M = 1;
  CHECK(make_plan(in).value().objective_value == 4);
  // A slow link for every cut makes blocking keep the sender's sigma small.
  in = two_devices({1, 1, 1, 1}, {1, 1, 1, 1}, {3, 3, 3});
  in.objective = Objective::blocking;
  in.M = 100;
  const Plan blocking = make_plan(in).value();
  CHECK(layer_counts(blocking) == std::vector<std::int64_t>{1, 3});  // sigma = {1 + 3, 3}
  CHECK(blocking.objective_value == 4 + 3 + 99 * 4);
}

TEST_CASE("plan: an idle device leaves the chain, and its sender keeps its own link") {
  PlanInput in;
  in.devices = {{{1, 1000}, 1e9}, {{1000, 1000}, 1e9}, {{1000, 1}, 1e9}};
  in.layer_memory = {1, 1};
  in.links = {{5, 2}, {100, 1}};  // link 0 leaves device 0, link 1 enters device 2
  in.cut_bytes = {8};
  in.allow_idle_devices = true;
  in.M = 2;
  const Plan plan = make_plan(in).value();
  REQUIRE(plan.stages.size() == 2);
  CHECK(plan.stages[0].device == 0);
  CHECK(plan.stages[1].device == 2);
  CHECK(plan.d() == std::vector<double>{5 + 8.0 / 2});  // link 0, not link 1
  CHECK(plan.objective_value == 2 + 9 + 1 * 1);
  in.allow_idle_devices = false;  // two layers cannot keep three devices busy
  CHECK(make_plan(in).error().code == ErrorCode::fewer_layers_than_devices);
}

TEST_CASE("plan regression: the given order stays as given when devices share a kind") {
  // Devices 0 and 2 are identical, device 1 is not. The planner once laid
  // the given order out by kind (0, 2, 1), as the order search does, so the
  // slow layer 2 ran on device 1 and devices came out of chain order.
  PlanInput in;
  in.devices = {{{1, 1, 1}, 1e9}, {{1, 1, 10}, 1e9}, {{1, 1, 1}, 1e9}};
  in.layer_memory = {1, 1, 1};
  in.links = {{0.5, 1}, {0.5, 1}};
  in.cut_bytes = {1, 2};
  // Three layers on three busy devices: the only split is one layer each.
  struct Case {
    Objective objective;
    double value;
  };
  const Case cases[] = {
      {Objective::async, 3 + 4 + 7 * 1},  // sum(tau) + sum(d) + (M - 1) tau_max
      {Objective::blocking, 3 + 4 + 7 * (1 + 2.5)},  // ... + (M - 1) sigma_max
      {Objective::throughput, 1}};
  for (const Case& c : cases) {
    CAPTURE(objective_name(c.objective));
    in.objective = c.objective;
    const Plan plan = make_plan(in).value();
    REQUIRE(plan.stages.size() == 3);
    for (std::int64_t s = 0; s < 3; ++s) {
      CHECK(plan.stages[s].device == s);
      CHECK(plan.stages[s].first_layer == s);
    }
    CHECK(plan.tau() == std::vector<double>{1, 1, 1});
    CHECK(plan.d() == std::vector<double>{1.5, 2.5});
    CHECK(plan.objective_value == c.value);
  }
}

namespace {

// Records field names as a front end's generic serializer would meet them.
struct Names {
  std::vector<std::string>* out;
  template <class T>
  void operator()(std::string_view name, const T&) const {
    out->emplace_back(name);
  }
};

}  // namespace

TEST_CASE("plan: the visitor's fields, in order") {
  const Plan plan = make_plan(two_devices({1, 2}, {2, 1}, {1})).value();
  std::vector<std::string> top, stage, analysis;
  visit_fields(plan, Names{&top});
  CHECK(top == std::vector<std::string>{"objective", "objective_value", "stages", "tau", "d", "analysis"});
  visit_fields(plan.stages[0], Names{&stage});
  CHECK(stage == std::vector<std::string>{"device", "first_layer", "last_layer", "layers", "tau", "memory_used",
                                          "memory_capacity"});
  // The analysis is the Analysis visitor's own object.
  std::vector<std::string> expected;
  visit_fields(plan.analysis, Names{&expected});
  visit_fields(plan, [&analysis](std::string_view name, const auto& value) {
    if constexpr (is_object<std::decay_t<decltype(value)>>::value) {
      if (name == "analysis") value.fields(Names{&analysis});
    }
  });
  CHECK(analysis == expected);
  CHECK(plan.analysis.T_async == plan.objective_value);
}
