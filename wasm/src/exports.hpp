#pragma once

#include <string>

// The functions the Embind registrations expose to wasm/js/api.js, as
// hp_<name> on the module. Each is documented where it is defined
// (exports.cpp); the protocol of slots, records and list buffers is in
// marshal.hpp.
namespace heteropipe::wasm {

double hp_slots();
double hp_records();
double hp_list(int list, double length);
void hp_small_lists();
double hp_text(double bytes);
int hp_error(int k);
void hp_name(int kind, int k);
void hp_limits();
double hp_malloc_bytes();
void hp_release();
int hp_analyze();
int hp_check();
int hp_read_request(std::string tau, std::string d, std::string M, std::string rho, bool has_T_real,
                    std::string T_real);
double hp_parse_list(double bytes, int field);
double hp_parse_number(double bytes, int field);
double hp_makespan_free(double t, double d, double M);
double hp_makespan_async(double t, double d, double M);
double hp_makespan_blocking(double t, double d, double M);
double hp_makespan_gpipe(double t, double d, double M);
double hp_homogeneity_bias(double t, double d);
double hp_full_bias(double t, double d);
double hp_phase_transition(double t, double d);
double hp_overlap_gap(double t, double d, double M);
double hp_asymptotic_throughput_async(double t, double d);
double hp_asymptotic_throughput_blocking(double t, double d);
double hp_crossover_batches(double t, double d);
double hp_gpipe_overestimate(double t, double d, double M);
double hp_effective_slope(double n_tau, double n_d, double rho);
double hp_overlap_ratio(double n_tau, double n_d, double M, double T_real);
double hp_recurrence_makespan(double n_tau, double n_d, double M, int regime);
double hp_timeline(double n_tau, double n_d, double M, int regime);
double hp_curve_batches(double n_tau, double n_d, double M, double points);
double hp_makespan_curve(double n_tau, double n_d, double n_batches);

}  // namespace heteropipe::wasm
