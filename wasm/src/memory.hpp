#pragma once

#include "heteropipe/error.hpp"

// Allocation that fails without aborting. The module links with
// -sABORTING_MALLOC=0, so malloc returns null when the host refuses to grow
// wasm memory; but the core's std::vectors allocate through operator new,
// which aborts the whole module when malloc fails (there are no exceptions to
// throw). So staging areas use malloc directly, and every large allocation
// the core will make is first tried here, as one block of the total.
namespace heteropipe::wasm {

// Whether `bytes` (and some room for small allocations after them) can be
// had now. Small amounts are always there: every call frees all it took.
bool room_for(double bytes);

// The error of a request that needs more memory than there is.
Error out_of_memory(Field field, double bytes);

}  // namespace heteropipe::wasm
