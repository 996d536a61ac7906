#pragma once

namespace heteropipe {

inline constexpr const char* kVersion = "0.1.0";

}  // namespace heteropipe
