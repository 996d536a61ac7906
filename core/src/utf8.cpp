#include "utf8.hpp"

namespace heteropipe {

std::string as_utf8(std::string_view bytes) {
  std::string out;
  out.reserve(bytes.size());
  const auto at = [&](std::size_t k) { return static_cast<unsigned char>(bytes[k]); };
  std::size_t i = 0;
  while (i < bytes.size()) {
    const unsigned char b = at(i);
    if (b < 0x80) {
      out += static_cast<char>(b);
      ++i;
      continue;
    }
    int needed = 0;
    unsigned char lower = 0x80, upper = 0xBF;
    if (b >= 0xC2 && b <= 0xDF) {
      needed = 1;
    } else if (b >= 0xE0 && b <= 0xEF) {
      needed = 2;
      if (b == 0xE0) lower = 0xA0;
      if (b == 0xED) upper = 0x9F;
    } else if (b >= 0xF0 && b <= 0xF4) {
      needed = 3;
      if (b == 0xF0) lower = 0x90;
      if (b == 0xF4) upper = 0x8F;
    }
    std::size_t j = i + 1;
    int seen = 0;
    while (seen < needed && j < bytes.size() && at(j) >= lower && at(j) <= upper) {
      lower = 0x80;
      upper = 0xBF;
      ++j;
      ++seen;
    }
    if (needed > 0 && seen == needed) {
      out.append(bytes.substr(i, j - i));
    } else {
      out += "\xEF\xBF\xBD";  // U+FFFD; the byte that broke the sequence is read again
    }
    i = j;
  }
  return out;
}

}  // namespace heteropipe
