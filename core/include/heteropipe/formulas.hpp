#pragma once

#include <optional>
#include <string_view>

#include "heteropipe/pipeline.hpp"

// The closed forms of the paper over a validated Pipeline. M, rho and T_real
// must have passed check_batches / check_rho / check_T_real; these functions
// do no checking of their own and never fail.
namespace heteropipe {

double makespan_free(const Pipeline& p, double M);      // Theorem 1
double makespan_async(const Pipeline& p, double M);     // Theorem 2
double makespan_blocking(const Pipeline& p, double M);  // Theorem 3
double makespan_gpipe(const Pipeline& p, double M);     // (S + M - 1) tau_max

double homogeneity_bias(const Pipeline& p);  // Corollary 1
double full_bias(const Pipeline& p);         // Corollary 3
bool phase_transition(const Pipeline& p);    // Corollary 4
double overlap_gap(const Pipeline& p, double M);  // Corollary 5
double effective_slope(const Pipeline& p, double rho);
// The makespan the model predicts at overlap ratio rho: the T_real whose
// measured overlap ratio is rho, T_block - rho (T_block - T_async), computed
// from the nearer end (T_async + (1 - rho) gap for rho >= 1/2) and kept within
// [T_async, T_block]. rho = 0 gives T_block and rho = 1 T_async exactly; it
// grows with M at effective_slope.
double makespan_at_rho(const Pipeline& p, double M, double rho);
double asymptotic_throughput_async(const Pipeline& p);     // Proposition 1
double asymptotic_throughput_blocking(const Pipeline& p);  // Proposition 1
double crossover_batches(const Pipeline& p);               // M*
double gpipe_overestimate(const Pipeline& p, double M);    // (T_gpipe - T_async) / T_async

// Slack of link s: tau_max - tau[s] (how much latency it can hide), and its
// margin, slack - d[s] = tau_max - sigma[s]; a negative margin puts
// communication into the blocking slope (the phase transition).
double link_slack(const Pipeline& p, std::int64_t s);
double link_margin(const Pipeline& p, std::int64_t s);

// True when T_block > T_async at this M, i.e. overlap can gain something.
bool has_overlap_headroom(const Pipeline& p, double M);

// (T_block - T_real) / (T_block - T_async); nullopt without headroom.
std::optional<double> overlap_ratio(const Pipeline& p, double M, double T_real);

// Where a measured makespan sits against the sandwich T_async <= T <= T_block.
enum class SandwichPosition { below_async, inside, above_block };
SandwichPosition sandwich_position(const Pipeline& p, double M, double T_real);
std::string_view sandwich_position_name(SandwichPosition position);

}  // namespace heteropipe
