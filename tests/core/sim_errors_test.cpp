// Every bad simulator input: its code, field, position, value, limit and sentence.
#include <doctest/doctest.h>

#include <cmath>
#include <random>
#include <utility>
#include <vector>

#include "heteropipe/text/error_text.hpp"
#include "support.hpp"

namespace hp = heteropipe;
namespace sim = heteropipe::sim;
using hp::ErrorCode;
using hp::Field;
using hp::testing::make;

namespace {

hp::Error refused(const hp::Pipeline& p, const sim::Options& o) {
  auto r = sim::simulate(p, o);
  REQUIRE_FALSE(r.ok());
  return r.error();
}

void expect(const hp::Error& e, ErrorCode code, Field field, std::int64_t index, double value, double limit,
            const std::string& sentence) {
  CHECK(e.code == code);
  CHECK(e.field == field);
  CHECK(e.index == index);
  CHECK(e.value == value);
  CHECK(e.limit == limit);
  CHECK(hp::text::describe(e) == sentence);
}

// A matrix's error: its row as the index, and its column (-1 for a whole row or the whole matrix).
void expect_cell(const hp::Error& e, ErrorCode code, Field field, std::int64_t row, std::int64_t column, double value,
                 double limit, const std::string& sentence) {
  expect(e, code, field, row, value, limit, sentence);
  CHECK(e.column == column);
}

}  // namespace

TEST_CASE("sim errors: each bad option names its field and position") {
  const auto p = make({1, 2, 3}, {0.5, 0.5});
  sim::Options o;

  o.M = 0;
  expect(refused(p, o), ErrorCode::out_of_range, Field::M, -1, 0, 1, "M: must be between 1 and 2^53 (got 0)");
  o = {};
  o.shared = {{0}, {1, 0}};
  expect(refused(p, o), ErrorCode::overlapping_groups, Field::shared, 1, 0, 0,
         "shared, group 2: link 0 is already in a shared group");
  o.shared = {{0, 2}};
  expect(refused(p, o), ErrorCode::no_such_link, Field::shared, 0, 2, 2,
         "shared, group 1: names link 2, but the links are 0 to 1 (S-1 = 2)");
  o.shared = {{}};
  expect(refused(p, o), ErrorCode::empty, Field::shared, 0, 0, 0, "shared, group 1: needs at least one value");
  o = {};
  o.buffers = {1, -1};
  expect(refused(p, o), ErrorCode::negative, Field::buffers, 1, -1, 0, "buffers, link 2: must be >= 0 (got -1)");
  o.buffers = {NAN};
  expect(refused(p, o), ErrorCode::not_finite, Field::buffers, 0, 0, 0,
         "buffers, link 1: must be a finite number (got nan)");
  o.buffers = {1.5};
  expect(refused(p, o), ErrorCode::not_integer, Field::buffers, 0, 1.5, 0,
         "buffers, link 1: must be a whole number (got 1.5)");
  o.buffers = {2e6};
  expect(refused(p, o), ErrorCode::too_large, Field::buffers, 0, 2e6, 1e6,
         "buffers, link 1: must be at most 1,000,000 (got 2e+06)");
  o.buffers = std::vector<double>{};
  expect(refused(p, o), ErrorCode::empty, Field::buffers, -1, 0, 0, "buffers: needs at least one value");
  o.buffers = {1, 2, 3};
  expect(refused(p, o), ErrorCode::wrong_length, Field::buffers, -1, 3, 2,
         "buffers: needs S-1 = 2 values, one per link, or one for all (got 3)");
  o = {};
  o.service = {sim::Distribution{sim::DistributionKind::lognormal, 5}};
  expect(refused(p, o), ErrorCode::out_of_range, Field::service, -1, 5, 4,
         "service: must be between 0 and 4 (got 5)");
  o.service = {sim::Distribution{}, sim::Distribution{},
               sim::Distribution{sim::DistributionKind::uniform, 1.5}};
  expect(refused(p, o), ErrorCode::out_of_range, Field::service, 2, 1.5, 1,
         "service, stage 3: must be between 0 and 1 (got 1.5)");
  o.service = {sim::Distribution{sim::DistributionKind::gamma, -0.5}};
  expect(refused(p, o), ErrorCode::out_of_range, Field::service, -1, -0.5, 4,
         "service: must be between 0 and 4 (got -0.5)");
  o = {};
  o.link_service = {sim::Distribution{sim::DistributionKind::gamma, NAN}};
  expect(refused(p, o), ErrorCode::not_finite, Field::link_service, -1, 0, 0,
         "link_service: must be a finite number (got nan)");
  o = {};
  o.M = 2;
  o.service_matrix = {1, 2, 3, 4, 5};
  expect_cell(refused(p, o), ErrorCode::wrong_length, Field::service_matrix, -1, -1, 5, 6,
              "service_matrix: needs M x S = 6 values (got 5)");
  // Given but empty (an empty file, a header alone, []) is refused, never read as none.
  o.service_matrix.emplace();
  expect(refused(p, o), ErrorCode::wrong_length, Field::service_matrix, -1, 0, 6,
         "service_matrix: needs M x S = 6 values (got 0)");
  o.service_matrix = {1, 2, 3, 4, -5, 6};
  expect_cell(refused(p, o), ErrorCode::negative, Field::service_matrix, 1, 1, -5, 0,
              "service_matrix, row 2, column 2: must be >= 0 (got -5)");
  // The cell is named by its row (the micro-batch) and its column (the stage).
  o.service_matrix = {1, 2, 3, 4, 5, NAN};
  expect_cell(refused(p, o), ErrorCode::not_finite, Field::service_matrix, 1, 2, 0, 0,
              "service_matrix, row 2, column 3: must be a finite number (got nan)");
  o.service_matrix = {3e15, 2, 3, 4, 5, 6};
  expect_cell(refused(p, o), ErrorCode::too_large, Field::service_matrix, 0, 0, 3e15, 1e15,
              "service_matrix, row 1, column 1: must be at most 1e15 (got 3e+15)");
  o.service_matrix = {0, 0, 0, 0, 0, 0};
  CHECK(refused(p, o).code == ErrorCode::all_zero);
  o = {};
  o.M = 3;
  o.link_matrix = {1, 2, 3, 4, 5};
  expect(refused(p, o), ErrorCode::wrong_length, Field::link_matrix, -1, 5, 6,
         "link_matrix: needs M x (S-1) = 6 values (got 5)");
  o.link_matrix.emplace();
  expect(refused(p, o), ErrorCode::wrong_length, Field::link_matrix, -1, 0, 6,
         "link_matrix: needs M x (S-1) = 6 values (got 0)");
  o.link_matrix = {1, 2, 3, -4, 5, 6};
  expect_cell(refused(p, o), ErrorCode::negative, Field::link_matrix, 1, 1, -4, 0,
              "link_matrix, row 2, column 2: must be >= 0 (got -4)");
  o.link_matrix = {1, 2, 3, 4, INFINITY, 6};
  expect_cell(refused(p, o), ErrorCode::not_finite, Field::link_matrix, 2, 0, 0, 0,
              "link_matrix, row 3, column 1: must be a finite number (got inf)");
  o.link_matrix = {1, 2, 3, 4, 5, 2e15};
  expect_cell(refused(p, o), ErrorCode::too_large, Field::link_matrix, 2, 1, 2e15, 1e15,
              "link_matrix, row 3, column 2: must be at most 1e15 (got 2e+15)");
  o.link_matrix = {0, 0, 0, 0, 0, 0};  // a link that takes no time is a measurement
  CHECK(sim::simulate(p, o).ok());
  o = {};
  o.service_samples = {sim::Empirical{{1}}, sim::Empirical{{1, 0}}, sim::Empirical{{1}}};
  expect(refused(p, o), ErrorCode::not_positive, Field::service_samples, 1, 0, 0,
         "service_samples, stage 2: must be > 0 (got 0)");
  // A sample below a femtosecond, as a stage time is (limits::kMinStageTime): samples of
  // 5e-324 made a makespan of 4e-323 and its throughput, M over it, inf and nan.
  o.service_samples = {sim::Empirical{{1}}, sim::Empirical{{1, 5e-324}}, sim::Empirical{{1}}};
  // A subnormal is refused as the same number typed is (the bindings' readers once did it, now the checks).
  expect(refused(p, o), ErrorCode::too_small, Field::service_samples, 1, 5e-324, hp::limits::kMinNormalNumber,
         "service_samples, stage 2: is too small to read (got 5e-324): a number other than 0 must be at least "
         "2.2250738585072014e-308 in size");
  o.service_samples = {sim::Empirical{{1}}, sim::Empirical{{1, 1e-300}}, sim::Empirical{{1}}};
  expect(refused(p, o), ErrorCode::too_small, Field::service_samples, 1, 1e-300, 1e-15,
         "service_samples, stage 2: must be at least 1e-15 (got 1e-300)");
  o.service_samples = {sim::Empirical{{1e-15}}, sim::Empirical{{1e-15}}, sim::Empirical{{1e-15}}};
  o.reps = 3;
  const auto smallest = sim::simulate(p, o);
  REQUIRE(smallest.ok());
  CHECK(smallest.value().makespan.min >= 1);  // the links, 0.5 each
  CHECK(std::isfinite(smallest.value().throughput.max));
  CHECK(std::isfinite(smallest.value().throughput.sd));
  o.reps = 1;
  o.service_samples = {sim::Empirical{{1}}, sim::Empirical{{1, 3, 2}, true}, sim::Empirical{{1}}};
  expect(refused(p, o), ErrorCode::not_ascending, Field::service_samples, 1, 2, 0,
         "service_samples, stage 2: quantiles must not decrease (got 2 after a larger one)");
  o.service_samples = {sim::Empirical{{1}}};
  expect(refused(p, o), ErrorCode::wrong_length, Field::service_samples, -1, 1, 3,
         "service_samples: needs S = 3 stages of samples (got 1)");
  o.service_samples.emplace();
  expect(refused(p, o), ErrorCode::wrong_length, Field::service_samples, -1, 0, 3,
         "service_samples: needs S = 3 stages of samples (got 0)");
  o.service_samples = {sim::Empirical{{1, 2}}, sim::Empirical{{1, 3}}, sim::Empirical{{2, 4}}};
  o.service_probabilities = {0.5, 0.5};
  expect(refused(p, o), ErrorCode::not_ascending, Field::service_probabilities, 1, 0.5, 0,
         "service_probabilities, item 2: probabilities must increase (got 0.5 after one as large or larger)");
  o.service_probabilities = {0.5, 1.5};
  expect(refused(p, o), ErrorCode::out_of_range, Field::service_probabilities, 1, 1.5, 1,
         "service_probabilities, item 2: must be between 0 and 1 (got 1.5)");
  o.service_probabilities = {0, 0.5, 1};
  expect(refused(p, o), ErrorCode::wrong_length, Field::service_probabilities, -1, 3, 2,
         "service_probabilities: needs one probability per quantile, as many as each stage has (2) (got 3)");
  o.service_probabilities = {0.5};
  o.service_samples = {sim::Empirical{{1, 2}}, sim::Empirical{{3, 1}}, sim::Empirical{{2, 4}}};
  expect(refused(p, o), ErrorCode::not_ascending, Field::service_samples, 1, 1, 0,
         "service_samples, stage 2: quantiles must not decrease (got 1 after a larger one)");
  o.service_samples = {};
  expect(refused(p, o), ErrorCode::empty, Field::service_samples, -1, 0, 0,
         "service_samples: needs at least one value");
  o = {};
  o.reps = 0;
  expect(refused(p, o), ErrorCode::out_of_range, Field::reps, -1, 0, 1, "reps: must be between 1 and 1,000,000 (got 0)");
  o.reps = 2e6;
  expect(refused(p, o), ErrorCode::out_of_range, Field::reps, -1, 2e6, 1e6,
         "reps: must be between 1 and 1,000,000 (got 2e+06)");
  o.reps = 2.5;
  CHECK(refused(p, o).code == ErrorCode::not_integer);
  o = {};
  o.seed = -1;
  expect(refused(p, o), ErrorCode::out_of_range, Field::seed, -1, -1, 0, "seed: must be between 0 and 2^53 (got -1)");
  o = {};
  o.M = 1e6;
  o.reps = 1000;
  expect(refused(p, o), ErrorCode::too_many_sim_cells, Field::reps, -1, 3e9, 1e9,
         "reps: M x S x reps = 3,000,000,000 cells is over the limit of 1,000,000,000");
  // One replication over the limit: M is at fault, whatever reps is.
  o.M = 1e9;
  o.reps = 1;
  expect(refused(p, o), ErrorCode::too_many_sim_cells, Field::M, -1, 3e9, 1e9,
         "M: M x S x reps = 3,000,000,000 cells is over the limit of 1,000,000,000");
  // With shared links the event engine's cells are bounded to 1/128 of that:
  // 8e8 of them once took 40 s of CPU.
  o = {};
  o.shared = {{0, 1}};
  o.M = 1e6;
  o.reps = 3;
  expect(refused(p, o), ErrorCode::too_many_sim_cells, Field::reps, -1, 9e6, 7.8125e6,
         "reps: M x S x reps = 9,000,000 cells is over the limit of 7,812,500");
  o.reps = 2;
  CHECK(!sim::check_options(p, o).has_value());
  o.reps = 3;
  o.shared = {};
  CHECK(!sim::check_options(p, o).has_value());
  o = {};
  o.M = 1e6;
  o.timeline = true;
  expect(refused(p, o), ErrorCode::too_many_cells, Field::M, -1, 3e6, 2e6,
         "M: M x S = 3,000,000 cells is over the limit of 2,000,000");
  o = {};
  o.links = static_cast<sim::LinkMode>(7);
  CHECK(refused(p, o).code == ErrorCode::unknown_name);
}

TEST_CASE("sim errors: the finite buffers' history is bounded, and only buffers that can fill count") {
  const auto p = make(std::vector<double>(8, 1.0));
  sim::Options o;
  o.M = 1e6;
  // 8 x (524,287 + 1) = 2^22 is the most.
  o.buffers = {524'287};
  CHECK_FALSE(sim::check_options(p, o).has_value());
  o.buffers = {524'288};
  expect(refused(p, o), ErrorCode::buffer_history_too_large, Field::buffers, 0, 4'194'312, 4'194'304,
         "buffers, link 1: S x (buffer + 1) = 4,194,312 release times to keep is over the limit of 4,194,304 "
         "(use a smaller buffer, or inf)");
  // The largest buffer is the one named; infinite ones keep nothing.
  o.buffers = {2, INFINITY, 600'000, 9, 700'000, INFINITY, 0};
  expect(refused(p, o), ErrorCode::buffer_history_too_large, Field::buffers, 4, 5'600'008, 4'194'304,
         "buffers, link 5: S x (buffer + 1) = 5,600,008 release times to keep is over the limit of 4,194,304 "
         "(use a smaller buffer, or inf)");
  // A buffer of M - 1 or more never fills, so it keeps no history either.
  o.M = 700'001;
  expect(refused(p, o), ErrorCode::buffer_history_too_large, Field::buffers, 2, 4'800'008, 4'194'304,
         "buffers, link 3: S x (buffer + 1) = 4,800,008 release times to keep is over the limit of 4,194,304 "
         "(use a smaller buffer, or inf)");
  o.M = 600'001;
  CHECK_FALSE(sim::check_options(p, o).has_value());
  // One stage has no link, so its one buffer is none.
  o = {};
  o.M = 1e6;
  o.buffers = {1e6 - 2};
  CHECK_FALSE(sim::check_options(make({1.0}), o).has_value());
}

TEST_CASE("sim errors: with shared links the queued transfers are bounded before anything is allocated") {
  // M x (S-1) transfers may wait at once in the event engine; 2^22 at most.
  const auto p = make({1, 2, 3}, {3, 3});
  sim::Options o;
  o.shared = {{0, 1}};
  o.M = hp::limits::kMaxQueuedTransfers / 2;
  CHECK_FALSE(sim::check_options(p, o).has_value());
  o.M += 1;
  expect(refused(p, o), ErrorCode::too_many_transfers, Field::M, -1, 4'194'306, 4'194'304,
         "M: with shared links, M x (S-1) = 4,194,306 transfers that may wait at once is over the limit of 4,194,304");
  // Without shared links the row engine keeps O(S): no such bound.
  o.shared.clear();
  CHECK_FALSE(sim::check_options(p, o).has_value());
  // The case: 3e8 micro-batches on one shared link.
  o = {};
  o.M = 3e8;
  o.shared = {{0}};
  CHECK(refused(make({1, 2}, {3}), o).code == ErrorCode::too_many_transfers);
}

TEST_CASE("sim errors: the typed forms") {
  using sim::DistributionKind;
  CHECK(sim::parse_distribution("lognormal:cv=0.5", Field::service).value().kind == DistributionKind::lognormal);
  CHECK(sim::parse_distribution(" gamma:cv=2 ", Field::service).value().param == 2);
  CHECK(sim::parse_distribution("uniform:spread=0.25", Field::link_service).value().param == 0.25);
  CHECK(sim::parse_distribution("exponential", Field::service).value().kind == DistributionKind::exponential);
  const auto bad = sim::parse_distribution("weibull", Field::service);
  CHECK(hp::text::describe(bad.error()) ==
        "service: must be one of deterministic, exponential, lognormal:cv=X, gamma:cv=X, uniform:spread=X (got 'weibull')");
  // A kind with its number missing says so, not that the kind is unknown.
  CHECK(sim::parse_distribution("lognormal:cv=", Field::service).error().code == ErrorCode::empty);
  CHECK(hp::text::describe(sim::parse_distribution(" lognormal:cv= ", Field::service).error()) ==
        "service: the value after cv= is missing (got 'lognormal:cv=')");
  CHECK(hp::text::describe(sim::parse_distribution("uniform:spread=", Field::link_service).error()) ==
        "link_service: the value after spread= is missing (got 'uniform:spread=')");
  CHECK(sim::parse_distribution("lognormal:cv=x", Field::service).error().code == ErrorCode::not_a_number);
  // A second cv= is named for what it is, not "a list of numbers".
  CHECK(hp::text::describe(sim::parse_distribution("gamma:cv=1:cv=2", Field::service).error()) ==
        "service: the value after cv= or spread= must be one number (got '1:cv=2')");
  // A lone token is no number, whether after cv= (a CV box) or where cv= belongs.
  CHECK(hp::text::describe(sim::parse_distribution("lognormal:cv=x", Field::service).error()) ==
        "service: 'x' is not a number");
  CHECK(hp::text::describe(sim::parse_distribution("gamma:x", Field::service).error()) == "service: 'x' is not a number");
  CHECK(hp::text::describe(sim::parse_distribution("gamma:0.5", Field::service).error()) ==
        "service: must be one of deterministic, exponential, lognormal:cv=X, gamma:cv=X, uniform:spread=X (got 'gamma:0.5')");
  CHECK(hp::text::describe(sim::parse_distribution("uniform:spread=1 2", Field::link_service).error()) ==
        "link_service: the value after cv= or spread= must be one number (got '1 2')");
  CHECK(hp::text::describe(sim::link_mode_from_name("fast").error()) ==
        "link_mode: must be one of async, blocking, serial (got 'fast')");
  // The names written, and the former ones still read as the same modes.
  CHECK(sim::link_mode_name(sim::LinkMode::async) == "async");
  CHECK(sim::link_mode_name(sim::LinkMode::blocking) == "blocking");
  CHECK(sim::link_mode_from_name("async").value() == sim::LinkMode::async);
  CHECK(sim::link_mode_from_name("delay").value() == sim::LinkMode::async);
  CHECK(sim::link_mode_from_name("blocking").value() == sim::LinkMode::blocking);
  CHECK(sim::link_mode_from_name("block").value() == sim::LinkMode::blocking);
  CHECK(sim::link_mode_from_name("serial").value() == sim::LinkMode::serial);

  const auto buffers = sim::parse_buffers("0, inf，2");
  REQUIRE(buffers.ok());
  CHECK(buffers.value() == std::vector<double>{0, INFINITY, 2});
  CHECK(sim::parse_buffers("1,infinity").error().code == ErrorCode::not_a_number);

  const auto shared = sim::parse_shared("0,1; 2 3");
  REQUIRE(shared.ok());
  CHECK(shared.value() == std::vector<std::vector<std::int64_t>>{{0, 1}, {2, 3}});
  CHECK(sim::parse_shared("").value().empty());
  const auto half = sim::parse_shared("0;1.5");
  CHECK(half.error().code == ErrorCode::not_integer);
  CHECK(half.error().index == 1);
  CHECK(sim::parse_shared("0;;1").error().code == ErrorCode::empty);

  const auto rows = sim::parse_rows("node-01,node-02\r\n1,2\r\n\n3,4\n", Field::service_matrix);
  REQUIRE(rows.ok());
  CHECK(rows.value() == std::vector<std::vector<double>>{{1, 2}, {3, 4}});
  // Lines that end in a lone CR (old Mac exports) are lines too; a header may be quoted.
  for (const char* text : {"node-01,node-02\r1,2\r3,4\r", "\"node-01\",\"node-02\"\r1,2\r\r3,4",
                           "\xEF\xBB\xBFnode-01,node-02\r\n1,2\r\n3,4", "\xEF\xBB\xBF" "1,2\n3,4"}) {
    const auto cr = sim::parse_rows(text, Field::service_matrix);
    REQUIRE(cr.ok());
    CHECK(cr.value() == std::vector<std::vector<double>>{{1, 2}, {3, 4}});
  }
  const auto bad_row = sim::parse_rows("1,2\n3,x\n", Field::service_matrix);
  CHECK(bad_row.error().index == 1);
  CHECK(bad_row.error().column == 1);
  CHECK(hp::text::describe(bad_row.error()) == "service_matrix, row 2, column 2: 'x' is not a number");
  const auto bad_link = sim::parse_rows("a,b\n1,2\n\n3,4\n5,,6\n", Field::link_matrix);
  CHECK(bad_link.error().code == ErrorCode::empty_item);
  CHECK(hp::text::describe(bad_link.error()) == "link_matrix, row 3, column 2: empty item between separators");
  // A first row of NaN or infinities is a measurement, refused, not a header skipped (the file
  // "nan\n1\n" replayed its second row as the first micro-batch's).
  for (const char* text : {"nan\n1\n", "Inf,1\n1,1\n", "INFINITY;2\n"}) {
    const auto first = sim::parse_rows(text, Field::service_matrix);
    REQUIRE_FALSE(first.ok());
    CHECK(first.error().code == ErrorCode::not_a_number);
    CHECK(first.error().index == 0);
    CHECK(first.error().column == 0);
  }
  CHECK(sim::parse_rows("infra,b\n1,2\n", Field::service_matrix).value() == std::vector<std::vector<double>>{{1, 2}});
  // A samples file's columns are its stages: the bad value's row and stage, as a matrix's cell is named
  // (it named the stage alone).
  const auto bad_sample = sim::parse_rows("1,2,3\n4,5,6\n7,8,x\n", Field::service_samples);
  CHECK(bad_sample.error().index == 2);
  CHECK(bad_sample.error().column == 2);
  CHECK(hp::text::describe(bad_sample.error()) == "service_samples, row 3, stage 3: 'x' is not a number");
  // So is a sample the options' check refuses (0, below the least stage time), quoted as typed.
  for (const auto& [text, sentence] : std::vector<std::pair<const char*, const char*>>{
           {"s1,s2\n1,2\n0.0,3\n", "service_samples, row 2, stage 1: must be > 0 (got 0.0)"},
           {"1,2\n3,4\n5,1e-16\n", "service_samples, row 3, stage 2: must be at least 1e-15 (got 1e-16)"},
           {"1,2\n-1,4\n", "service_samples, row 2, stage 1: must be >= 0 (got -1)"},
           {"1,2\n1,1e-400\n", "service_samples, row 2, stage 2: is too small to read (got 1e-400): a number other "
                                 "than 0 must be at least 2.2250738585072014e-308 in size"}}) {
    const auto refused = sim::parse_table(text, Field::service_samples, 2, hp::limits::kMaxServiceSamples);
    REQUIRE_FALSE(refused.ok());
    CHECK(hp::text::describe(refused.error()) == sentence);
  }
  // A time out of range is refused by the reader, quoted as typed (not 1e+308), where the check would place it.
  const auto huge = sim::parse_table("1,1\n1e308,1\n", Field::service_matrix, 2, hp::limits::kMaxSimCells);
  CHECK(huge.error().code == ErrorCode::too_large);
  CHECK(huge.error().value == 1e308);
  CHECK(huge.error().limit == hp::limits::kMaxValue);
  CHECK(hp::text::describe(huge.error()) == "service_matrix, row 2, column 1: must be at most 1e15 (got 1e308)");
  CHECK(hp::text::describe(sim::parse_rows("0 -0.50\n", Field::link_matrix).error()) ==
        "link_matrix, row 1, column 2: must be >= 0 (got -0.50)");
  CHECK(hp::text::describe(sim::parse_rows("1,2\n3,２e16\n", Field::service_samples).error()) ==
        "service_samples, row 2, stage 2: must be at most 1e15 (got ２e16)");
}

TEST_CASE("sim errors: a table is read flat, each row its width, a samples file no further than its limit") {
  // Comma decimals in quotes are no numbers; BOM, CRLF and blank lines read as the CLI reads them.
  const auto flat = sim::parse_table("\xEF\xBB\xBF" "a,b\r\n1,5e-3\r\n\r\n2,3\r\n", Field::service_samples, 2,
                                     hp::limits::kMaxServiceSamples);
  REQUIRE(flat.ok());
  CHECK(flat.value() == std::vector<double>{1, 5e-3, 2, 3});
  // A subnormal is refused as the CLI's --tau refuses it, quoted as typed.
  const auto tiny = sim::parse_table("a,b\n1,5e-320\n", Field::service_samples, 2, hp::limits::kMaxServiceSamples);
  REQUIRE_FALSE(tiny.ok());
  CHECK(tiny.error().code == ErrorCode::too_small);
  CHECK(tiny.error().token == "5e-320");
  CHECK(tiny.error().limit == hp::limits::kMinNormalNumber);
  // A matrix row of another width is named at its row, before the rows after it are read.
  auto e = sim::parse_table("1,2\n3\n4,x\n", Field::service_matrix, 2, hp::limits::kMaxSimCells).error();
  CHECK(hp::text::describe(e) == "service_matrix, row 2: needs S = 2 values, one per stage (got 1)");
  // A samples file's short row is named at its row too (the header, blank lines uncounted), not only its width.
  e = sim::parse_table("1\n2,3\n", Field::service_samples, 1, hp::limits::kMaxServiceSamples).error();
  CHECK(e.code == ErrorCode::wrong_length);
  CHECK(e.index == 1);
  CHECK(e.value == 2);
  e = sim::parse_table("node-01,node-02\n1,2\n\n3\n", Field::service_samples, 2, hp::limits::kMaxServiceSamples)
          .error();
  CHECK(e.index == 1);
  CHECK(e.column == hp::kWholeField);
  CHECK(hp::text::describe(e) == "service_samples, row 2: needs S = 2 values, one column per stage (got 1)");
  // One value past the samples' limit is refused there; a bad value further on is never reached.
  std::string text;
  for (int k = 0; k <= static_cast<int>(hp::limits::kMaxServiceSamples); ++k) text += "1\n";
  text += "x\n";
  e = sim::parse_table(text, Field::service_samples, 1, hp::limits::kMaxServiceSamples).error();
  CHECK(e.code == ErrorCode::too_many);
  CHECK(e.field == Field::service_samples);
  CHECK(e.limit == hp::limits::kMaxServiceSamples);
}

TEST_CASE("sim errors: a table's cells in double quotes read as their content, the first row too") {
  // As spreadsheets write them: a quoted first row of numbers is data, a quoted header is a header.
  const auto quoted = sim::parse_table("\"1.5\",\"2.0\"\n\"3\",4\n", Field::service_matrix, 2, hp::limits::kMaxSimCells);
  REQUIRE(quoted.ok());
  CHECK(quoted.value() == std::vector<double>{1.5, 2.0, 3, 4});
  CHECK(sim::parse_rows("\"stage 1\",\"stage 2\"\n\"1\",\"2\"\n", Field::link_matrix).value() ==
        std::vector<std::vector<double>>{{1, 2}});
  // A bad quoted cell is named at its row and column and quoted as typed.
  const auto bad = sim::parse_rows("\"1\",\"2\"\n\"3\",\"-1\"\n", Field::service_matrix);
  CHECK(hp::text::describe(bad.error()) == "service_matrix, row 2, column 2: must be >= 0 (got \"-1\")");
}

TEST_CASE("sim errors: random options, good and bad, never crash and never give a non-finite number") {
  std::mt19937_64 rng(99);
  auto pick = [&rng](std::initializer_list<double> values) { return *(values.begin() + rng() % values.size()); };
  for (int trial = 0; trial < 3000; ++trial) {
    const std::size_t S = 1 + rng() % 5;
    std::vector<double> tau(S), d(S - 1);
    for (double& x : tau) x = pick({0, 1e-15, 0.5, 1, 3, 1e15});
    for (double& x : d) x = pick({0, 0.1, 2, 1e15});
    tau[rng() % S] = 1;  // a valid pipeline: the simulator's options are what is fuzzed
    const auto p = make(tau, d);
    sim::Options o;
    o.M = pick({1, 2, 7, 0, 2.5, NAN, 300});
    o.links = static_cast<sim::LinkMode>(rng() % 4);
    if (rng() % 3 == 0) o.shared = {{static_cast<std::int64_t>(rng() % 4) - 1}};
    if (rng() % 2) o.buffers = {pick({0, 1, 2, INFINITY, -1, 0.5, NAN, 3e6})};
    o.service = {sim::Distribution{static_cast<sim::DistributionKind>(rng() % 5), pick({0, 0.5, 4, 5, -1, NAN})}};
    if (rng() % 2) o.link_service = {sim::Distribution{static_cast<sim::DistributionKind>(rng() % 5), pick({0, 1, 4})}};
    o.reps = pick({1, 3, 0, 1.5});
    o.seed = pick({0, 1, 9007199254740992.0, -1});
    o.timeline = rng() % 2;
    auto r = sim::simulate(p, o);
    if (!r) {
      CHECK(std::isfinite(r.error().value));
      CHECK_FALSE(hp::text::describe(r.error()).empty());
      continue;
    }
    const auto& s = r.value();
    for (double x : {s.makespan.mean, s.makespan.sd, s.makespan.p99, s.throughput.mean, s.throughput.max,
                     s.deterministic_makespan, s.jensen_gap}) {
      CHECK(std::isfinite(x));
    }
    CHECK(s.makespan.min > 0);
  }
}

TEST_CASE("sim errors: option_errors names every bad field at once, each once, and check_options the first") {
  const auto p = make({1, 2, 3}, {0.5, 0.5});
  sim::Options o;
  CHECK(sim::option_errors(p, o).empty());
  o.buffers = {1, -1};
  o.service = {sim::Distribution{sim::DistributionKind::lognormal, 5}};
  o.reps = 0;
  o.seed = 1.5;
  const std::vector<hp::Error> all = sim::option_errors(p, o);
  REQUIRE(all.size() == 4);
  CHECK(all[0].field == Field::buffers);
  CHECK(all[1].field == Field::service);
  CHECK(all[2].field == Field::reps);
  CHECK(all[3].field == Field::seed);
  CHECK(hp::text::describe(all[3]) == "seed: must be a whole number (got 1.5)");
  CHECK(hp::text::describe(*sim::check_options(p, o)) == hp::text::describe(all[0]));
  // The work limits only once every field is good: reps alone over the cells' limit names reps.
  o = {};
  o.M = 1000;
  o.reps = 1e6;
  const std::vector<hp::Error> work = sim::option_errors(p, o);
  REQUIRE(work.size() == 1);
  CHECK(work[0].code == ErrorCode::too_many_sim_cells);
  CHECK(work[0].field == Field::reps);
}

TEST_CASE("sim errors: a random run's work counts its draws and each replication's streams") {
  namespace lim = hp::limits;
  // At M = 1 each replication seeds 2S - 1 streams, far more work than its S
  // cells: 1,000 exponential stages, one micro-batch, a million replications
  // were 1e9 cells, inside the cells' limit, and took minutes on one core.
  const hp::Pipeline wide = make(std::vector<double>(1000, 1.0));
  sim::Options o;
  o.M = 1;
  o.service = {{sim::DistributionKind::exponential, 0}};
  o.reps = 1e6;
  const double per_rep = 1000 + lim::kSimDrawSteps * 1000 + lim::kSimStreamSteps * 1999;
  expect(refused(wide, o), ErrorCode::too_much_sim_work, Field::reps, -1, per_rep * 1e6, lim::kMaxSimCells,
         "reps: with random times, M x S x reps cells plus 16 steps a draw and 64 a stream of each replication = "
         "144,936,000,000 steps is over the limit of 1,000,000,000");
  // The most replications the limit allows run.
  o.reps = std::floor(lim::kMaxSimCells / per_rep);
  CHECK(sim::check_options(wide, o) == std::nullopt);
  o.reps += 1;
  CHECK(refused(wide, o).code == ErrorCode::too_much_sim_work);
  // The same pipeline without random times counts cells only (one replication runs).
  o.service = {};
  o.reps = 1e6;
  CHECK(sim::check_options(wide, o) == std::nullopt);
  // One replication over it, at M = 1: the stages' fault.
  const hp::Pipeline huge = make(std::vector<double>(8'000'000, 1.0));
  o.service = {{sim::DistributionKind::lognormal, 0.5}};
  o.reps = 1;
  const hp::Error stages = refused(huge, o);
  CHECK(stages.code == ErrorCode::too_much_sim_work);
  CHECK(stages.field == Field::tau);
  CHECK(stages.value == 8e6 + lim::kSimDrawSteps * 8e6 + lim::kSimStreamSteps * (16e6 - 1));
  // Single-replication quantile sampling: 1e9 cells, one replication, was
  // inside the cells' limit and took tens of seconds; now M is named.
  const hp::Pipeline one = make({1.0});
  sim::Options q;
  q.service_samples = std::vector<sim::Empirical>{{{1, 2, 3, 4}, false, false}};
  q.service_probabilities = {0, 0.05, 0.5, 0.95};
  q.M = 1e9;
  expect(refused(one, q), ErrorCode::too_much_sim_work, Field::M, -1, 1e9 + 16e9 + 64, lim::kMaxSimCells,
         "M: with random times, M x S x reps cells plus 16 steps a draw and 64 a stream of each replication = "
         "17,000,000,064 steps is over the limit of 1,000,000,000");
  q.M = std::floor((lim::kMaxSimCells - lim::kSimStreamSteps) / (1 + lim::kSimDrawSteps));
  CHECK(sim::check_options(one, q) == std::nullopt);
  // A replayed matrix draws nothing: a random link service alone counts.
  sim::Options links;
  links.link_service = {{sim::DistributionKind::exponential, 0}};
  links.M = 1e8;
  const hp::Pipeline two = make({1, 1}, {1});
  CHECK(refused(two, links).value == 2e8 + lim::kSimDrawSteps * 1e8 + lim::kSimStreamSteps * 3);
}

TEST_CASE("sim errors: a shared link is read alike from text, a list and every front end; past 2^53 it is out of range") {
  // 1e20 is whole: it was "must be a whole number (got 1e+20)", and NaN from a
  // list "must be a whole number (got 0)".
  expect(sim::parse_shared("0;1e20").error(), ErrorCode::out_of_range, Field::shared, 1, 1e20, 9007199254740992.0,
         "shared, group 2: must be between 0 and 2^53 (got 1e20)");
  expect(sim::parse_shared("-1e20").error(), ErrorCode::out_of_range, Field::shared, 0, -1e20, 9007199254740992.0,
         "shared, group 1: must be between 0 and 2^53 (got -1e20)");
  // Quoted as typed, as every list's item is (it said "got 1e+20" for 1e20 and for full-width digits).
  CHECK(sim::parse_shared("0, \xEF\xBC\x91" "e20").error().token == "\xEF\xBC\x91" "e20");
  CHECK(sim::parse_shared("1; 0 2.50").error().token == "2.50");
  const hp::Error far = sim::parse_shared("1e400").error();
  CHECK(far.code == ErrorCode::out_of_range);
  CHECK(hp::text::describe(far) == "shared, group 1: must be between 0 and 2^53 (got 1e400)");
  expect(sim::shared_link(NAN, 2).error(), ErrorCode::not_finite, Field::shared, 2, 0, 0,
         "shared, group 3: must be a finite number (got nan)");
  CHECK(sim::shared_link(-INFINITY, 0).error().token == "-inf");
  CHECK(sim::shared_link(0.5, 0).error().code == ErrorCode::not_integer);
  CHECK(sim::shared_link(9007199254740992.0, 0).value() == 9007199254740992);
  CHECK(sim::shared_link(-3, 0).value() == -3);  // no_such_link is check_options'
}

TEST_CASE("sim errors: a CV, spread or buffer past the double range names its own range") {
  // They said "must be at most 1e15", a limit none of them has.
  auto cv = sim::parse_distribution("lognormal:cv=-1e400", Field::service).error();
  CHECK(hp::text::describe(cv) == "service: must be between 0 and 4 (got -1e400)");
  cv = sim::parse_distribution("uniform:spread=1e400", Field::link_service).error();
  CHECK(hp::text::describe(cv) == "link_service: must be between 0 and 1 (got 1e400)");
  CHECK(hp::text::describe(sim::parse_buffers("1, 1e400").error()) ==
        "buffers, link 2: must be at most 1,000,000 (got 1e400)");
  CHECK(hp::text::describe(sim::parse_buffers("-1e400").error()) == "buffers, link 1: must be >= 0 (got -1e400)");
}
