// portable_exp beyond the range its inline part covers (elementary.hpp).
#include "heteropipe/sim/elementary.hpp"

namespace heteropipe::sim::elementary_detail {

double exp_far(double x) {
  std::uint64_t n = 0;
  if (x != x) return x;
  if (x > 709.782712893384) return std::numeric_limits<double>::infinity();  // above ln(largest double)
  if (x < -745.1332191019412) return 0;  // below ln(2^-1075): rounds to zero
  const double part = exp_split(x, n);
  const auto k = static_cast<std::int64_t>(n - n % kExpTableSize) / kExpTableSize;
  if (k > 1023) return part * 2 * power_of_two(k - 1);
  if (k < -1022) return part * power_of_two(k + 54) * power_of_two(-54);  // a subnormal result
  return part * power_of_two(k);
}

}  // namespace heteropipe::sim::elementary_detail
