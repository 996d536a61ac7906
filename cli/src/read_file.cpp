// Reading a named input: the only place the CLI opens files.
#include "read_file.hpp"

#include <fstream>
#include <iostream>
#include <iterator>

namespace heteropipe::cli {

bool read_file(const std::string& file, std::string& content) {
  if (file == "-") {
    content.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
    return !std::cin.bad();
  }
  std::ifstream in(file, std::ios::binary);
  if (!in) return false;
  content.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  return !in.bad();
}

}  // namespace heteropipe::cli
