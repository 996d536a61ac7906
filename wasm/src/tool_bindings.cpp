// The operations beyond the calculator: only the whole module (heteropipe.js)
// has them; the pages' first load (heteropipe-calc.js) does not. The protocol
// is bindings.cpp's.
#include <emscripten/bind.h>

#include "operations.hpp"

EMSCRIPTEN_BINDINGS(heteropipe_tools) {
  using emscripten::function;
  namespace op = heteropipe::wasm;

  function("catalog", &op::catalog);
  function("plan", &op::plan);
  function("model_info", &op::model_info);
  function("simulate", &op::simulate);
  function("import_trace", &op::import_trace);
  function("unstage", &op::unstage);
}
