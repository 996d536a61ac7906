#pragma once

#include <ostream>
#include <string>

// `heteropipe model FILE.gguf`: a GGUF file's facts, read from its header and
// tensor table alone (docs/cli.md#model).
namespace heteropipe::cli {

struct ModelChoices {
  std::string file;
  bool json = false;
};

int run_model(const ModelChoices& choices, std::ostream& out, std::ostream& err);

}  // namespace heteropipe::cli
