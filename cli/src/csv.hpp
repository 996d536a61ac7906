#pragma once

#include <ostream>

#include "heteropipe/curve.hpp"
#include "heteropipe/schedule.hpp"

// Exact CSV exports: every number is written so that it reads back to the
// same double.
namespace heteropipe::cli {

// micro_batch,stage,compute_start,compute_finish,transfer_start,transfer_finish
// (the transfer columns are empty on the last stage, which sends nothing).
void write_timeline_csv(std::ostream& out, const Timeline& t);

// M,T_free,T_async,T_block,T_gpipe,gpipe_overestimate
void write_curve_csv(std::ostream& out, const Curve& c);

}  // namespace heteropipe::cli
