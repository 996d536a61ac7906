// analyze: every quantity at once, the module's most frequent call.
#include <memory>
#include <optional>
#include <utility>

#include "heteropipe/analysis.hpp"
#include "memory.hpp"
#include "operations.hpp"

namespace heteropipe::wasm {

double analyze(double staging) {
  Request in(staging);
  auto p = read_pipeline(in);
  if (!p) return refuse(p.error());
  const AnalysisRequest defaults;
  const double M = in.number("M", Field::M, defaults.M);
  const double rho = in.number("rho", Field::rho, defaults.rho);
  const std::optional<double> T_real = in.number("T_real", Field::T_real);
  if (auto e = check_scalars(M, rho, T_real)) return refuse(in.annotated(*e));
  const Lists lists = in.flag("lists", true) ? Lists::include : Lists::omit;
  // sigma, link_slack and link_margin, computed as they are written.
  const double series = 3.0 * static_cast<double>(p.value().S()) * sizeof(double);
  if (lists == Lists::include && !room_for(series)) return refuse(out_of_memory(Field::tau, series));
  auto pipeline = std::make_shared<const Pipeline>(std::move(p).value());
  return answer(heteropipe::analyze(std::move(pipeline), M, rho, T_real),
                [lists](const Analysis& a, Writer& w) { visit_fields(a, w, lists); });
}

}  // namespace heteropipe::wasm
