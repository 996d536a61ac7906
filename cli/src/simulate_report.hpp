#pragma once

#include <ostream>

#include "heteropipe/sim/simulate.hpp"

// The two text views of a simulation (its JSON goes through json.hpp).
namespace heteropipe::cli {

// The summary for people, numbers to ten significant digits.
void write_simulation_table(std::ostream& out, const sim::Simulation& s);

// Replication 0's timeline, one row per cell:
// micro_batch,stage,compute_start,compute_finish,release,transfer_start,transfer_finish
// (blocked from compute_finish to release; no transfer on the last stage).
void write_run_csv(std::ostream& out, const sim::Run& run);

}  // namespace heteropipe::cli
