// The planner's JSON input through the core's JSON cursor: the text is read
// twice, once to know that it is JSON and which form it is (a "model" key may
// come last), then to read each key, so that every bad key is reported and
// nothing waits for a tree of the whole document.
#include "heteropipe/plan/read_json.hpp"

#include <algorithm>
#include <bitset>
#include <cmath>
#include <cstdint>
#include <iterator>
#include <limits>
#include <string>
#include <variant>

#include "../json_cursor.hpp"
#include "heteropipe/limits.hpp"
#include "heteropipe/parse.hpp"
#include "heteropipe/plan/calibration.hpp"
#include "heteropipe/plan/plan.hpp"
#include "key_suggestion.hpp"

namespace heteropipe {
namespace {

using json_detail::JsonCursor;
using json_detail::JsonType;

// Nothing here recurses, so the reader needs no depth limit of its own.
constexpr std::int64_t kNoDepthLimit = std::numeric_limits<std::int64_t>::max();

using plan_detail::Key;
using plan_detail::Keys;

// Each object's keys, in each form. A key of the other form is told apart
// from a typo: it says which form the input is.
constexpr Key kExplicitTop[] = {{"devices", Field::devices},     {"layer_memory", Field::layer_memory},
                                {"links", Field::links},         {"cut_bytes", Field::cut_bytes},
                                {"M", Field::M},                 {"objective", Field::objective},
                                {"order", Field::order},         {"allow_idle_devices", Field::allow_idle_devices}};
constexpr Key kEstimateTop[] = {{"model", Field::model},   {"quant", Field::quant}, {"gguf", Field::gguf},
                                {"devices", Field::devices}, {"links", Field::links},
                                {"phase", Field::phase},   {"tokens", Field::tokens},
                                {"context", Field::context}, {"M", Field::M},
                                {"objective", Field::objective}, {"order", Field::order},
                                {"allow_idle_devices", Field::allow_idle_devices},
                                {"calibration", Field::calibration}};
constexpr Key kExplicitOnlyTop[] = {{"layer_memory", Field::layer_memory}, {"cut_bytes", Field::cut_bytes}};
constexpr Key kEstimateOnlyTop[] = {{"model", Field::model}, {"quant", Field::quant}, {"gguf", Field::gguf},
                                    {"phase", Field::phase},
                                    {"tokens", Field::tokens}, {"context", Field::context},
                                    {"calibration", Field::calibration}};
constexpr Key kExplicitDevice[] = {{"layer_times", Field::layer_times}, {"memory_capacity", Field::memory_capacity}};
constexpr Key kEstimateDevice[] = {{"id", Field::id},
                                   {"name", Field::name},
                                   {"memory", Field::memory},
                                   {"memory_bandwidth", Field::memory_bandwidth},
                                   {"fp16_flops", Field::fp16_flops},
                                   {"device_class", Field::device_class},
                                   {"layer_time", Field::layer_time},
                                   {"avg_ts", Field::avg_ts}};
// The "model" object: what model_info returns (heteropipe/plan/gguf.hpp).
constexpr Key kModelInfo[] = {{"architecture", Field::architecture},
                              {"name", Field::name},
                              {"layers", Field::layers},
                              {"nextn_predict_layers", Field::nextn_predict_layers},
                              {"n_embd", Field::n_embd},
                              {"n_head", Field::n_head},
                              {"n_head_kv", Field::n_head_kv},
                              {"context_length", Field::context_length},
                              {"expert_count", Field::expert_count},
                              {"expert_used_count", Field::expert_used_count},
                              {"key_length", Field::key_length},
                              {"value_length", Field::value_length},
                              {"feed_forward_length", Field::feed_forward_length},
                              {"vocab_size", Field::vocab_size},
                              {"sliding_window", Field::sliding_window},
                              {"sliding_layers", Field::sliding_layers},
                              {"attention_layers", Field::attention_layers},
                              {"kv_layers", Field::kv_layers},
                              {"recurrent_layers", Field::recurrent_layers},
                              {"layer_bytes", Field::layer_bytes},
                              {"active_layer_bytes", Field::active_layer_bytes},
                              {"active_layer_params", Field::active_layer_params},
                              {"embedding_bytes", Field::embedding_bytes},
                              {"output_bytes", Field::output_bytes},
                              {"kv_bytes_per_token", Field::kv_bytes_per_token},
                              {"recurrent_bytes_per_sequence", Field::recurrent_bytes_per_sequence}};
// The facts the estimator uses, which a "model" object must give.
constexpr Field kModelInfoNeeds[] = {Field::layers,           Field::n_embd,          Field::vocab_size,
                                     Field::layer_bytes,      Field::active_layer_bytes, Field::active_layer_params,
                                     Field::embedding_bytes,  Field::output_bytes,    Field::kv_bytes_per_token};
// A llama-bench record's keys that calibration uses; it ignores the others.
// Its avg_ts is field calibration (avg_ts is a device's key).
constexpr Key kBenchRecord[] = {{"gpu_info", Field::gpu_info},     {"device", Field::device},
                                {"model_size", Field::model_size}, {"model_n_params", Field::model_n_params},
                                {"n_prompt", Field::n_prompt},     {"n_gen", Field::n_gen},
                                {"avg_ts", Field::calibration}};
constexpr Key kExplicitLink[] = {{"latency", Field::latency}, {"bandwidth", Field::bandwidth}};
constexpr Key kEstimateLink[] = {{"id", Field::id}, {"latency", Field::latency}, {"bandwidth", Field::bandwidth}};
constexpr Key kEstimateOnlyLink[] = {{"id", Field::id}};

constexpr QuantityUnit kMemoryUnits[] = {{"TiB", 1099511627776.0}, {"GiB", 1073741824.0}, {"MiB", 1048576.0},
                                         {"TB", 1e12},             {"GB", 1e9},            {"MB", 1e6},
                                         {"B", 1.0}};
constexpr QuantityUnit kBandwidthUnits[] = {{"TB/s", 1e12}, {"GB/s", 1e9}, {"MB/s", 1e6}, {"GiB/s", 1073741824.0},
                                            {"B/s", 1.0}};
// FP16 rates as datasheets give them (165 TFLOP/s, 165 TFLOPS).
constexpr QuantityUnit kFlopsUnits[] = {{"PFLOP/s", 1e15}, {"TFLOP/s", 1e12}, {"GFLOP/s", 1e9}, {"FLOP/s", 1.0},
                                        {"PFLOPS", 1e15},  {"TFLOPS", 1e12},  {"GFLOPS", 1e9},  {"FLOPS", 1.0}};

bool is_ascii_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

// Whether a text starts as a number does: an ASCII digit, a sign, a point, or a full-width digit
// (U+FF10-U+FF19, EF BC 90-99 in UTF-8).
bool starts_as_number(std::string_view text) {
  if (text.empty()) return false;
  const char c = text.front();
  if ((c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.') return true;
  return text.size() >= 3 && static_cast<unsigned char>(text[0]) == 0xEF &&
         static_cast<unsigned char>(text[1]) == 0xBC && static_cast<unsigned char>(text[2]) >= 0x90 &&
         static_cast<unsigned char>(text[2]) <= 0x99;
}

// The cursor and every problem found so far. Each read_* consumes exactly
// one value, whether it is good or not, so reading goes on after a problem.
class Reader {
 public:
  explicit Reader(std::string_view text) : c_(text, "", Field::input, kNoDepthLimit) {}

  std::vector<Error> errors;
  // Numbers a value check may refuse (below 0, above kMaxValue) as typed, so
  // that its error quotes 2e15 and not 2e+15.
  struct Typed {
    Field field;
    std::int64_t index;
    double value;
    std::string text;
    bool stand_in = false;  // value is number()'s stand-in for a number past the double range
  };
  std::vector<Typed> typed;

  // Errors past kMaxInputErrors are dropped; full() lets a caller skip the
  // work of making one.
  bool full() const { return errors.size() >= limits::kMaxInputErrors; }
  void add(Error e) {
    if (!full()) errors.push_back(std::move(e));
  }

  // A device's speed (avg_ts, layer_time, memory_bandwidth, fp16_flops) and
  // a record's avg_ts may be refused inside [0, kMaxValue], by the bound the
  // model's work sets (too fast or too slow to plan), so they are kept as
  // typed too: one per device or record, and only as many as the limits
  // allow (more are refused by count), so a long list keeps no copy.
  static bool bounded_by_others(Field field, std::int64_t index) {
    switch (field) {
      case Field::avg_ts: case Field::layer_time: case Field::memory_bandwidth: case Field::fp16_flops:
        return index < limits::kMaxPlanDevices;
      case Field::calibration: return index < limits::kMaxCalibrationRecords;
      default: return false;
    }
  }

  bool at_object() { return c_.peek() == JsonType::object; }
  std::size_t offset() { c_.peek(); return c_.offset(); }
  bool at_string() { return c_.peek() == JsonType::string; }

  void wrong_type(Field field, std::int64_t index) {
    c_.peek();  // past blanks, to where the value starts
    const std::size_t begin = c_.offset();
    c_.skip_value();
    add(Error{ErrorCode::wrong_type, field, index, 0.0, quoted(c_.text_from(begin))});
  }

  void skip() { c_.skip_value(); }

  // A number by `parse` (the core's rules for numbers or for counts); JSON has
  // no NaN or infinity, so the words JavaScript and Python write for them
  // stand for them and reach the checks, which refuse them by name.
  template <class Parse>
  bool number_by(Field field, std::int64_t index, double& out, Parse parse) {
    const JsonType type = c_.peek();
    if (type == JsonType::number) {
      std::string_view token;
      c_.read_number_text(token, field);
      auto x = parse(token);
      if (!x) {
        Error e = x.error();
        e.index = index;
        add(std::move(e));
        return false;
      }
      out = x.value();
      if (out < 0 || out > limits::kMaxValue || bounded_by_others(field, index)) {
        typed.push_back(Typed{field, index, out, std::string(token), stand_in_});
      }
      stand_in_ = false;
      return true;
    }
    if (type == JsonType::string) {
      const std::size_t begin = c_.offset();
      std::string word;
      c_.read_string(word);
      if (non_finite(field, index, word, begin, out)) return true;
      add(Error{ErrorCode::wrong_type, field, index, 0.0, quoted(c_.text_from(begin))});
      return false;
    }
    wrong_type(field, index);
    return false;
  }

  // The word JavaScript or Python writes for NaN or an infinity (read from the string at `begin`),
  // as its value, for the checks to refuse by name; false for any other word.
  bool non_finite(Field field, std::int64_t index, const std::string& word, std::size_t begin, double& out) {
    if (word == "NaN") out = std::numeric_limits<double>::quiet_NaN();
    else if (word == "Infinity") out = std::numeric_limits<double>::infinity();
    else if (word == "-Infinity") out = -std::numeric_limits<double>::infinity();
    else return false;
    // The check's not_finite quotes "NaN" as typed, quotes and all, not the number's nan.
    typed.push_back(Typed{field, index, out, std::string(c_.text_from(begin))});
    return true;
  }

  // A number past the double range (-1e400, 1e400, or "1e300 TiB" in
  // bytes) is read as a stand-in that its field's check refuses as it
  // refuses any number that far out, quoted as typed: refused while reading,
  // it was reported ahead of every check's error ("latency: -1e400" before
  // "M", where -1 came after it), and "1e300 TiB" was "not finite" where
  // "1e10 TiB" is "at most 1e15". A device's bandwidth and FP16 rate have no
  // bound above, so theirs is infinity, which a binding's 1e400 is too.
  static double stand_in(Field field, bool negative) {
    if (negative) return -2 * limits::kMaxValue;
    if (field == Field::memory_bandwidth || field == Field::fp16_flops) return std::numeric_limits<double>::infinity();
    return 2 * limits::kMaxValue;
  }
  static bool past_range(const Error& e) {
    return e.code == ErrorCode::too_large || e.code == ErrorCode::negative || e.code == ErrorCode::not_positive ||
           e.code == ErrorCode::out_of_range;
  }
  bool number(Field field, std::int64_t index, double& out) {
    return number_by(field, index, out, [this, field](std::string_view token) -> Result<double> {
      auto x = parse_number(token, field);
      if (x || !past_range(x.error())) return x;  // a JSON number is past the range or read
      stand_in_ = true;
      return stand_in(field, x.error().code != ErrorCode::too_large);
    });
  }

  // A whole number in [low, high], judged from its digits as the calculator's counts are.
  bool count(Field field, double low, double high, double& out) {
    return number_by(field, kWholeField, out,
                     [=](std::string_view token) { return parse_count(token, field, low, high); });
  }

  // The same, or its text ("4096", "１e3", as a form's field holds it), read
  // by the same rules: the page's planner sends context, tokens and M so, and
  // an empty text is "is empty", "abc" no number, "-1e400" out of range, as
  // the calculator's fields say (the page judged them by T_real's rules:
  // "context: must be > 0 (got -1e400)", "1e400" "at most 1e15").
  bool count_or_text(Field field, double low, double high, double& out) {
    if (!at_string()) return count(field, low, high, out);
    const std::size_t begin = c_.offset();
    std::string word;
    c_.read_string(word);
    if (non_finite(field, kWholeField, word, begin, out)) return true;
    auto x = parse_count(word, field, low, high);
    if (!x) {
      add(x.error());
      return false;
    }
    out = x.value();
    return true;
  }

  bool optional_number(Field field, std::int64_t index, std::optional<double>& out) {
    double x = 0;
    if (!number(field, index, x)) return false;
    out = x;
    return true;
  }

  // A number, or text of a number and one of `units` ("24 GiB", "1008 GB/s"),
  // which the value is in: people type a device's facts so. Its errors quote
  // the text as typed, unit and all.
  bool optional_quantity(Field field, std::int64_t index, std::optional<double>& out) {
    if (!at_string()) return optional_number(field, index, out);
    const std::size_t begin = c_.offset();
    std::string word;
    c_.read_string(word);
    // NaN or an infinity as a binding writes it is a number, refused by the checks as one.
    double special = 0;
    if (non_finite(field, index, word, begin, special)) {
      out = special;
      return true;
    }
    const std::string_view typed = trim_blanks(word);
    for (const QuantityUnit& u : quantity_units(field)) {
      const std::string_view unit = u.name;
      if (typed.size() < unit.size() || typed.substr(typed.size() - unit.size()) != unit) continue;
      const std::string_view number = typed.substr(0, typed.size() - unit.size());
      // A longer unit that ends in this one ("24 kB", "24 KiB", "1 KB/s") is none of them.
      if (!number.empty() && is_ascii_letter(number.back())) continue;
      auto x = parse_number(number, field);
      if (!x && !past_range(x.error())) {
        Error e = x.error();
        e.index = index;
        add(std::move(e));
        return false;
      }
      out = x ? x.value() * u.scale : 0.0;
      const bool past = !x || !std::isfinite(*out);
      if (past) out = stand_in(field, x ? x.value() < 0 : x.error().code != ErrorCode::too_large);
      this->typed.push_back(Typed{field, index, *out, std::string(typed), past});
      return true;
    }
    if (typed.empty()) {
      add(Error{ErrorCode::empty, field, index, 0.0, {}});
    } else if (starts_as_number(typed)) {  // a number in a unit not read ("24 kg")
      add(Error{ErrorCode::unknown_unit, field, index, 0.0, std::string(typed)});
    } else {  // no quantity at all ("fast", or a Python object's str())
      add(Error{ErrorCode::wrong_type, field, index, 0.0, quoted(c_.text_from(begin))});
    }
    return false;
  }

  bool text(Field field, std::int64_t index, std::string& out) {
    if (c_.peek() == JsonType::string) return c_.read_string(out);
    wrong_type(field, index);
    return false;
  }

  bool flag(Field field, bool& out) {
    if (c_.peek() != JsonType::boolean) {
      wrong_type(field, kWholeField);
      return false;
    }
    const std::size_t begin = c_.offset();
    c_.skip_value();
    out = c_.text_from(begin) == "true";
    return true;
  }

  // A list of numbers. Its errors carry `owner` (a device) when the list
  // belongs to one, else the item; only its first bad item is reported.
  bool numbers(Field field, std::int64_t owner, std::vector<double>& out) {
    out.clear();
    if (c_.peek() != JsonType::array) {
      wrong_type(field, owner);
      return false;
    }
    c_.enter('[');
    bool ok = true;
    // A list's value check reports its first bad number only, so only the
    // first one's text is kept (a list of ten million may all be bad).
    const std::size_t typed_before = typed.size();
    for (std::int64_t k = 0; c_.next_item(); ++k) {
      double x = 0;
      if (ok) {
        ok = number(field, owner == kWholeField ? k : owner, x);
        if (typed.size() > typed_before + 1) typed.pop_back();
      } else {
        c_.skip_value();
      }
      out.push_back(x);
    }
    return ok;
  }

  // A list whose items read_item(k) reads, one value each, numbered from
  // `first`, and at most `most` of them in all: items past that are skipped
  // unread, so that a list far longer than any accepted keeps nothing in
  // memory, and the list is refused by its count.
  template <class ReadItem>
  void list(Field field, std::int64_t most, ReadItem read_item, std::int64_t first = 0) {
    if (c_.peek() != JsonType::array) {
      wrong_type(field, kWholeField);
      return;
    }
    c_.enter('[');
    std::int64_t k = first;
    for (; c_.next_item(); ++k) item_within(k, most, read_item);
    if (k > most) too_many(field, k, most);
  }

  // Item k of a list of at most `most`: read, or past the limit skipped unread.
  template <class ReadItem>
  void item_within(std::int64_t k, std::int64_t most, ReadItem& read_item) {
    if (k < most) {
      read_item(k);
    } else {
      c_.skip_value();
    }
  }

  // A list past its limit: said even when its items' errors filled the
  // report, as it is what the items' errors come second to.
  void too_many(Field field, std::int64_t count, std::int64_t most) {
    Error e{ErrorCode::too_many, field, kWholeField, static_cast<double>(count), {}, static_cast<double>(most)};
    if (full()) {
      errors.back() = std::move(e);
    } else {
      errors.push_back(std::move(e));
    }
  }

  // An object (where, index say where it sits) whose keys are `keys`, each
  // value read by on_key(field). A key of `other` (the other form's) goes to
  // on_other(field) and is skipped; any other key is unknown_key.
  // False when the value is no object (wrong_type).
  template <class OnKey, class OnOther>
  bool object(Field where, std::int64_t index, Keys keys, Keys other, OnKey on_key, OnOther on_other) {
    return keyed(where, index, keys, on_key, [&](const std::string& key) {
      if (const Key* foreign = plan_detail::find_key(other, key)) on_other(foreign->field);
      else if (!full()) add(plan_detail::unknown_key(key, where, index, keys));
    });
  }

  // An object whose keys outside `keys` are skipped unread: llama-bench adds
  // fields to its records over time (the one input that ignores unknown keys).
  template <class OnKey>
  bool open_object(Field where, std::int64_t index, Keys keys, OnKey on_key) {
    return keyed(where, index, keys, on_key, [](const std::string&) {});
  }

 private:
  // The key loop both kinds of object share: on_key(field) reads a key of
  // `keys`; any other key goes to on_other(key), and its value is skipped.
  template <class OnKey, class OnOther>
  bool keyed(Field where, std::int64_t index, Keys keys, OnKey& on_key, OnOther on_other) {
    if (c_.peek() != JsonType::object) {
      wrong_type(where, index);
      return false;
    }
    c_.enter('{');
    std::string key;
    // A key given twice in one object has no defined value (JSON leaves it
    // open; JSON.parse and Python keep the last): refused at the second, its
    // value skipped, so no interface plans on a value the user may not mean.
    std::bitset<kFieldCount> seen;
    while (c_.next_key(key)) {
      if (const Key* known = plan_detail::find_key(keys, key)) {
        const auto slot = static_cast<std::size_t>(known->field);
        if (seen[slot]) {
          add(Error{ErrorCode::duplicate_key, known->field, index, 0.0, key});
          c_.skip_value();
          continue;
        }
        seen[slot] = true;
        on_key(known->field);
      } else {
        on_other(key);
        c_.skip_value();
      }
    }
    return true;
  }

  static std::string quoted(std::string_view text) { return json_detail::quote_cut(text); }

  JsonCursor c_;
  bool stand_in_ = false;  // number() read a stand-in for the number being read
};

// The keys both forms share: M, objective, order, allow_idle_devices.
template <class Input>
void read_shared(Reader& r, Field field, Input& in) {
  switch (field) {
    case Field::M:
      r.count_or_text(Field::M, limits::kMinBatches, limits::kMaxBatches, in.M);
      return;
    case Field::objective:
    case Field::order: {
      std::string name;
      if (!r.text(field, kWholeField, name)) return;
      if (field == Field::objective) {
        auto o = objective_from_name(name);
        if (o) in.objective = o.value();
        else r.add(o.error());
      } else {
        auto o = device_order_from_name(name);
        if (o) in.order = o.value();
        else r.add(o.error());
      }
      return;
    }
    case Field::allow_idle_devices:
      r.flag(Field::allow_idle_devices, in.allow_idle_devices);
      return;
    default:
      r.skip();
  }
}

Error missing(Field field, std::int64_t index = kWholeField) {
  return Error{ErrorCode::missing_field, field, index, 0.0, {}};
}

void read_explicit(Reader& r, PlanInput& in) {
  bool devices = false, layer_memory = false, links = false, cuts = false, model_said = false;
  // A key of the estimate form: this input has no model, which that form needs.
  auto estimate_key = [&](Field) {
    if (!model_said) r.add(missing(Field::model));
    model_said = true;
  };
  r.object(Field::input, kWholeField, kExplicitTop, kEstimateOnlyTop, [&](Field field) {
    switch (field) {
      case Field::devices:
        devices = true;
        in.devices.clear();
        r.list(Field::devices, limits::kMaxPlanDevices, [&](std::int64_t s) {
          PlanDevice device;
          bool times = false, capacity = false;
          const bool object = r.object(Field::devices, s, kExplicitDevice, kEstimateDevice, [&](Field key) {
            if (key == Field::layer_times) {
              times = true;
              r.numbers(Field::layer_times, s, device.layer_times);
            } else {
              capacity = true;
              r.number(Field::memory_capacity, s, device.memory_capacity);
            }
          }, estimate_key);
          if (object && !times) r.add(missing(Field::layer_times, s));
          if (object && !capacity) r.add(missing(Field::memory_capacity, s));
          in.devices.push_back(std::move(device));
        });
        return;
      case Field::layer_memory:
        layer_memory = true;
        r.numbers(Field::layer_memory, kWholeField, in.layer_memory);
        return;
      case Field::links:
        links = true;
        in.links.clear();
        r.list(Field::links, limits::kMaxPlanDevices - 1, [&](std::int64_t i) {
          PlanLink link;
          bool latency = false, bandwidth = false;
          const bool object = r.object(Field::links, i, kExplicitLink, kEstimateOnlyLink, [&](Field key) {
            (key == Field::latency ? latency : bandwidth) = true;
            r.number(key, i, key == Field::latency ? link.latency : link.bandwidth);
          }, estimate_key);
          if (object && !latency) r.add(missing(Field::latency, i));
          if (object && !bandwidth) r.add(missing(Field::bandwidth, i));
          in.links.push_back(link);
        });
        return;
      case Field::cut_bytes:
        cuts = true;
        r.numbers(Field::cut_bytes, kWholeField, in.cut_bytes);
        return;
      default:
        read_shared(r, field, in);
    }
  }, estimate_key);
  if (!devices) r.add(missing(Field::devices));
  if (!layer_memory) r.add(missing(Field::layer_memory));
  // No links: free ones (no latency, no transfer). Cut sizes cost only over
  // links, so giving them without links is a missing key, not a silent zero.
  if (!links && cuts) r.add(missing(Field::links));
  if (!links && !in.devices.empty()) in.links.assign(in.devices.size() - 1, PlanLink{0.0, 1.0});
  if (!cuts) in.cut_bytes.assign(in.layer_memory.empty() ? 0 : in.layer_memory.size() - 1, 0.0);
}

// A device or link of the estimate form: a catalog id, or an object of an
// optional id and numbers (`keys`; device_class is a name).
template <class Choice>
void read_choice(Reader& r, Field where, std::int64_t k, Keys keys, Keys other, Choice& choice,
                 void (*on_key)(Reader&, Field, std::int64_t, Choice&), const Error& other_error) {
  if (r.at_string()) {
    r.text(where, k, choice.id);
    return;
  }
  r.object(where, k, keys, other, [&](Field key) {
    if (key == Field::id) r.text(Field::id, k, choice.id);
    else on_key(r, key, k, choice);
  }, [&](Field field) {
    Error e = other_error;
    e.field = field;
    e.index = k;
    r.add(std::move(e));
  });
}

void device_key(Reader& r, Field key, std::int64_t s, DeviceChoice& choice) {
  switch (key) {
    case Field::memory: r.optional_quantity(key, s, choice.memory); return;
    case Field::memory_bandwidth:
      r.optional_quantity(key, s, choice.memory_bandwidth);
      return;
    case Field::fp16_flops: r.optional_quantity(key, s, choice.fp16_flops); return;
    case Field::name: r.text(key, s, choice.name); return;
    case Field::layer_time: r.optional_number(key, s, choice.layer_time); return;
    case Field::avg_ts: r.optional_number(key, s, choice.avg_ts); return;
    default: {  // device_class
      std::string name;
      if (!r.text(Field::device_class, s, name)) return;
      auto c = device_class_from_name(name);
      if (c) choice.device_class = c.value();
      else r.add(Error{c.error().code, Field::device_class, s, 0.0, c.error().token});
    }
  }
}

void link_key(Reader& r, Field key, std::int64_t i, LinkChoice& choice) {
  r.optional_number(key, i, key == Field::latency ? choice.latency : choice.bandwidth);
}

void read_model_info(Reader& r, ModelInfo& m) {
  std::vector<Field> given;
  const bool object = r.object(Field::model, kWholeField, kModelInfo, {}, [&](Field key) {
    given.push_back(key);
    double x = 0;
    switch (key) {
      case Field::architecture: r.text(key, kWholeField, m.architecture); return;
      case Field::name: r.text(key, kWholeField, m.name); return;
      case Field::sliding_layers: r.numbers(key, kWholeField, m.sliding_layers); return;
      case Field::attention_layers: r.numbers(key, kWholeField, m.attention_layers); return;
      case Field::kv_layers: r.numbers(key, kWholeField, m.kv_layers); return;
      case Field::recurrent_layers: r.numbers(key, kWholeField, m.recurrent_layers); return;
      case Field::layer_bytes: r.numbers(key, kWholeField, m.layer_bytes); return;
      case Field::active_layer_bytes: r.numbers(key, kWholeField, m.active_layer_bytes); return;
      case Field::active_layer_params: r.numbers(key, kWholeField, m.active_layer_params); return;
      case Field::embedding_bytes: r.number(key, kWholeField, m.embedding_bytes); return;
      case Field::output_bytes: r.number(key, kWholeField, m.output_bytes); return;
      case Field::kv_bytes_per_token: r.number(key, kWholeField, m.kv_bytes_per_token); return;
      case Field::recurrent_bytes_per_sequence: r.number(key, kWholeField, m.recurrent_bytes_per_sequence); return;
      default: break;
    }
    if (!r.count(key, 0, limits::kMaxModelCount, x)) return;
    const auto n = static_cast<std::int64_t>(x);
    switch (key) {
      case Field::layers: m.layers = n; return;
      case Field::nextn_predict_layers: m.nextn_predict_layers = n; return;
      case Field::n_embd: m.n_embd = n; return;
      case Field::n_head: m.n_head = n; return;
      case Field::n_head_kv: m.n_head_kv = n; return;
      case Field::context_length: m.context_length = n; return;
      case Field::expert_count: m.expert_count = n; return;
      case Field::expert_used_count: m.expert_used_count = n; return;
      case Field::key_length: m.key_length = n; return;
      case Field::value_length: m.value_length = n; return;
      case Field::feed_forward_length: m.feed_forward_length = n; return;
      case Field::vocab_size: m.vocab_size = n; return;
      default: m.sliding_window = n; return;
    }
  }, [](Field) {});
  if (!object) return;
  for (Field need : kModelInfoNeeds) {
    if (std::find(given.begin(), given.end(), need) == given.end()) r.add(missing(need));
  }
}

// llama-bench records: a list of them, or one, numbered from `first`.
void read_records(Reader& r, std::int64_t first, std::vector<BenchRecord>& out) {
  auto one = [&](std::int64_t k) {
    BenchRecord record;
    std::vector<Field> given;
    const bool object = r.open_object(Field::calibration, k, kBenchRecord, [&](Field key) {
      given.push_back(key);
      switch (key) {
        case Field::gpu_info: r.text(key, k, record.gpu_info); return;
        case Field::device:
          // "" or blanks names no device: its own error, never a record read by its gpu_info instead.
          if (r.text(key, k, record.device) && typed_value(record.device).empty()) {
            r.add(Error{ErrorCode::empty, Field::device, k, 0.0, {}});
          }
          return;
        case Field::model_size: r.number(key, k, record.model_size); return;
        case Field::model_n_params: r.number(key, k, record.model_n_params); return;
        case Field::n_prompt: r.number(key, k, record.n_prompt); return;
        case Field::n_gen: r.number(key, k, record.n_gen); return;
        default: {
          // Its wrong type says avg_ts (value 1), where the record's own says the record (value 0).
          const std::size_t before = r.errors.size();
          const std::size_t typed_before = r.typed.size();
          r.number(Field::calibration, k, record.avg_ts);
          if (r.typed.size() > typed_before) record.avg_ts_typed = r.typed.back().text;
          for (std::size_t e = before; e < r.errors.size(); ++e) {
            if (r.errors[e].code == ErrorCode::wrong_type) r.errors[e].value = 1;
          }
          return;
        }
      }
    });
    if (object) {
      auto has = [&given](Field f) { return std::find(given.begin(), given.end(), f) != given.end(); };
      if (!has(Field::gpu_info) && !has(Field::device)) r.add(missing(Field::gpu_info, k));
      for (Field need : {Field::model_size, Field::model_n_params, Field::n_prompt, Field::n_gen, Field::calibration}) {
        if (!has(need)) r.add(missing(need, k));
      }
    }
    out.push_back(std::move(record));
  };
  if (!r.at_object()) {
    r.list(Field::calibration, limits::kMaxCalibrationRecords, one, first);
    return;
  }
  // One record, or (llama-bench -o jsonl, read from text) one per line:
  // objects one after another until the text ends.
  std::int64_t k = first;
  for (; r.at_object(); ++k) r.item_within(k, limits::kMaxCalibrationRecords, one);
  if (k > limits::kMaxCalibrationRecords) r.too_many(Field::calibration, k, limits::kMaxCalibrationRecords);
}

void read_estimate(Reader& r, EstimateInput& in) {
  bool quant = false, devices = false, model = false, gguf = false;
  const Error explicit_key{ErrorCode::wrong_form, Field::input, kWholeField, 0.0, {}};
  r.object(Field::input, kWholeField, kEstimateTop, kExplicitOnlyTop, [&](Field field) {
    switch (field) {
      case Field::model:
        model = true;
        if (r.at_object()) {
          in.model_info.emplace();
          read_model_info(r, *in.model_info);
        } else {
          r.text(Field::model, kWholeField, in.model);
        }
        return;
      case Field::gguf:
        gguf = true;
        r.text(Field::gguf, kWholeField, in.gguf);
        if (in.gguf.empty()) r.add(Error{ErrorCode::empty, Field::gguf, kWholeField, 0.0, {}});
        return;
      case Field::quant:
        quant = true;
        r.text(Field::quant, kWholeField, in.quant);
        return;
      case Field::devices:
        devices = true;
        in.devices.clear();
        r.list(Field::devices, limits::kMaxPlanDevices, [&](std::int64_t s) {
          DeviceChoice choice;
          read_choice<DeviceChoice>(r, Field::devices, s, kEstimateDevice, kExplicitDevice, choice, &device_key,
                                    explicit_key);
          in.devices.push_back(std::move(choice));
        });
        return;
      case Field::links:
        in.links.clear();
        r.list(Field::links, limits::kMaxPlanDevices - 1, [&](std::int64_t i) {
          LinkChoice choice;
          read_choice<LinkChoice>(r, Field::links, i, kEstimateLink, {}, choice, &link_key, explicit_key);
          in.links.push_back(std::move(choice));
        });
        return;
      case Field::phase: {
        std::string name;
        if (!r.text(Field::phase, kWholeField, name)) return;
        auto p = phase_from_name(name);
        if (p) in.phase = p.value();
        else r.add(p.error());
        return;
      }
      case Field::tokens:
        r.count_or_text(Field::tokens, 1, limits::kMaxEstimateTokens, in.tokens);
        return;
      case Field::context:
        r.count_or_text(Field::context, 0, limits::kMaxEstimateContext, in.context);
        return;
      case Field::calibration:
        in.calibration.clear();
        if (r.at_string()) {
          // A bench file's text as read (what the page passes): its errors' bytes count in that text.
          std::string text;
          r.text(Field::calibration, kWholeField, text);
          CalibrationJson file = read_calibration_json(text, 0);
          for (Error& e : file.errors) r.add(std::move(e));
          in.calibration = std::move(file.records);
        } else {
          read_records(r, 0, in.calibration);
        }
        return;
      default:
        read_shared(r, field, in);
    }
  }, [&](Field field) {
    Error e = explicit_key;
    e.field = field;
    r.add(std::move(e));
  });
  // A model is a catalog id with its quant, or facts ("model": {...}, or a
  // GGUF file's), which give every tensor's own size.
  const bool facts = gguf || in.model_info.has_value();
  if (gguf && model) r.add(Error{ErrorCode::conflicting_keys, Field::model, kWholeField, 0.0, "gguf"});
  if (facts && quant) {
    r.add(Error{ErrorCode::conflicting_keys, Field::quant, kWholeField, 0.0, gguf ? "gguf" : "model"});
  }
  if (!facts && !quant) r.add(missing(Field::quant));
  if (!devices) r.add(missing(Field::devices));
}

// Whether a field is a key of a device or a link.
bool of_an_item(Field field) {
  switch (field) {
    case Field::layer_times: case Field::memory_capacity: case Field::memory: case Field::memory_bandwidth:
    case Field::fp16_flops: case Field::device_class: case Field::layer_time: case Field::avg_ts:
    case Field::latency: case Field::bandwidth: case Field::name:
      return true;
    default:
      return false;
  }
}

// The value checks' errors after the reader's, so that every bad field is
// reported at once: only when the input's frame (the object, its devices and
// links lists) was read, and none about a field and item the reader already
// refused (its value there is a stand-in), nor about a device or link whose
// id it refused (the id decides what the other keys must give).
// A value check's error quotes its number as typed, when the reader kept it:
// 2e15, not 2e+15; "NaN", not nan (a not_finite's token is the parsed word).
void quote_typed(Error& e, const std::vector<Reader::Typed>& typed) {
  for (const Reader::Typed& t : typed) {
    if (t.field != e.field || t.index != e.index) continue;
    const bool finite = t.value - t.value == 0;
    if (e.code == ErrorCode::not_finite ? !finite : e.token.empty() && t.value == e.value) {
      e.token = t.text;
      if (t.stand_in) e.value = 0;  // no number: the token says what was typed, as the parser's errors do
    }
  }
}

void add_value_errors(PlanJson& out, const std::vector<Reader::Typed>& typed) {
  auto frame = [](const Error& e) {
    const bool list_too_long = e.code == ErrorCode::too_many && e.index == kWholeField &&
                               (e.field == Field::devices || e.field == Field::links || e.field == Field::calibration);
    return list_too_long || ((e.code == ErrorCode::wrong_type || e.code == ErrorCode::missing_field) &&
                             (e.field == Field::input || e.field == Field::devices || e.field == Field::links));
  };
  if (std::any_of(out.errors.begin(), out.errors.end(), frame)) return;
  const auto* explicit_input = std::get_if<PlanInput>(&out.request);
  std::vector<Error> values = explicit_input ? plan_input_errors(*explicit_input)
                                             : estimate_input_errors(std::get<EstimateInput>(out.request));
  const std::size_t read = out.errors.size();
  // What several fields decide together would judge the stand-ins too.
  auto joint = [](const Error& e) {
    return e.code == ErrorCode::too_small || e.code == ErrorCode::delay_too_large ||
           e.code == ErrorCode::too_many_to_order || e.code == ErrorCode::order_search_too_large;
  };
  for (Error& e : values) {
    if (out.errors.size() >= limits::kMaxInputErrors) return;
    if (read > 0 && joint(e)) continue;
    auto same = [&e](const Error& r) {
      return r.index == e.index && (r.field == e.field || (r.field == Field::id && of_an_item(e.field)));
    };
    if (std::any_of(out.errors.begin(), out.errors.begin() + static_cast<std::ptrdiff_t>(read), same)) continue;
    quote_typed(e, typed);
    out.errors.push_back(std::move(e));
  }
}

}  // namespace

QuantityUnits quantity_units(Field field) {
  switch (field) {
    case Field::memory: return {kMemoryUnits, std::size(kMemoryUnits)};
    case Field::memory_bandwidth: return {kBandwidthUnits, std::size(kBandwidthUnits)};
    case Field::fp16_flops: return {kFlopsUnits, std::size(kFlopsUnits)};
    default: return {};
  }
}

PlanJson read_plan_json(std::string_view text) {
  PlanJson out{PlanInput{}, {}};
  if (static_cast<double>(text.size()) > limits::kMaxTextBytes) {
    out.errors.push_back(Error{ErrorCode::too_long, Field::input, kWholeField, static_cast<double>(text.size()), {},
                               limits::kMaxTextBytes});
    return out;
  }
  if (auto e = json_detail::encoding_error(text, Field::input)) {
    out.errors.push_back(*e);
    return out;
  }
  // Nothing but blanks (an empty file, or standard input closed at once) is said to be empty, not
  // bad JSON at byte 0.
  if (text.find_first_not_of(" \t\r\n") == std::string_view::npos) {
    out.errors.push_back(Error{ErrorCode::empty, Field::input, kWholeField, 0.0, {}});
    return out;
  }
  // First: JSON at all (else that alone is the answer), and which form.
  JsonCursor check(text, "", Field::input, kNoDepthLimit);
  bool has_model = false;
  if (check.peek() == JsonType::object) {
    check.enter('{');
    std::string key;
    while (check.next_key(key)) {
      has_model = has_model || key == "model" || key == "gguf";
      check.skip_value();
    }
  } else {
    check.skip_value();
  }
  check.finish();
  if (check.error) {
    const auto stopped = static_cast<double>(check.error->index);
    out.errors.push_back(Error{ErrorCode::not_json, Field::input, kWholeField, stopped, {}});
    return out;
  }
  Reader r(text);
  if (!r.at_object()) {
    r.wrong_type(Field::input, kWholeField);
  } else if (has_model) {
    EstimateInput in;
    read_estimate(r, in);
    out.request = std::move(in);
  } else {
    PlanInput in;
    read_explicit(r, in);
    out.request = std::move(in);
  }
  out.errors = std::move(r.errors);
  add_value_errors(out, r.typed);
  return out;
}

CalibrationJson read_calibration_json(std::string_view text, std::int64_t first) {
  CalibrationJson out;
  if (static_cast<double>(text.size()) > limits::kMaxTextBytes) {
    out.errors.push_back(Error{ErrorCode::too_long, Field::calibration, kWholeField, static_cast<double>(text.size()),
                               {}, limits::kMaxTextBytes});
    return out;
  }
  if (auto e = json_detail::encoding_error(text, Field::calibration)) {
    out.errors.push_back(*e);
    return out;
  }
  JsonCursor check(text, "", Field::calibration, kNoDepthLimit);
  // A list, or one record; or, as llama-bench -o jsonl writes them, records
  // one after another (one per line).
  const bool records = check.peek() == JsonType::object;
  check.skip_value();
  while (records && check.peek() == JsonType::object) check.skip_value();
  check.finish();
  if (check.error) {
    out.errors.push_back(
        Error{ErrorCode::not_json, Field::calibration, kWholeField, static_cast<double>(check.error->index), {}});
    return out;
  }
  Reader r(text);
  read_records(r, first, out.records);
  // Each record's values are judged here too, so that every error of the file
  // comes from its reader (the CLI names the file before each) and quotes the
  // number as typed; a record the reader already faulted is left at that.
  const std::size_t read = r.errors.size();
  for (std::size_t j = 0; j < out.records.size() && !r.full(); ++j) {
    const auto index = first + static_cast<std::int64_t>(j);
    auto faulted = [&](const Error& e) { return e.index == index; };
    if (std::any_of(r.errors.begin(), r.errors.begin() + static_cast<std::ptrdiff_t>(read), faulted)) continue;
    if (auto e = check_record(out.records[j], index)) {
      quote_typed(*e, r.typed);
      r.add(std::move(*e));
    }
  }
  out.errors = std::move(r.errors);
  return out;
}

}  // namespace heteropipe
