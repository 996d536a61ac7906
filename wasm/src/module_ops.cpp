// What the wrapper asks once (module_info) or for diagnostics (memory).
#include <emscripten/heap.h>
#include <malloc.h>

#include <cstdint>

#include "heteropipe/limits.hpp"
#include "heteropipe/version.hpp"
#include "operations.hpp"

namespace heteropipe::wasm {

double module_info(double staging) {
  Request nothing(staging);
  return reply_of([](Writer& w) {
    w("version", std::string_view(kVersion));
    w("limits", object([](auto&& visit) { limits::visit_fields(visit); }));
    // Whether each field is a list, so that the wrapper can refuse a wrong
    // field name or regime as a programming error (TypeError).
    w("fields", object([](auto&& visit) {
        for (Field field : kFields) visit(field_name(field), is_list(field));
      }));
    w("regimes", object([](auto&& visit) {
        for (std::string_view name : kRegimeNames) {
          visit(name, static_cast<std::int64_t>(regime_from_name(name).value_or(Regime::async)));
        }
      }));
    w("small_area", static_cast<std::int64_t>(reinterpret_cast<std::uintptr_t>(small_area())));
    w("small_area_bytes", static_cast<std::int64_t>(kSmallArea));
  });
}

double memory(double staging) {
  { Request nothing(staging); }
  return reply_of([](Writer& w) {
    w("wasm_bytes", static_cast<std::int64_t>(emscripten_get_heap_size()));
    w("malloc_bytes", static_cast<std::int64_t>(mallinfo().uordblks));
  });
}

}  // namespace heteropipe::wasm
