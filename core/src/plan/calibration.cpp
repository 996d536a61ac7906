// Calibration from llama-bench records: which devices a record names, and
// the factor it sets on their per-layer times (docs/planner.md#calibration).
#include "heteropipe/plan/calibration.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <utility>

#include "estimate_check.hpp"
#include "heteropipe/limits.hpp"
#include "heteropipe/parse.hpp"

namespace heteropipe {
namespace {

std::string lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool alnum_at(const std::string& text, std::size_t k) {
  return k < text.size() && std::isalnum(static_cast<unsigned char>(text[k]));
}

// Where `name` (lower case) occurs in `info` (lower case) as whole words.
struct Span {
  std::size_t begin, end;
};
void add_occurrences(const std::string& info, const std::string& name, std::vector<Span>& out) {
  if (name.empty()) return;
  for (std::size_t at = info.find(name); at != std::string::npos; at = info.find(name, at + 1)) {
    const std::size_t end = at + name.size();
    if ((at == 0 || !alnum_at(info, at - 1)) && !alnum_at(info, end)) out.push_back(Span{at, end});
  }
}

// Whether some occurrence of a longer name covers this one.
bool hidden(const Span& s, const std::vector<Span>& all) {
  return std::any_of(all.begin(), all.end(), [&s](const Span& o) {
    return o.end - o.begin > s.end - s.begin && o.begin <= s.begin && s.end <= o.end;
  });
}

// The names a device of the input goes by, lower case.
std::vector<std::string> names_of(const DeviceChoice& choice) {
  std::vector<std::string> out;
  if (!choice.id.empty()) {
    if (auto gpu = find_gpu(choice.id, kWholeField)) {
      for (const std::string& n : gpu_names(gpu.value())) out.push_back(lower(n));
    }
  }
  if (!typed_value(choice.name).empty()) out.push_back(lower(typed_value(choice.name)));
  return out;
}

// Devices of one kind take the same records: a catalog id, or a custom device's name. Both are
// read without the blanks around them, as find_gpu reads an id: " rtx-4080" is an rtx-4080, the
// same kind as "rtx-4080", and a record's "device": "rtx-4080" names it.
std::string kind_of(const DeviceChoice& choice) {
  return choice.id.empty() ? "\n" + std::string(typed_value(choice.name)) : std::string(typed_value(choice.id));
}

bool measured(const DeviceChoice& choice) { return choice.layer_time.has_value() || choice.avg_ts.has_value(); }

// The phase a record's test measures: llama-bench's tg (n_gen tokens, no
// prompt) is decode, its pp (n_prompt tokens, none generated) prefill; a pg
// test's avg_ts counts both, so it measures neither alone.
std::optional<Phase> phase_of(const BenchRecord& r) {
  if (r.n_gen > 0 && r.n_prompt == 0) return Phase::decode;
  if (r.n_prompt > 0 && r.n_gen == 0) return Phase::prefill;
  return std::nullopt;
}

// The planned model's layers (those a llama-bench run runs) and its bytes in
// all (what llama-bench's model_size counts).
struct Planned {
  std::int64_t layers = 0;
  double bytes = 0;
};

Result<Planned> planned_of(const EstimateInput& input) {
  ModelInfo info;
  if (input.model_info) {
    info = *input.model_info;
  } else {
    if (!input.gguf.empty()) return Error{ErrorCode::wrong_form, Field::gguf, kWholeField, 0.0, input.gguf};
    auto model = find_model(input.model);
    if (!model) return model.error();
    auto quant = find_quant(input.quant);
    if (!quant) return quant.error();
    info = model_info_of(model.value(), quant.value());
  }
  if (auto e = check_model_info(info)) return *e;
  // llama-bench's model_size (llama_model_size, the loader's n_bytes) counts
  // every tensor of the file, the multi-token-prediction layers' too, though
  // TENSOR_SKIP loads none of them; its run runs the layers before them.
  Planned p{info.layers - info.nextn_predict_layers, info.embedding_bytes + info.output_bytes};
  for (double b : info.layer_bytes) p.bytes += b;
  return p;
}

}  // namespace

std::vector<std::string> gpu_names(const GpuSpec& gpu) {
  std::vector<std::string> out{std::string(gpu.name)};
  std::string_view s = gpu.name;
  auto trim = [&s] {
    while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
    while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  };
  for (bool again = true; again;) {
    again = false;
    for (std::string_view vendor : {"NVIDIA ", "GeForce ", "AMD ", "Apple ", "Intel "}) {
      if (s.substr(0, vendor.size()) == vendor) {
        s.remove_prefix(vendor.size());
        again = true;
      }
    }
  }
  trim();
  if (!s.empty() && s.back() == ')') {
    if (const auto open = s.rfind('('); open != std::string_view::npos) s = s.substr(0, open);
    trim();
  }
  // A trailing memory size: digits then "GB".
  if (const auto space = s.rfind(' '); space != std::string_view::npos && s.size() > space + 3 &&
                                        s.substr(s.size() - 2) == "GB") {
    const std::string_view digits = s.substr(space + 1, s.size() - space - 3);
    if (!digits.empty() && std::all_of(digits.begin(), digits.end(),
                                       [](char c) { return std::isdigit(static_cast<unsigned char>(c)); })) {
      s = s.substr(0, space);
      trim();
    }
  }
  if (!s.empty() && s != gpu.name) out.emplace_back(s);
  return out;
}

Result<std::vector<std::int64_t>> devices_named(const EstimateInput& input, const BenchRecord& record,
                                                std::int64_t index) {
  std::vector<std::int64_t> out;
  const auto S = static_cast<std::int64_t>(input.devices.size());
  if (!record.device.empty()) {
    const std::string_view wanted = typed_value(record.device);
    bool known = find_gpu(wanted, kWholeField).ok();
    for (std::int64_t k = 0; k < S; ++k) {
      const DeviceChoice& c = input.devices[static_cast<std::size_t>(k)];
      if ((!c.id.empty() && typed_value(c.id) == wanted) || (!c.name.empty() && typed_value(c.name) == wanted)) {
        out.push_back(k);
        known = true;
      }
    }
    if (!known) return Error{ErrorCode::unknown_id, Field::device, index, 0.0, std::string(wanted)};
  } else {
    const std::string info = lower(record.gpu_info);
    std::vector<Span> all;  // every name's occurrences, to tell which a longer one hides
    for (const GpuSpec& gpu : catalog_gpus()) {
      for (const std::string& n : gpu_names(gpu)) add_occurrences(info, lower(n), all);
    }
    for (const DeviceChoice& c : input.devices) add_occurrences(info, lower(typed_value(c.name)), all);
    for (std::int64_t k = 0; k < S; ++k) {
      std::vector<Span> own;
      for (const std::string& n : names_of(input.devices[static_cast<std::size_t>(k)])) add_occurrences(info, n, own);
      if (std::any_of(own.begin(), own.end(), [&all](const Span& s) { return !hidden(s, all); })) out.push_back(k);
    }
  }
  for (std::int64_t k : out) {
    const std::string kind = kind_of(input.devices[static_cast<std::size_t>(k)]);
    if (kind != kind_of(input.devices[static_cast<std::size_t>(out.front())])) {
      return Error{ErrorCode::ambiguous_device, Field::calibration, index, static_cast<double>(out.front()),
                   record.device.empty() ? record.gpu_info : record.device, static_cast<double>(k)};
    }
  }
  return out;
}

std::optional<Error> check_record(const BenchRecord& r, std::int64_t index) {
  if (static_cast<double>(r.gpu_info.size()) > limits::kMaxGpuInfoBytes) {
    return Error{ErrorCode::too_long, Field::gpu_info, index, static_cast<double>(r.gpu_info.size()), {},
                 limits::kMaxGpuInfoBytes};
  }
  // A device given as blanks names nothing: its own error, not gpu_info's (whose absence it would hide).
  if (!r.device.empty() && typed_value(r.device).empty()) return Error{ErrorCode::empty, Field::device, index, 0.0, {}};
  if (r.gpu_info.empty() && r.device.empty()) return Error{ErrorCode::empty, Field::gpu_info, index, 0.0, {}};
  const struct {
    double value;
    Field field;
    bool may_be_zero;
    double most;
  } numbers[] = {{r.model_size, Field::model_size, false, limits::kMaxValue},
                 {r.model_n_params, Field::model_n_params, false, limits::kMaxValue},
                 {r.n_prompt, Field::n_prompt, true, limits::kMaxEstimateTokens},
                 {r.n_gen, Field::n_gen, true, limits::kMaxValue},
                 {r.avg_ts, Field::calibration, false, limits::kMaxValue}};
  for (const auto& n : numbers) {
    if (auto e = plan_detail::check_number(n.value, n.field, index, n.may_be_zero)) return e;
    if (n.value > n.most) return Error{ErrorCode::too_large, n.field, index, n.value, {}, n.most};
    // The counts (bytes, parameters, tokens) are whole numbers, as llama-bench writes them: a fraction
    // (5e-324 bytes, half a token) is no measurement, and would move the estimate it calibrates.
    if (n.field != Field::calibration && n.value != std::floor(n.value)) {
      return Error{ErrorCode::not_integer, n.field, index, n.value, {}};
    }
  }
  return std::nullopt;
}

Result<Calibration> calibration_of(const EstimateInput& input) {
  const std::size_t S = input.devices.size();
  Calibration out;
  out.factors.assign(S, 1.0);
  if (input.calibration.empty()) return out;
  const auto R = static_cast<std::int64_t>(input.calibration.size());
  if (R > limits::kMaxCalibrationRecords) {
    return Error{ErrorCode::too_many, Field::calibration, kWholeField, static_cast<double>(R), {},
                 static_cast<double>(limits::kMaxCalibrationRecords)};
  }
  auto planned = planned_of(input);
  if (!planned) return planned.error();
  // Each record's devices, then for each device the record nearest the planned model.
  std::vector<std::vector<std::int64_t>> named(static_cast<std::size_t>(R));
  for (std::int64_t j = 0; j < R; ++j) {
    const BenchRecord& r = input.calibration[static_cast<std::size_t>(j)];
    if (auto e = check_record(r, j)) return *e;
    auto devices = devices_named(input, r, j);
    if (!devices) return devices.error();
    named[static_cast<std::size_t>(j)] = std::move(devices).value();
  }
  auto distance = [&](std::int64_t j) {
    return std::abs(std::log(input.calibration[static_cast<std::size_t>(j)].model_size / planned.value().bytes));
  };
  std::vector<std::int64_t> chosen(S, -1);
  for (std::int64_t j = 0; j < R; ++j) {
    if (phase_of(input.calibration[static_cast<std::size_t>(j)]) != input.phase) continue;
    for (std::int64_t k : named[static_cast<std::size_t>(j)]) {
      auto& c = chosen[static_cast<std::size_t>(k)];
      if (measured(input.devices[static_cast<std::size_t>(k)])) continue;
      if (c < 0 || distance(j) < distance(c)) c = j;
    }
  }
  for (std::size_t k = 0; k < S; ++k) {
    const std::int64_t j = chosen[k];
    if (j < 0) continue;
    const BenchRecord& r = input.calibration[static_cast<std::size_t>(j)];
    auto estimated = plan_detail::record_tokens_per_second(input, k, r, planned.value().layers);
    if (!estimated) return estimated.error();
    const double factor = r.avg_ts / estimated.value();
    out.factors[k] = factor;
    out.calibrated.push_back(Calibrated{static_cast<std::int64_t>(k), j, factor});
  }
  for (std::int64_t j = 0; j < R; ++j) {
    const auto& devices = named[static_cast<std::size_t>(j)];
    if (std::find(chosen.begin(), chosen.end(), j) != chosen.end()) continue;
    std::string_view reason = "nearer_record";
    if (phase_of(input.calibration[static_cast<std::size_t>(j)]) != input.phase) {
      reason = "other_phase";
    } else if (devices.empty()) {
      reason = "no_device";
    } else if (std::all_of(devices.begin(), devices.end(),
                           [&input](std::int64_t k) { return measured(input.devices[static_cast<std::size_t>(k)]); })) {
      reason = "measured";
    }
    out.unused.push_back(UnusedRecord{j, reason});
  }
  return out;
}

}  // namespace heteropipe
