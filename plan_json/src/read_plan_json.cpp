#include "heteropipe/plan_json/read_plan_json.hpp"

#include <string>

#include "forms.hpp"
#include "heteropipe/limits.hpp"

namespace heteropipe {
namespace plan_json {
namespace {

// nlohmann's DOM builder, told not to throw, keeping where reading stopped
// (so no exception ever runs, which the wasm build needs).
class Reader : public nlohmann::detail::json_sax_dom_parser<json> {
 public:
  explicit Reader(json& root) : json_sax_dom_parser(root, false) {}

  template <class Exception>
  bool parse_error(std::size_t position, const std::string&, const Exception&) {
    failed_at = position;
    return false;
  }

  std::optional<std::size_t> failed_at;
};

}  // namespace

std::optional<Error> read_shared(const json& document, Shared into) {
  if (const json* M = member(document, "M")) {
    auto x = number_at(*M, Field::M, kWholeField);
    if (!x) return x.error();
    *into.M = x.value();
  }
  if (const json* objective = member(document, "objective")) {
    auto name = string_at(*objective, Field::objective, kWholeField);
    if (!name) return name.error();
    auto o = objective_from_name(name.value());
    if (!o) return o.error();
    *into.objective = o.value();
  }
  if (const json* order = member(document, "order")) {
    auto name = string_at(*order, Field::order, kWholeField);
    if (!name) return name.error();
    auto o = device_order_from_name(name.value());
    if (!o) return o.error();
    *into.order = o.value();
  }
  if (const json* idle = member(document, "allow_idle_devices")) {
    if (!idle->is_boolean()) return wrong_type(Field::devices, kWholeField, *idle);
    *into.allow_idle_devices = idle->get<bool>();
  }
  return std::nullopt;
}

}  // namespace plan_json

Result<PlanRequest> read_plan_json(std::string_view text) {
  if (static_cast<double>(text.size()) > limits::kMaxTextBytes) {
    return Error{ErrorCode::too_long, Field::input, kWholeField, static_cast<double>(text.size()), {},
                 limits::kMaxTextBytes};
  }
  plan_json::json document;
  plan_json::Reader reader(document);
  plan_json::json::sax_parse(text.begin(), text.end(), &reader);
  if (reader.failed_at) {
    return Error{ErrorCode::not_json, Field::input, kWholeField, static_cast<double>(*reader.failed_at), {}};
  }
  if (!document.is_object()) return plan_json::wrong_type(Field::input, kWholeField, document);
  if (plan_json::member(document, "model")) {
    auto estimate = plan_json::read_estimate(document);
    if (!estimate) return estimate.error();
    return PlanRequest{std::move(estimate).value()};
  }
  auto input = plan_json::read_explicit(document);
  if (!input) return input.error();
  return PlanRequest{std::move(input).value()};
}

}  // namespace heteropipe
