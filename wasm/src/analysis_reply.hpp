#pragma once

// analyze's reply (hp_analyze, hp_records in exports.hpp): built at -O3, as
// the one hot path of the binding.
namespace heteropipe::wasm {

// Drops the latest analysis and recycles its arrays (marshal.hpp).
void release_analysis();

}  // namespace heteropipe::wasm
