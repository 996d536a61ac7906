// The planner's memory (issue 24 item 7): the KV cache's closed form, the
// compute-buffer headroom, the 95 % warning and what an infeasible estimate
// says would fit.
#include <doctest/doctest.h>

#include <string>

#include <heteropipe/limits.hpp>
#include <heteropipe/plan/report.hpp>
#include <heteropipe/text/error_text.hpp>
#include <heteropipe/text/plan_text.hpp>

using namespace heteropipe;

namespace {

EstimateInput on(const char* model, const char* quant, std::initializer_list<const char*> gpus) {
  EstimateInput in;
  in.model = model;
  in.quant = quant;
  for (const char* gpu : gpus) in.devices.push_back(DeviceChoice{gpu, {}, {}, {}, {}, {}, {}});
  return in;
}

double sum(const std::vector<double>& values) {
  double total = 0;
  for (double v : values) total += v;
  return total;
}

// One device of the given capacity running layers of the given memories.
PlanInput one_device(double capacity, std::vector<double> layer_memory) {
  PlanInput in;
  in.devices.push_back(PlanDevice{std::vector<double>(layer_memory.size(), 1.0), capacity});
  in.cut_bytes.assign(layer_memory.size() - 1, 0.0);
  in.layer_memory = std::move(layer_memory);
  in.M = 1;
  return in;
}

}  // namespace

TEST_CASE("memory: the KV cache is context x the sequences in flight, in closed form") {
  // Llama 3 70B: 80 layers, 8 KV heads of 128, K and V in F16.
  const double per_position = 2 * 8 * 128 * 2.0;
  EstimateInput in = on("llama-3-70b", "Q4_K_M", {"h100-sxm"});
  in.context = 0;
  const double weights = estimate(in).value().layer_memory[1];
  in.context = 4096;
  in.tokens = 4;
  in.M = 3;
  // Decode: 4 sequences per micro-batch, 3 micro-batches in flight, each holding its context.
  CHECK(estimate(in).value().layer_memory[1] - weights == per_position * 4096 * 4 * 3);
  // The same model given by its facts holds the same cache.
  EstimateInput facts = in;
  facts.model_info = model_info_of(find_model("llama-3-70b").value(), find_quant("Q4_K_M").value());
  CHECK(estimate(facts).value().layer_memory[1] - weights == per_position * 4096 * 4 * 3);
  // Prefill: one sequence per micro-batch, its context and its prompt.
  in.phase = Phase::prefill;
  in.tokens = 512;
  CHECK(estimate(in).value().layer_memory[1] - weights == per_position * (4096 + 512) * 3);
}

TEST_CASE("memory: every device keeps the compute buffer free, and a device of no memory holds nothing") {
  EstimateInput in = on("llama-3-8b", "Q4_K_M", {"rtx-4090"});
  const double usable = class_efficiency(DeviceClass::nvidia_gddr).usable_memory;
  CHECK(estimate(in).value().devices[0].memory_capacity == 24.0 * (1 << 30) * usable - 256.0 * (1 << 20));
  in.devices[0].memory = 0;
  CHECK(estimate(in).value().devices[0].memory_capacity == 0);
}

TEST_CASE("memory: a stage above 95 % of its capacity is a warning, one at or below it is not") {
  CHECK(make_plan_report(one_device(1000, {500, 449}), std::nullopt).value().warnings.empty());  // 94.9 %
  CHECK(make_plan_report(one_device(1000, {500, 450}), std::nullopt).value().warnings.empty());  // 95 % exactly
  const PlanReport full = make_plan_report(one_device(1000, {500, 451}), std::nullopt).value();  // 95.1 %
  REQUIRE(full.warnings.size() == 1);
  const MemoryWarning& w = full.warnings[0];
  CHECK(w.code == "memory_nearly_full");
  CHECK(w.stage == 0);
  CHECK(w.device == 0);
  CHECK(w.memory_used == 951);
  CHECK(w.memory_capacity == 1000);
  CHECK(w.fraction == 0.951);
  CHECK(text::describe(w) ==
        "stage 0 (device 0) fills 95.1 % of its memory capacity (over 95.0 %): a runtime that needs a little more "
        "memory than estimated will not load it");
}

TEST_CASE("memory: the default page plan warns about its RTX 4090, whose stage is nearly full") {
  EstimateInput in = on("llama-3-70b", "Q4_K_M", {"rtx-4090", "rtx-3090", "rtx-3090"});
  in.context = 4096;
  const PlanReport r = make_plan_report(PlanRequest{in}).value();
  REQUIRE(r.warnings.size() == 1);
  CHECK(r.warnings[0].device == 0);
  CHECK(r.warnings[0].fraction == r.plan.stages[0].memory_used / r.plan.stages[0].memory_capacity);
  CHECK(r.warnings[0].fraction > 0.95);
}

TEST_CASE("memory: an estimate that does not fit says what is missing and what would fit, each re-planned") {
  EstimateInput in = on("llama-3-70b", "F16", {"rtx-4090", "rtx-4090"});
  in.context = 4096;
  const PlanInput costs = estimate(in).value();
  const auto report = make_plan_report(PlanRequest{in});
  REQUIRE_FALSE(report.ok());
  const Error& e = report.error();
  CHECK(e.code == ErrorCode::memory_short);
  CHECK(e.field == Field::memory);
  const double need = sum(costs.layer_memory);
  const double have = costs.devices[0].memory_capacity + costs.devices[1].memory_capacity;
  CHECK(e.limit == need);
  CHECK(e.value == need - have);
  // The quantization suggested fits: plan it again.
  REQUIRE(e.fits_quant == "Q4_K_M");
  EstimateInput smaller = in;
  smaller.quant = e.fits_quant;
  CHECK(make_plan_report(PlanRequest{smaller}).ok());
  // And it is the largest that does: every catalog quantization between it and F16 does not fit.
  const double chosen = find_quant("Q4_K_M").value().bytes_per_weight;
  for (const QuantSpec& q : catalog_quants()) {
    if (q.bytes_per_weight <= chosen || q.bytes_per_weight >= 2) continue;
    EstimateInput larger = in;
    larger.quant = std::string(q.id);
    CHECK_FALSE(make_plan_report(PlanRequest{larger}).ok());
  }
  // A third RTX 4090 does not give 70B in F16 room.
  CHECK(e.fits_with_device == kWholeField);
  CHECK(text::describe(e) ==
        "memory: 87.09 GiB of memory is missing: the layers need 132.7 GiB and the devices hold 45.58 GiB; "
        "quantization Q4_K_M would fit");
}

TEST_CASE("memory: one more of the largest device is suggested when it makes the plan fit") {
  EstimateInput in = on("llama-3-70b", "Q8_0", {"rtx-3090", "rtx-4090", "rtx-3090"});
  in.context = 4096;
  const Error e = make_plan_report(PlanRequest{in}).error();
  CHECK(e.code == ErrorCode::memory_short);
  CHECK(e.fits_with_device == 0);  // the first of the largest (every capacity here is the same)
  EstimateInput more = in;
  more.devices.push_back(in.devices[0]);
  CHECK(make_plan_report(PlanRequest{more}).ok());
  CHECK(text::describe(e).find("and so would one more device like device 1 at the end of the chain") != std::string::npos);
  // Explicit costs have no unit: their memory error stays on memory_capacity, in their numbers.
  PlanInput tight = one_device(10, {6, 6});
  const Error bare = make_plan(tight).error();
  CHECK(bare.field == Field::memory_capacity);
  CHECK(text::describe(bare) == "memory_capacity: the devices together hold 2 less than the layers need (12 in all)");
}
