#include "heteropipe/text/plan_text.hpp"

#include "heteropipe/limits.hpp"
#include "heteropipe/text/numbers.hpp"

namespace heteropipe::text {

std::string describe(const MemoryWarning& w) {
  return "stage " + std::to_string(w.stage) + " (device " + std::to_string(w.device) + ") fills " +
         percent(w.fraction) + " of its memory capacity (over " + percent(limits::kMemoryWarningFraction) +
         "): a runtime that needs a little more memory than estimated will not load it";
}

std::string typically(const SpeedBand& band) {
  if (!band || band->size() != 2) return "";
  return "typically " + four_figures((*band)[0]) + " to " + four_figures((*band)[1]);
}

}  // namespace heteropipe::text
