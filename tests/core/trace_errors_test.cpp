// Bad trace input: each problem is a coded error naming the file and the
// byte (JSON) or line (CSV) where it lies.
#include <doctest/doctest.h>

#include <heteropipe/limits.hpp>
#include <heteropipe/plan/read_json.hpp>
#include <heteropipe/sim/text_input.hpp>
#include <heteropipe/trace/model.hpp>
#include <heteropipe/text/error_text.hpp>
#include <heteropipe/text/numbers.hpp>
#include <heteropipe/text/trace_text.hpp>

#include <string>

using namespace heteropipe;

namespace {

Error refused(const std::string& text) {
  TraceEvents events;
  auto problem = read_trace_text(text, "bad.json", events);
  REQUIRE(problem.has_value());
  CHECK(problem->token == "bad.json");
  CHECK(events.events.empty());
  return *problem;
}

const std::string kEvent = R"({"ph":"X","cat":"kernel","name":"k","pid":0,"tid":1,"ts":5,"dur":2})";

}  // namespace

TEST_CASE("trace errors: syntax, with the byte where it breaks") {
  const Error cut = refused(R"({"traceEvents":[)" + kEvent);
  CHECK(cut.code == ErrorCode::not_json);
  CHECK(cut.index == 16 + static_cast<std::int64_t>(kEvent.size()));
  // The text ends inside the JSON: a file cut short, as it says.
  CHECK(cut.limit == static_cast<double>(cut.index));
  CHECK(text::describe(cut) == "bad.json, byte " + std::to_string(cut.index) +
                                   ": not valid JSON: the text ends inside it, so the file was cut short (a rank that "
                                   "crashed, or a trace still being written)");
  const Error comma = refused(R"({"traceEvents":[)" + kEvent + "]},}");
  CHECK(comma.code == ErrorCode::not_json);
  CHECK(text::describe(comma) == "bad.json, byte " + std::to_string(comma.index) + ": not valid JSON");
  CHECK(refused("").code == ErrorCode::empty);
  // Neither JSON nor CSV is its own code (not_json meant both once).
  const Error png = refused(std::string("\x89PNG\r\n\x1a\n\0\0", 10));
  CHECK(png.code == ErrorCode::not_a_trace);
  CHECK(text::describe(png) == "bad.json, byte 0: neither trace JSON nor a schedule CSV (stage,microbatch,kind,start,end)");
  CHECK(refused(R"({"traceEvents":[]} x)").code == ErrorCode::not_json);
  CHECK(refused(R"({"other":1})").code == ErrorCode::missing_field);
  // Bytes after an object with no traceEvents make it no JSON, which a directory does not leave out as a
  // run's own record (it was missing_field, and a directory skipped the file).
  CHECK(refused(R"({"other":1} x)").code == ErrorCode::not_json);
  // Bytes after a NUL are not blanks; a leading byte-order mark is skipped.
  CHECK(refused(std::string("{\"traceEvents\":[]}\0x", 20)).code == ErrorCode::not_json);
  CHECK(refused("\xEF\xBB\xBF{\"traceEvents\":[]} x").code == ErrorCode::not_json);
  TraceEvents bom_events;
  CHECK(!read_trace_text("\xEF\xBB\xBF{\"traceEvents\":[" + kEvent + "]}", "bom.json", bom_events));
  CHECK(bom_events.events.size() == 1);
  CHECK(refused(R"({"traceEvents":{}})").code == ErrorCode::wrong_type);
  CHECK(refused(R"([1])").code == ErrorCode::wrong_type);
  CHECK(refused(R"({"a":)" + std::string(100, '[')).code == ErrorCode::too_large);
}

TEST_CASE("trace errors: fields of an event") {
  const Error type = refused(R"([{"ph":"X","name":"k","pid":0,"tid":1,"ts":"5","dur":2}])");
  CHECK(type.code == ErrorCode::wrong_type);
  CHECK(type.field == Field::ts);
  CHECK(type.index == 43);
  const Error nan = refused(R"([{"ph":"X","name":"k","ts":NaN,"dur":2}])");
  CHECK(nan.code == ErrorCode::not_finite);
  CHECK(nan.field == Field::ts);
  const Error huge = refused(R"([{"ph":"X","name":"k","ts":1,"dur":1e308}])");
  CHECK(huge.code == ErrorCode::too_large);
  CHECK(huge.value == 1e308);
  CHECK(refused(R"([{"ph":"X","name":"k","ts":1,"dur":1e999}])").code == ErrorCode::too_large);
  const Error negative = refused(R"([{"ph":"X","name":"k","ts":1,"dur":-3}])");
  CHECK(negative.code == ErrorCode::negative);
  CHECK(negative.value == -3);
  CHECK(text::describe(negative) == "bad.json, byte 35: dur must be >= 0 (got -3)");
  const Error missing = refused(R"([{"ph":"X","name":"k","ts":1}])");
  CHECK(missing.code == ErrorCode::missing_field);
  CHECK(missing.field == Field::dur);
  CHECK(missing.index == 1);
  CHECK(refused(R"([{"name":"k","ts":1}])").field == Field::ph);
}

TEST_CASE("trace errors: every number of the file names its key and its rule") {
  auto with = [](const std::string& head) { return refused("{" + head + R"("traceEvents":[)" + kEvent + "]}"); };
  auto said = [&](const std::string& head) { return text::describe(with(head)).substr(std::string("bad.json, byte ").size()); };
  CHECK(said(R"("distributedInfo":{"rank":0,"world_size":-5},)") == "42: world_size must be between 1 and 2^53 (got -5)");
  CHECK(said(R"("distributedInfo":{"rank":0,"world_size":0},)") == "42: world_size must be between 1 and 2^53 (got 0)");
  CHECK(said(R"("distributedInfo":{"rank":5,"world_size":2},)") == "27: rank must be between 0 and 1 (got 5)");
  CHECK(said(R"("distributedInfo":{"rank":-1},)") == "27: rank must be between 0 and 2^53 (got -1)");
  CHECK(said(R"("distributedInfo":{"rank":1e300},)") == "27: rank must be between 0 and 2^53 (got 1e300)");
  CHECK(said(R"("distributedInfo":{"rank":1.5},)") == "27: rank must be a whole number (got 1.5)");
  CHECK(said(R"("distributedInfo":{"world_size":"x"},)") == "33: world_size has the wrong type of value (got \"x\")");
  CHECK(said(R"("distributedInfo":{"world_size":true},)") == "33: world_size has the wrong type of value (got true)");
  CHECK(said(R"("distributedInfo":"x",)") == "19: distributedInfo has the wrong type of value (got \"x\")");
  CHECK(said(R"("baseTimeNanoseconds":1e30,)") == "23: baseTimeNanoseconds must be between 0 and 9e18 (got 1e30)");
  CHECK(said(R"("baseTimeNanoseconds":-1,)") == "23: baseTimeNanoseconds must be between 0 and 9e18 (got -1)");
  CHECK(said(R"("baseTimeNanoseconds":1.5,)") == "23: baseTimeNanoseconds must be a whole number (got 1.5)");
  CHECK(said(R"("baseTimeNanoseconds":1e999,)") == "23: baseTimeNanoseconds must be at most 9e18 (got 1e999)");
  // One past each limit, read exactly: 9000000000000000001 rounds to the double 9e18 and was taken (as
  // 9000000000000000001 ns), a pid or rank of 2^53 + 1 likewise; each is quoted as typed, never as the
  // double it rounds to (9000000000000001000 was "got 9000000000000001024").
  CHECK(said(R"("baseTimeNanoseconds":9000000000000000001,)") ==
        "23: baseTimeNanoseconds must be between 0 and 9e18 (got 9000000000000000001)");
  CHECK(said(R"("baseTimeNanoseconds":9000000000000001000,)") ==
        "23: baseTimeNanoseconds must be between 0 and 9e18 (got 9000000000000001000)");
  CHECK(said(R"("distributedInfo":{"rank":9007199254740993},)") ==
        "27: rank must be between 0 and 2^53 (got 9007199254740993)");
  CHECK(said(R"("distributedInfo":{"rank":1.50},)") == "27: rank must be a whole number (got 1.50)");
  const Error past = with(R"("baseTimeNanoseconds":9000000000000000001,)");
  CHECK(past.code == ErrorCode::out_of_range);
  CHECK(past.limit == 9e18);
  CHECK(past.typed == "9000000000000000001");
  {
    TraceEvents at_limit;
    REQUIRE(!read_trace_text(R"({"baseTimeNanoseconds":9000000000000000000,"traceEvents":[)" + kEvent + "]}", "a.json",
                             at_limit));
    CHECK(at_limit.base_ns == 9000000000000000000);
  }
  for (const char* value : {R"("x")", "null", "true", "[]"}) {
    CHECK(said(std::string(R"("baseTimeNanoseconds":)") + value + ",") ==
          "23: baseTimeNanoseconds has the wrong type of value (got " + std::string(value) + ")");
  }
  // Past 2^53, still exact.
  TraceEvents events;
  REQUIRE(!read_trace_text(R"({"baseTimeNanoseconds":1700000000000000001,"traceEvents":[)" + kEvent + "]}", "a.json",
                           events));
  CHECK(events.base_ns == 1700000000000000001);
  // An event's numbers.
  // The key tried takes the place of the event's own (a key given twice is
  // an error of its own), renamed to an unread key of the same length so that
  // every byte stays where it was.
  auto event = [](const std::string& key_value) {
    std::string base = R"([{"ph":"X","name":"k","ts":1,"dur":2,)";
    if (key_value.rfind("\"ts\"", 0) == 0) base.replace(base.find("\"ts\""), 4, "\"xx\"");
    if (key_value.rfind("\"dur\"", 0) == 0) base.replace(base.find("\"dur\""), 5, "\"xxx\"");
    return text::describe(refused(base + key_value + "}]"));
  };
  CHECK(event(R"("pid":1e300)") == "bad.json, byte 43: pid must be between -2^53 and 2^53 (got 1e300)");
  CHECK(event(R"("tid":-1e300)") == "bad.json, byte 43: tid must be between -2^53 and 2^53 (got -1e300)");
  CHECK(event(R"("tid":1.5)") == "bad.json, byte 43: tid must be a whole number (got 1.5)");
  CHECK(event(R"("pid":9007199254740993)") == "bad.json, byte 43: pid must be between -2^53 and 2^53 (got 9007199254740993)");
  CHECK(event(R"("tid":-9007199254740993)") ==
        "bad.json, byte 43: tid must be between -2^53 and 2^53 (got -9007199254740993)");
  {
    TraceEvents at_limit;
    CHECK(!read_trace_text(R"([{"ph":"X","name":"k","ts":1,"dur":2,"pid":9007199254740992,"tid":-9007199254740992}])",
                           "a.json", at_limit));
  }
  CHECK(event(R"("pid":null)") == "bad.json, byte 43: pid has the wrong type of value (got null)");
  CHECK(event(R"("ts":-1e300)") == "bad.json, byte 42: ts must be between -1e17 and 1e17 (got -1e300)");
  // Past the double range, by the same checks as -1e300, quoted as typed ("dur must be at most 1e17" before).
  CHECK(event(R"("ts":-1e400)") == "bad.json, byte 42: ts must be between -1e17 and 1e17 (got -1e400)");
  CHECK(event(R"("ts":1e400)") == "bad.json, byte 42: ts must be between -1e17 and 1e17 (got 1e400)");
  CHECK(event(R"("dur":-1e400)") == "bad.json, byte 43: dur must be >= 0 (got -1e400)");
  CHECK(event(R"("dur":-1)") == "bad.json, byte 43: dur must be >= 0 (got -1)");
  CHECK(event(R"("dur":1e400)") == "bad.json, byte 43: dur must be at most 1e17 (got 1e400)");
  CHECK(event(R"("dur":"x")") == "bad.json, byte 43: dur has the wrong type of value (got \"x\")");
  // A number typed as a string is quoted as typed, the file's label kept in token.
  const Error nan_text = refused(R"([{"ph":"X","name":"k","ts":"NaN","dur":2}])");
  CHECK(nan_text.code == ErrorCode::wrong_type);
  CHECK(nan_text.token == "bad.json");
  CHECK(nan_text.typed == "\"NaN\"");
  CHECK(text::describe(nan_text) == "bad.json, byte 27: ts has the wrong type of value (got \"NaN\")");
  CHECK(event(R"("dur":"12")") == "bad.json, byte 43: dur has the wrong type of value (got \"12\")");
  // A long value is cut to limits::kMaxQuoteBytes; a control character is escaped when shown.
  const Error list = refused(R"([{"ph":"X","name":"k","ts":[)" + std::string(100, '1') + "]}]");
  CHECK(list.typed == "[" + std::string(limits::kMaxQuoteBytes - 1, '1') + "...");
  const Error mistyped_events = refused(R"({"traceEvents":"a\u0001"})");
  CHECK(mistyped_events.typed == "\"a\\u0001\"");
  CHECK(text::describe(mistyped_events) == "bad.json, byte 15: traceEvents must be a list of event objects (got \"a\\u0001\")");
  // A named pid never shares a thread with a numbered one.
  TraceEvents named;
  const auto problem =
      read_trace_text(R"([{"ph":"B","name":"k","pid":-1,"tid":1,"ts":1},{"ph":"E","pid":"k","tid":1,"ts":2}])", "n.json",
                      named);
  REQUIRE(problem);
  CHECK(problem->code == ErrorCode::unmatched_end);
}

TEST_CASE("trace errors: B without E, E without B") {
  const Error open = refused(R"([{"ph":"B","name":"k","pid":0,"tid":1,"ts":1}])");
  CHECK(open.code == ErrorCode::unmatched_begin);
  CHECK(open.index == 1);
  CHECK(refused(R"([{"ph":"E","pid":0,"tid":1,"ts":1}])").code == ErrorCode::unmatched_end);
}

TEST_CASE("trace errors: the schedule CSV names its line") {
  TraceEvents events;
  auto problem = read_trace_text("stage,microbatch,kind,start,end\n0,0,compute,1,2\n0,1,compute,5,4\n", "s.csv", events);
  REQUIRE(problem);
  CHECK(problem->code == ErrorCode::end_before_start);
  CHECK(problem->index == 2);
  CHECK(text::describe(*problem) == "s.csv, line 3: end is before start");
  problem = read_trace_text("stage,microbatch,kind,start,end\n0,0,load,1,2\n", "s.csv", events);
  CHECK(problem->code == ErrorCode::unknown_name);
  problem = read_trace_text("stage,microbatch,kind,start,end\n0,0,compute,x,2\n", "s.csv", events);
  CHECK(problem->code == ErrorCode::not_a_number);
  CHECK(problem->field == Field::start);
  problem = read_trace_text("stage,microbatch,kind,start,end\n0,0,compute,1\n", "s.csv", events);
  CHECK(problem->code == ErrorCode::wrong_length);
  // A time past the limit is quoted as typed, the limit in the file's unit.
  problem = read_trace_text("stage,microbatch,kind,start_s,end_s\n0,0,compute,1e12,2e12\n", "s.csv", events);
  REQUIRE(problem);
  CHECK(text::describe(*problem) == "s.csv, line 2: start must be at most 100,000,000,000 (got 1e12)");
  problem = read_trace_text("stage,microbatch,kind,start,end\n5000,0,compute,1,2\n", "s.csv", events);
  CHECK(text::describe(*problem) == "s.csv, line 2: stage must be between 0 and 4,095 (got 5000)");
  // Each number as typed, not as the double it reads as: 1000000000000 was "got 1e12", a microbatch of
  // 2^53 + 1 "got 9007199254740992", a stage of 1.50 "must be a whole number" with no value.
  problem = read_trace_text("stage,microbatch,kind,start_s,end_s\n0,0,compute,1000000000000,2e12\n", "s.csv", events);
  REQUIRE(problem);
  CHECK(text::describe(*problem) == "s.csv, line 2: start must be at most 100,000,000,000 (got 1000000000000)");
  CHECK(problem->typed == "1000000000000");
  problem = read_trace_text("stage,microbatch,kind,start,end\n0,9007199254740993,compute,1,2\n", "s.csv", events);
  REQUIRE(problem);
  CHECK(text::describe(*problem) == "s.csv, line 2: microbatch must be between 0 and 4,999,999 (got 9007199254740993)");
  problem = read_trace_text("stage,microbatch,kind,start,end\n1.50,0,compute,1,2\n", "s.csv", events);
  REQUIRE(problem);
  CHECK(text::describe(*problem) == "s.csv, line 2: stage must be a whole number (got 1.50)");
  problem = read_trace_text("stage,kind\n", "s.csv", events);
  CHECK(problem->code == ErrorCode::not_a_trace);
  CHECK(events.rows.empty());
}

TEST_CASE("trace CSV: CR, CRLF and LF line ends, a header in quotes, a byte-order mark") {
  const std::string rows[] = {"0,0,compute,1,2", "1,0,compute,3,5", "0,1,\"compute\",4,6"};
  for (const std::string& end : {"\n", "\r\n", "\r"}) {
    for (const std::string& header : {std::string("stage,microbatch,kind,start,end"),
                                      std::string(R"("stage","microbatch","kind","start","end")"),
                                      std::string(R"("stage", "microbatch", "kind", "start_ms", "end_ms")")}) {
      std::string text = header;
      for (const std::string& row : rows) text += end + row;
      TraceEvents events;
      // With a byte-order mark before a quoted header too (a spreadsheet's UTF-8 CSV).
      const auto problem = read_trace_text((end == "\r" ? "\xEF\xBB\xBF" : "") + text + end, "s.csv", events);
      INFO(header, " ", problem ? text::describe(*problem) : std::string());
      CHECK(!problem);
      REQUIRE(events.rows.size() == 3);
      const double unit = header.find("_ms") != std::string::npos ? 1000 : 1;
      CHECK(events.rows[1].stage == 1);
      CHECK(events.rows[1].end == 5 * unit);
      CHECK(events.rows[2].microbatch == 1);
    }
  }
}

TEST_CASE("trace CSV: every cell in double quotes (RFC 4180), a comma inside one its own") {
  TraceEvents events;
  auto problem = read_trace_text("stage,microbatch,kind,start,end\n\"0\",\"0\",\"compute\",\"1.5\",\"2.5\"\n", "s.csv",
                                 events);
  INFO((problem ? text::describe(*problem) : std::string()));
  REQUIRE(!problem);
  REQUIRE(events.rows.size() == 1);
  CHECK(events.rows[0].start == 1.5);
  CHECK(events.rows[0].end == 2.5);
  // A comma inside quotes is the cell's: a start of "1,5" is no number, not a row of six cells.
  TraceEvents bad;
  problem = read_trace_text("stage,microbatch,kind,start,end\n0,0,compute,\"1,5\",2\n", "s.csv", bad);
  REQUIRE(problem);
  CHECK(problem->code == ErrorCode::not_a_number);
  CHECK(problem->field == Field::start);
}

TEST_CASE("trace errors: a schedule CSV time too small to survive its units is named at its cell") {
  // 5e-320 us is > 0, but in seconds it is 0: it was "no stage time > 0", with no cell named.
  TraceEvents events;
  auto problem = read_trace_text("stage,microbatch,kind,start,end\n0,0,compute,0,5e-320\n", "s.csv", events);
  REQUIRE(problem);
  CHECK(problem->code == ErrorCode::too_small);
  CHECK(problem->field == Field::end);
  CHECK(problem->index == 1);
  CHECK(problem->typed == "5e-320");
  CHECK(problem->limit == limits::kMinTraceTime);
  CHECK(text::describe(*problem) ==
        "s.csv, line 2: end must be 0 or at least 1e-300 (got 5e-320): a smaller time is lost when converted between "
        "time units");
  // The limit in the header's unit; 0 and the limit itself are read.
  problem = read_trace_text("stage,microbatch,kind,start_s,end_s\n0,0,compute,-1e-307,1\n", "s.csv", events);
  REQUIRE(problem);
  CHECK(problem->field == Field::start);
  CHECK(problem->limit == limits::kMinTraceTime / 1e6);
  CHECK(problem->typed == "-1e-307");
  CHECK(!read_trace_text("stage,microbatch,kind,start,end\n0,0,compute,-0,1e-300\n", "s.csv", events));
}

TEST_CASE("trace errors: a trace JSON's ts or dur too small to survive its units is named at its byte, as in the CSV") {
  // dur 5e-320 us was read, and shown as 8.893181625e-323 ms, a subnormal of lost digits.
  TraceEvents events;
  auto problem = read_trace_text(R"([{"ph":"X","name":"k","pid":0,"tid":1,"ts":0,"dur":5e-320}])", "t.json", events);
  REQUIRE(problem);
  CHECK(problem->code == ErrorCode::too_small);
  CHECK(problem->field == Field::dur);
  CHECK(problem->limit == limits::kMinTraceTime);
  CHECK(problem->value == 5e-320);
  CHECK(text::describe(*problem) ==
        "t.json, byte 51: dur must be 0 or at least 1e-300 (got 5e-320): a smaller time is lost when converted between "
        "time units");
  problem = read_trace_text(R"([{"ph":"B","name":"k","pid":0,"tid":1,"ts":-2e-301}])", "t.json", events);
  REQUIRE(problem);
  CHECK(problem->code == ErrorCode::too_small);
  CHECK(problem->field == Field::ts);
  CHECK(problem->value == -2e-301);
  // 0, -0 and the limit itself are read.
  TraceEvents good;
  CHECK(!read_trace_text(R"([{"ph":"X","name":"k","pid":0,"tid":1,"ts":-0,"dur":1e-300}])", "t.json", good));
  // Past the double range below (1e-400 reads as 0): the same error, quoted as typed; it was read as 0.
  problem = read_trace_text(R"([{"ph":"X","name":"k","pid":0,"tid":1,"ts":0,"dur":1e-400}])", "t.json", events);
  REQUIRE(problem);
  CHECK(problem->code == ErrorCode::too_small);
  CHECK(problem->field == Field::dur);
  CHECK(problem->typed == "1e-400");
  CHECK(problem->limit == limits::kMinTraceTime);
  CHECK(text::describe(*problem) ==
        "t.json, byte 51: dur must be 0 or at least 1e-300 (got 1e-400): a smaller time is lost when converted between "
        "time units");
  problem = read_trace_text(R"([{"ph":"B","name":"k","pid":0,"tid":1,"ts":-0.1e-399}])", "t.json", events);
  REQUIRE(problem);
  CHECK(problem->code == ErrorCode::too_small);
  CHECK(problem->field == Field::ts);
  CHECK(problem->typed == "-0.1e-399");
  // 0 typed with an exponent is 0.
  CHECK(!read_trace_text(R"([{"ph":"X","name":"k","pid":0,"tid":1,"ts":0e-400,"dur":0.0e-999}])", "t.json", good));
  // A whole number (tid) of 1e-400 is no whole number, as 0.5 is not; it was tid 0.
  problem = read_trace_text(R"([{"ph":"X","name":"k","pid":0,"tid":1e-400,"ts":0,"dur":1}])", "t.json", events);
  REQUIRE(problem);
  CHECK(problem->code == ErrorCode::not_integer);
  CHECK(problem->field == Field::tid);
  CHECK(text::describe(*problem) == "t.json, byte 36: tid must be a whole number (got 1e-400)");
}

TEST_CASE("trace errors: a key the reader reads, given twice in its object, is refused at the second") {
  // The last "ts" was kept, as the plan reader and the GGUF reader no longer do.
  TraceEvents events;
  auto problem = read_trace_text(R"([{"ph":"X","name":"k","pid":0,"tid":1,"ts":1,"ts":5,"dur":1}])", "t.json", events);
  REQUIRE(problem);
  CHECK(problem->code == ErrorCode::duplicate_key);
  CHECK(problem->field == Field::ts);
  CHECK(problem->typed == "ts");
  CHECK(text::describe(*problem) ==
        "t.json, byte 50: key 'ts' is given a second time in its object (which of its values holds is not defined)");
  for (const char* twice : {R"({"traceEvents":[],"traceEvents":[]})",
                            R"({"traceEvents":[],"distributedInfo":{"rank":0,"rank":1}})",
                            R"({"traceEvents":[],"baseTimeNanoseconds":1,"baseTimeNanoseconds":1})",
                            R"([{"ph":"X","ph":"B","name":"k","ts":1,"dur":1}])",
                            R"([{"ph":"X","name":"k","ts":1,"dur":1,"args":{},"args":{}}])"}) {
    CAPTURE(twice);
    TraceEvents t;
    problem = read_trace_text(twice, "t.json", t);
    REQUIRE(problem);
    CHECK(problem->code == ErrorCode::duplicate_key);
  }
  // A key the reader skips may come twice, as any other it does not read.
  TraceEvents skipped;
  CHECK(!read_trace_text(R"([{"ph":"X","name":"k","pid":0,"tid":1,"ts":1,"dur":1,"id":1,"id":2}])", "t.json", skipped));
}

TEST_CASE("trace errors: a phase is one character; a longer ph is skipped as an unknown phase is") {
  // "XB" was read as an X event.
  TraceEvents events;
  REQUIRE(!read_trace_text(R"([{"ph":"XB","name":"k","pid":0,"tid":1,"ts":1,"dur":1},)"
                           R"({"ph":"X","name":"k","pid":0,"tid":1,"ts":3,"dur":1}])",
                           "t.json", events));
  REQUIRE(events.events.size() == 1);
  CHECK(events.events[0].start == 3);
}

TEST_CASE("trace errors: an X event that ends past the time limit names the longest dur its ts allows") {
  // It said "dur must be at most 1e17 (got 1e17)" of a dur within 1e17 alone.
  const Error e = refused(R"([{"ph":"X","name":"k","pid":0,"tid":1,"ts":1e16,"dur":1e17}])");
  CHECK(e.code == ErrorCode::too_large);
  CHECK(e.field == Field::dur);
  CHECK(e.value == 1e17);
  CHECK(e.limit == 9e16);
  CHECK(text::describe(e) == "bad.json, byte 54: dur must be at most 9e16 (got 1e17)");
}

TEST_CASE("trace errors: two files of one rank") {
  const std::string file = R"({"distributedInfo":{"rank":3},"traceEvents":[]})";
  TraceEvents events;
  REQUIRE(!read_trace_text(file, "a.json", events));
  const auto problem = read_trace_text(file, "b.json", events);
  REQUIRE(problem);
  CHECK(problem->code == ErrorCode::duplicate_rank);
  CHECK(problem->index == 27);
  CHECK(text::describe(*problem) == "b.json, byte 27: rank 3 is already in another file");
  CHECK(events.files.size() == 1);
}

TEST_CASE("trace errors: each option's pattern is checked, and named by its option") {
  // The dialect itself is tested in pattern_test.cpp.
  TraceEvents events;
  for (auto [field, member] : {std::pair{Field::compute_regex, &TraceOptions::compute_regex},
                               std::pair{Field::transfer_regex, &TraceOptions::transfer_regex},
                               std::pair{Field::microbatch_regex, &TraceOptions::microbatch_regex}}) {
    TraceOptions options;
    options.*member = "ok|(?=lookahead)";
    const auto result = recover_model(events, options);
    REQUIRE(!result.ok());
    CHECK(result.error().code == ErrorCode::bad_pattern);
    CHECK(result.error().field == field);
    CHECK(result.error().index == 3);
    CHECK(result.error().value == kPatternLookaround);
    CHECK(result.error().token == "ok|(?=lookahead)");
    options.*member = "microbatch_(\\d+)";
    CHECK(recover_model(events, options).ok());
  }
}

namespace {

// A CPU trace of `count` X events on one thread, named by `name_of`.
template <class NameOf>
TraceEvents cpu_events(int count, NameOf name_of) {
  std::string text = R"({"traceEvents":[)";
  for (int i = 0; i < count; ++i) {
    if (i > 0) text += ',';
    text += R"({"ph":"X","name":")" + name_of(i) + R"(","pid":0,"tid":1,"ts":)" + std::to_string(10 * i) +
            R"(,"dur":5})";
  }
  text += "]}";
  TraceEvents events;
  REQUIRE(!read_trace_text(text, "names.json", events).has_value());
  return events;
}

}  // namespace

TEST_CASE("trace errors: a pattern that keeps many states alive over long distinct names stops at its work limit") {
  // 1,000 distinct names of 4 KiB, and a pattern whose every alternative stays alive over every letter.
  const TraceEvents events = cpu_events(1000, [](int i) { return std::to_string(i) + std::string(4090, 'a'); });
  std::string pattern = "(";
  for (int k = 0; k < 60; ++k) pattern += (k > 0 ? "|" : "") + std::string("[a-z]*");
  pattern += ")*z";
  TraceOptions options;
  options.compute_regex = pattern;
  const auto result = recover_model(events, options);
  REQUIRE(!result.ok());
  const Error& e = result.error();
  CHECK(e.code == ErrorCode::bad_pattern);
  CHECK(e.field == Field::compute_regex);
  CHECK(e.index == kWholeField);
  CHECK(e.value == kPatternTooSlow);
  CHECK(e.limit == limits::kMaxPatternWork);
  CHECK(e.token == pattern);
  CHECK(text::describe(e) == "compute_regex: '" + pattern.substr(0, 80) + "\xE2\x80\xA6' took more than 300,000,000 "
                             "steps to match the trace's event names (anchor it with ^ or begin it with fixed letters)");
  // Anchored, the same pattern fails at the first byte of each name: the import goes on.
  options.compute_regex = "^" + pattern;
  CHECK(recover_model(events, options).ok());
}

TEST_CASE("trace: a micro-batch range's long name repeated in every range is matched once") {
  // 2,000 ranges of one 4 KiB name; 100 repeats alive over its letters: matched per range, the
  // pattern would pass its work limit many times over.
  const TraceEvents events = cpu_events(2000, [](int) { return "microbatch_7" + std::string(4084, 'a'); });
  TraceOptions options;
  options.microbatch_regex = "microbatch_([0-9]+)";
  for (int k = 0; k < 100; ++k) options.microbatch_regex += "[a-z]*";
  const auto result = recover_model(events, options);
  REQUIRE_MESSAGE(result.ok(), text::describe(result.error()));
  CHECK_FALSE(result.value().pipeline);
}

TEST_CASE("utf16: every text reader names UTF-16 text (FF FE or FE FF) by one code, its sentence once") {
  // It was not_json at byte 0, not_a_trace, and '\u00ff\u00fe1\u0000' is not a number: nothing said UTF-16.
  const std::string le = std::string("\xFF\xFE", 2) + std::string("{\0\"\0", 4);
  const std::string be = std::string("\xFE\xFF", 2) + std::string("\0{\0\"", 4);
  const std::string sentence =
      "the text is UTF-16 (it starts with a UTF-16 byte-order mark); save it as UTF-8, which every reader takes";
  for (const std::string& text : {le, be}) {
    TraceEvents events;
    auto problem = read_trace_text(text, "t.json", events);
    REQUIRE(problem);
    CHECK(problem->code == ErrorCode::utf16_text);
    CHECK(problem->value == static_cast<unsigned char>(text[0]));
    CHECK(text::describe(*problem) == "t.json, byte 0: " + sentence);
    CHECK(read_chrome_trace(text, "t.json", events)->code == ErrorCode::utf16_text);
    CHECK(read_schedule_csv(text, "s.csv", events)->code == ErrorCode::utf16_text);
    const auto plan = read_plan_json(text);
    REQUIRE(plan.errors.size() == 1);
    CHECK(text::describe(plan.errors[0]) == "input: " + sentence);
    const auto calibration = read_calibration_json(text, 0);
    REQUIRE(calibration.errors.size() == 1);
    CHECK(text::describe(calibration.errors[0]) == "calibration: " + sentence);
    const auto matrix = sim::parse_rows(text, Field::service_matrix);
    CHECK(text::describe(matrix.error()) == "service_matrix: " + sentence);
    CHECK(sim::parse_table(text, Field::link_matrix, 2, limits::kMaxSimCells).error().code == ErrorCode::utf16_text);
  }
}

TEST_CASE("utf32: every text reader names UTF-32 text (FF FE 00 00 or 00 00 FE FF) by its own code, not as UTF-16") {
  // FF FE 00 00 starts with UTF-16's FF FE: it was utf16_text, "the text is UTF-16".
  const std::string le = std::string("\xFF\xFE\0\0", 4) + std::string("{\0\0\0", 4);
  const std::string be = std::string("\0\0\xFE\xFF", 4) + std::string("\0\0\0{", 4);
  const std::string sentence =
      "the text is UTF-32 (it starts with a UTF-32 byte-order mark); save it as UTF-8, which every reader takes";
  for (const auto& [text, first] : {std::pair{le, 255.0}, std::pair{be, 0.0}}) {
    TraceEvents events;
    auto problem = read_trace_text(text, "t.json", events);
    REQUIRE(problem);
    CHECK(problem->code == ErrorCode::utf32_text);
    CHECK(error_code_name(problem->code) == "utf32_text");
    CHECK(problem->value == first);
    CHECK(problem->index == 0);
    CHECK(problem->token == "t.json");
    CHECK(text::describe(*problem) == "t.json, byte 0: " + sentence);
    CHECK(read_chrome_trace(text, "t.json", events)->code == ErrorCode::utf32_text);
    CHECK(read_schedule_csv(text, "s.csv", events)->code == ErrorCode::utf32_text);
    const auto plan = read_plan_json(text);
    REQUIRE(plan.errors.size() == 1);
    CHECK(plan.errors[0].code == ErrorCode::utf32_text);
    CHECK(text::describe(plan.errors[0]) == "input: " + sentence);
    const auto calibration = read_calibration_json(text, 0);
    REQUIRE(calibration.errors.size() == 1);
    CHECK(text::describe(calibration.errors[0]) == "calibration: " + sentence);
    const auto matrix = sim::parse_rows(text, Field::service_matrix);
    CHECK(matrix.error().code == ErrorCode::utf32_text);
    CHECK(matrix.error().value == first);
    CHECK(text::describe(matrix.error()) == "service_matrix: " + sentence);
    CHECK(sim::parse_table(text, Field::link_matrix, 2, limits::kMaxSimCells).error().code == ErrorCode::utf32_text);
  }
  // A UTF-16 mark followed by anything but two zero bytes stays UTF-16.
  TraceEvents events;
  const std::string utf16 = std::string("\xFF\xFE", 2) + std::string("{\0", 2);
  CHECK(read_trace_text(utf16, "t.json", events)->code == ErrorCode::utf16_text);
}

TEST_CASE("trace errors: one timed event past max_trace_events is too_many, at that event") {
  const auto limit = static_cast<std::size_t>(limits::kMaxTraceEvents);
  // The shortest texts an event can have, so that the limit, not the bytes', is what refuses them.
  SUBCASE("schedule CSV rows") {
    const std::string row = "0,0,compute,0,0\n";
    std::string text = "stage,microbatch,kind,start,end\n";
    text.reserve(text.size() + (limit + 1) * row.size());
    for (std::size_t i = 0; i < limit; ++i) text += row;
    TraceEvents events;
    CHECK(!read_trace_text(text, "s.csv", events));
    CHECK(events.rows.size() == limit);
    text += row;
    TraceEvents more;
    auto problem = read_trace_text(text, "s.csv", more);
    REQUIRE(problem);
    CHECK(problem->code == ErrorCode::too_many);
    CHECK(problem->field == Field::stage);
    CHECK(problem->index == static_cast<std::int64_t>(limit) + 1);  // 0-based: the header is line 0
    CHECK(problem->limit == limits::kMaxTraceEvents);
    CHECK(text::describe(*problem) == "s.csv, line " + std::to_string(limit + 2) +
                                          ": more than " + text::grouped(limits::kMaxTraceEvents) + " timed events");
  }
  SUBCASE("trace JSON events") {
    const std::string event = R"({"ph":"X","name":"a","ts":0,"dur":0})";
    std::string text = "[";
    text.reserve((limit + 1) * (event.size() + 1) + 1);
    for (std::size_t i = 0; i <= limit; ++i) text += event + ',';
    text.back() = ']';
    TraceEvents events;
    auto problem = read_trace_text(text, "t.json", events);
    REQUIRE(problem);
    CHECK(problem->code == ErrorCode::too_many);
    CHECK(problem->field == Field::traceEvents);
    CHECK(problem->index == static_cast<std::int64_t>(1 + limit * (event.size() + 1)));  // the byte of the one past
    CHECK(problem->limit == limits::kMaxTraceEvents);
    CHECK(text::describe(*problem) == "t.json, byte " + std::to_string(problem->index) +
                                          ": more than " + text::grouped(limits::kMaxTraceEvents) + " timed events");
  }
}

TEST_CASE("trace directory: its trace files by name, a run's own JSON record left out, all else refused") {
  // As a shell lists DIR/*.json*: sorted by bytes, dot-files and other names left out.
  CHECK(trace_directory_files({"rank-2.json", ".json", ".a.json", "b.json.gz", "x.json.tmp", "X.JSON", "rank-10.json",
                               "a.json"}) == std::vector<std::string>{"a.json", "b.json.gz", "rank-10.json", "rank-2.json"});
  TraceEvents events;
  auto read = read_directory_trace_text("[" + kEvent + "]", "a.json", events);
  REQUIRE(read);
  CHECK(read.value());
  CHECK(events.events.size() == 1);
  // An object with no traceEvents is no trace: nothing added.
  read = read_directory_trace_text(R"({"M": 8, "clock_offsets_us": [0, 12.5]})", "run.json", events);
  REQUIRE(read);
  CHECK(!read.value());
  CHECK(events.events.size() == 1);
  CHECK(events.files.size() == 1);
  // But one followed by other bytes is no JSON, and refused, as is any other fault.
  for (const std::string& text : {std::string(R"({"M": 8} x)"), std::string(R"({"M": )"), std::string("[1]")}) {
    read = read_directory_trace_text(text, "bad.json", events);
    REQUIRE(!read);
    CHECK(read.error().token == "bad.json");
    CHECK(events.events.size() == 1);
  }
  const Error none = no_trace_files("out");
  CHECK(none.code == ErrorCode::empty);
  CHECK(none.field == Field::trace);
  CHECK(none.index == kWholeField);
  CHECK(text::describe(none) ==
        "out: the directory holds no trace file (a name ending in .json or .json.gz whose JSON is a list of events "
        "or an object with traceEvents)");
}

TEST_CASE("trace errors: times above 0 but below a model's least stage time are no model, and the reason says so") {
  // Each time is read (above the reader's 1e-300 us), but every stage's is far
  // below kMinStageTime: the reason said "no stage time > 0" of times above 0.
  TraceEvents events;
  REQUIRE(!read_trace_text("stage,microbatch,kind,start,end\n0,0,compute,0,1e-290\n0,0,transfer,1e-290,2e-290\n"
                           "1,0,compute,2e-290,3e-290\n",
                           "tiny.csv", events));
  TraceOptions options;
  options.unit = TimeUnit::us;
  auto result = recover_model(events, options);
  REQUIRE(result.ok());
  REQUIRE(result.value().reason);
  CHECK(*result.value().reason == NotPipeline::model_rejected);
  CHECK(text::describe(*result.value().reason) ==
        "the recovered times do not form a valid model (no stage time of at least 1e-15 in the result's unit, or "
        "T_real not above 0)");
}

TEST_CASE("trace errors: no rank at all is one_rank's fewer than two, not 'only one'") {
  for (const std::string text : {std::string("stage,microbatch,kind,start,end\n"), std::string(R"({"traceEvents": []})")}) {
    TraceEvents events;
    REQUIRE(!read_trace_text(text, "empty", events));
    auto result = recover_model(events, TraceOptions{});
    REQUIRE(result.ok());
    CHECK(result.value().ranks.empty());
    REQUIRE(result.value().reason);
    CHECK(*result.value().reason == NotPipeline::one_rank);
    CHECK(text::describe(*result.value().reason) == "fewer than two ranks were found, so there is no chain of stages");
  }
}
