// Reading a named input: the only place the CLI opens files. C stdio, so a
// failure (a directory, a closed standard input) is an errno to name, never
// an exception from a stream buffer.
#include "read_file.hpp"

#include <cerrno>
#include <cstdio>
#include <memory>

#include <sys/stat.h>
#include <unistd.h>

#include "heteropipe/text/input_text.hpp"

namespace heteropipe::cli {
namespace {

struct Closer {
  void operator()(std::FILE* f) const { std::fclose(f); }
};

}  // namespace

std::string read_failure(const std::string& file, int error_number) {
  return text::cannot_read(text::input_label(file), text::read_reason(error_number));
}

std::optional<std::string> open_failure(const std::string& file) {
  if (file == "-") return std::nullopt;
  errno = 0;
  std::unique_ptr<std::FILE, Closer> owned(std::fopen(file.c_str(), "rb"));
  if (!owned) return read_failure(file, errno);
  // A directory opens, and fails at its first read (is a directory).
  char byte = 0;
  errno = 0;
  if (std::fread(&byte, 1, 1, owned.get()) == 0 && std::ferror(owned.get())) return read_failure(file, errno);
  return std::nullopt;
}

std::optional<std::string> read_file(const std::string& file, std::string& content, double max_bytes) {
  std::unique_ptr<std::FILE, Closer> owned;
  std::FILE* in = stdin;
  if (file != "-") {
    errno = 0;
    owned.reset(std::fopen(file.c_str(), "rb"));
    if (!owned) return read_failure(file, errno);
    in = owned.get();
  }
  content.clear();
  const auto too_large = [&] {
    content.clear();
    content.shrink_to_fit();
    return text::too_large_input(text::input_label(file), max_bytes);
  };
  // A regular file's size is known before it is read: one past the limit is
  // refused unread, and one within it is read into room reserved once (the
  // string grown by doubling held twice the limit before it refused one byte
  // over). A pipe or a device is read to the limit and no further.
  // Standard input may be a file already partly read: what is left is from its offset on.
  struct stat info {};
  const int descriptor = ::fileno(in);
  const off_t offset = ::lseek(descriptor, 0, SEEK_CUR);
  if (::fstat(descriptor, &info) == 0 && S_ISREG(info.st_mode) && offset >= 0) {
    const off_t left = info.st_size > offset ? info.st_size - offset : 0;
    if (static_cast<double>(left) > max_bytes) return too_large();
    // One byte more than what is left, so that reading to the end grows nothing.
    content.reserve(static_cast<std::size_t>(left) + 1);
  }
  char chunk[64 * 1024];
  for (;;) {
    errno = 0;
    const std::size_t got = std::fread(chunk, 1, sizeof chunk, in);
    // A file that grows while it is read is held to the limit as a pipe is.
    if (static_cast<double>(content.size() + got) > max_bytes) return too_large();
    content.append(chunk, got);
    if (got < sizeof chunk) {
      if (std::ferror(in)) return read_failure(file, errno);
      return std::nullopt;
    }
  }
}

}  // namespace heteropipe::cli
