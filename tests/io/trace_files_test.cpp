// Trace files as the native front ends read them: gzip (with its bomb
// limit), the real Kineto traces in tests/data/traces, and the synthetic
// per-rank .json.gz files the CLI and Python tests import.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
#include <zlib.h>

#include <cstdlib>
#include <fstream>
#include <iterator>

#include "../core/trace_support.hpp"
#include "heteropipe/cli/gzip.hpp"
#include "heteropipe/text/error_text.hpp"

using namespace heteropipe;

namespace {

const std::string kData = HETEROPIPE_TRACE_DATA;

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE(in);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// Fixed header (no name, no time) so that the same text gives the same bytes.
std::string gzip(const std::string& text) {
  z_stream s{};
  REQUIRE(deflateInit2(&s, 9, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) == Z_OK);
  std::string out(deflateBound(&s, static_cast<uLong>(text.size())) + 64, '\0');
  s.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
  s.avail_in = static_cast<uInt>(text.size());
  s.next_out = reinterpret_cast<Bytef*>(out.data());
  s.avail_out = static_cast<uInt>(out.size());
  REQUIRE(deflate(&s, Z_FINISH) == Z_STREAM_END);
  out.resize(s.total_out);
  deflateEnd(&s);
  return out;
}

TraceEvents read_gz(const std::vector<std::string>& paths) {
  TraceEvents events;
  for (const std::string& path : paths) {
    auto text = io::inflate_if_gzip(read_file(path), path);
    REQUIRE(text.ok());
    REQUIRE(!read_trace_text(text.value(), path, events));
  }
  return events;
}

// The run the CLI's goldens and the Python tests import.
testing::SyntheticRun fixture_run() {
  testing::SyntheticRun run;
  run.tau = {1000, 2500, 1500};
  run.d = {200, 300};
  run.M = 8;
  run.clock = {0, 12345, -777};
  return run;
}

}  // namespace

TEST_CASE("gzip: inflates, refuses damage and stops a bomb at its limit") {
  const std::string text = std::string(1 << 20, ' ') + "[]";
  const std::string packed = gzip(text);
  CHECK(packed.size() < 5000);
  CHECK(io::inflate_if_gzip(packed, "a.json.gz").value() == text);
  CHECK(io::inflate_if_gzip(packed + packed, "a.json.gz").value() == text + text);  // two members
  CHECK(io::inflate_if_gzip("[1]", "plain.json").value() == "[1]");
  const auto bomb = io::inflate_if_gzip(packed, "bomb.json.gz", 65536);
  REQUIRE(!bomb.ok());
  CHECK(bomb.error().code == ErrorCode::too_large);
  CHECK(bomb.error().limit == 65536);
  CHECK(text::describe(bomb.error()).rfind("bomb.json.gz, byte ", 0) == 0);
  const auto cut = io::inflate_if_gzip(packed.substr(0, packed.size() / 2), "cut.json.gz");
  REQUIRE(!cut.ok());
  CHECK(cut.error().code == ErrorCode::bad_gzip);
  CHECK(cut.error().token == "cut.json.gz");
  std::string damaged = packed;
  damaged[12] = static_cast<char>(damaged[12] ^ 0x55);
  damaged[13] = static_cast<char>(damaged[13] ^ 0x55);
  CHECK(!io::inflate_if_gzip(damaged, "bad.json.gz").ok());
  // Bytes after the data are named from the first of them, not from where
  // inflating the next member restarted its count (byte 2).
  const auto trailing = io::inflate_if_gzip(packed + "x", "t.json.gz");
  REQUIRE(!trailing.ok());
  CHECK(trailing.error().value == kGzipTrailingData);
  CHECK(text::describe(trailing.error()) == "t.json.gz, byte " + std::to_string(packed.size()) +
                                              ": bytes that are not gzip data follow the end of the gzip data");
  const auto second_cut = io::inflate_if_gzip(packed + packed.substr(0, 20), "c.json.gz");
  REQUIRE(!second_cut.ok());
  CHECK(second_cut.error().code == ErrorCode::bad_gzip);
  CHECK(second_cut.error().index >= static_cast<std::int64_t>(packed.size()));
}

TEST_CASE("real traces: two ranks of Meta's HTA test data") {
  const TraceEvents events =
      read_gz({kData + "/hta_sampled_rank-0.json.gz", kData + "/hta_sampled_rank-1.json.gz"});
  CHECK(events.files.size() == 2);
  CHECK(events.files[0].rank == 0);
  CHECK(events.files[1].world_size == 128);
  const auto result = recover_model(events, {});
  REQUIRE(result.ok());
  const TraceResult& r = result.value();
  REQUIRE(r.ranks.size() == 2);
  CHECK(r.ranks[0].kernels == 1154);
  CHECK(r.ranks[1].kernels == 1104);
  CHECK(r.ranks[0].compute_kernels == 1144);
  CHECK(r.ranks[1].compute_kernels == 1094);
  CHECK(r.ranks[0].transfer_kernels == 10);
  CHECK(r.ranks[1].transfer_kernels == 10);
  CHECK(r.ranks[0].streams == 4);
  CHECK(r.ranks[0].compute_time == doctest::Approx(210.320));
  CHECK(r.ranks[1].compute_time == doctest::Approx(271.973));
  CHECK(r.ranks[0].communication_time == doctest::Approx(396.199));
  CHECK(r.ranks[1].communication_time == doctest::Approx(379.053));
  // Two of 128 ranks: said, whatever the verdict.
  REQUIRE(r.warnings.size() == 2);
  CHECK(r.warnings[0].code == TraceWarningCode::missing_ranks);
  // Their SendRecv kernels pair with other ranks of the job, so the pairs
  // found here bound the clock from both sides, and contradict each other.
  CHECK(r.warnings[1].code == TraceWarningCode::clock_bounds_contradict);
  CHECK(r.warnings[1].value > r.warnings[1].limit);
  if (r.pipeline) {
    CHECK(r.M >= 1);
    CHECK(r.analysis->T_async > 0);
  } else {
    CHECK(r.reason.has_value());
  }
}

TEST_CASE("synthetic fixtures: per-rank .json.gz from the exact timeline") {
  const testing::SyntheticRun run = fixture_run();
  const Timeline t = testing::synthetic_timeline(run);
  std::vector<std::string> paths;
  for (std::int64_t r = 0; r < t.S; ++r) {
    const std::string path = kData + "/synthetic/rank-" + std::to_string(r) + ".json.gz";
    const std::string text = testing::synthetic_rank(run, t, r);
    const char* update = std::getenv("HETEROPIPE_UPDATE_GOLDENS");
    if (update && std::string(update) == "1") {
      std::ofstream(path, std::ios::binary) << gzip(text);
    }
    // The committed file is what the generator writes today.
    CHECK(io::inflate_if_gzip(read_file(path), path).value() == text);
    paths.push_back(path);
  }
  const auto result = recover_model(read_gz(paths), {});
  REQUIRE(result.ok());
  const TraceResult& r = result.value();
  REQUIRE(r.pipeline);
  CHECK(r.tau == std::vector<double>{1, 2.5, 1.5});
  CHECK(r.d == std::vector<double>{0.2, 0.3});
  CHECK(r.M == 8);
  CHECK(r.T_real == doctest::Approx(t.makespan / 1000).epsilon(1e-12));
  CHECK(r.clock_offsets == std::vector<double>{0, -12.345, 0.777});
}
