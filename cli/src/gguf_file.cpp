// Reading a GGUF file's header in the ranges the core asks for: C stdio, as
// read_file.cpp, with a 64-bit size so that files past 2 GiB read alike.
#include "heteropipe/cli/gguf_file.hpp"

#include <cerrno>
#include <cstdio>
#include <filesystem>
#include <memory>

#include "heteropipe/text/input_text.hpp"
#include "heteropipe/text/numbers.hpp"
#include "read_file.hpp"

namespace heteropipe::cli {
namespace {

struct Closer {
  void operator()(std::FILE* f) const { std::fclose(f); }
};

}  // namespace

Result<ModelInfo> read_gguf_file(const std::string& path, std::string& io_failure) {
  io_failure.clear();
  const Error unread{ErrorCode::empty, Field::gguf, kWholeField, 0.0, {}};
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);
  errno = 0;
  std::unique_ptr<std::FILE, Closer> file(std::fopen(path.c_str(), "rb"));
  if (!file || ec) {
    // read_file words the reason (no such file, is a directory, ...) as every command does.
    io_failure = open_failure(path).value_or(text::cannot_read(text::quoted(path), text::kNotRegularFile));
    return unread;
  }
  std::string prefix;
  return read_gguf_through(
      [&](double need) -> Result<std::string_view> {
        const auto n = static_cast<std::size_t>(need);
        const std::size_t have = prefix.size();
        prefix.resize(n);
        const std::size_t got = std::fread(prefix.data() + have, 1, n - have, file.get());
        prefix.resize(have + got);
        if (got < n - have && std::ferror(file.get())) {
          io_failure = open_failure(path).value_or(text::cannot_read(text::quoted(path), text::read_reason(EIO)));
          return unread;
        }
        return std::string_view(prefix);
      },
      static_cast<double>(size));
}

std::optional<Error> load_gguf(PlanRequest& request, const std::string& base_folder, std::string& io_failure) {
  auto* in = std::get_if<EstimateInput>(&request);
  if (in == nullptr || in->gguf.empty() || in->model_info) return std::nullopt;
  const std::filesystem::path given(in->gguf);
  const std::string path = given.is_absolute() || base_folder.empty() ? in->gguf
                                                                      : (std::filesystem::path(base_folder) / given).string();
  auto info = read_gguf_file(path, io_failure);
  if (!io_failure.empty()) return info.error();
  if (!info) return info.error();
  in->model_info = std::move(info).value();
  return std::nullopt;
}

}  // namespace heteropipe::cli
