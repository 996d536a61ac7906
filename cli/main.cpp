// heteropipe: the command-line tool. Everything it does is heteropipe::cli::run,
// which the Python command runs too.
#include <iostream>
#include <string>
#include <vector>

#include "heteropipe/cli/cli.hpp"

int main(int argc, char** argv) {
  std::ios::sync_with_stdio(false);
  const std::vector<std::string> args(argv + 1, argv + argc);
  return heteropipe::cli::run(args, std::cout, std::cerr);
}
