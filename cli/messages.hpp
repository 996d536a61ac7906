#pragma once

#include <cstdint>
#include <string>

#include "heteropipe/error.hpp"

// English wording for the core's error codes.
namespace heteropipe::cli {

// What a message needs beyond the error itself.
struct MessageContext {
  std::int64_t stages = 0;  // S, for d's wrong_length
  double cell_limit = 0;    // the limit a too_many_cells error ran into
};

// "<field>, item <n>: <what>" (n 1-based) or "<field>: <what>".
std::string message(const Error& error, const MessageContext& context = {});

}  // namespace heteropipe::cli
