#include "csv.hpp"

#include "heteropipe/text/numbers.hpp"

namespace heteropipe::cli {

using text::shortest;

void write_timeline_csv(std::ostream& out, const Timeline& t) {
  out << "micro_batch,stage,compute_start,compute_finish,transfer_start,transfer_finish\n";
  std::size_t cell = 0, transfer = 0;
  for (std::int64_t m = 0; m < t.M; ++m) {
    for (std::int64_t s = 0; s < t.S; ++s, ++cell) {
      out << std::to_string(m) << ',' << std::to_string(s) << ',' << shortest(t.compute_start[cell]) << ',' << shortest(t.compute_finish[cell]) << ',';
      if (s + 1 < t.S) {
        out << shortest(t.transfer_start[transfer]) << ',' << shortest(t.transfer_finish[transfer]);
        ++transfer;
      } else {
        out << ',';
      }
      out << '\n';
    }
  }
}

void write_curve_csv(std::ostream& out, const Curve& c) {
  out << "M,T_free,T_async,T_block,T_gpipe,gpipe_overestimate\n";
  for (std::size_t i = 0; i < c.M.size(); ++i) {
    out << std::to_string(static_cast<std::int64_t>(c.M[i])) << ',' << shortest(c.T_free[i]) << ',' << shortest(c.T_async[i]) << ','
        << shortest(c.T_block[i]) << ',' << shortest(c.T_gpipe[i]) << ',' << shortest(c.gpipe_overestimate[i]) << '\n';
  }
}

}  // namespace heteropipe::cli
