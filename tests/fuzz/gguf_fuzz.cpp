// A GGUF file, read in the ranges the reader asks for (as the CLI and the
// page read a file), then its facts planned over two catalog GPUs. The input
// is 8 bytes (little-endian: how many bytes, zeros, the file has past the
// rest, at most 2^40: the weights the reader never reads) then the file's
// leading bytes, so a seed holds its header only.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <variant>

#include "fuzz_support.hpp"
#include "heteropipe/plan/gguf.hpp"
#include "heteropipe/plan/read_json.hpp"
#include "heteropipe/plan/report.hpp"
#include "heteropipe/text/plan_text.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace heteropipe;
  if (size < 8) return 0;
  std::uint64_t tail = 0;
  for (int i = 7; i >= 0; --i) tail = tail << 8 | data[i];
  tail &= (std::uint64_t{1} << 40) - 1;
  const std::string_view head = fuzz::bytes(data + 8, size - 8);
  const double file_size = static_cast<double>(head.size() + tail);
  std::string file;
  int asked = 0;
  auto info = read_gguf_through(
      [&](double need) -> Result<std::string_view> {
        fuzz::finite(need, "need");
        // Each step asks for more than it has, so a file's header takes a few steps.
        if (++asked > 64) fuzz::fail("a reader that keeps asking", "need");
        if (!(need > 0)) fuzz::fail("a step that asks for no bytes", "need");
        // The zeros past the head are made only as far as asked (a header past 1 MiB is cut there).
        const double have = std::min({need, file_size, static_cast<double>(head.size()) + (1 << 20)});
        file.assign(head.substr(0, static_cast<std::size_t>(have)));
        file.resize(static_cast<std::size_t>(have), '\0');
        return std::string_view(file);
      },
      file_size);
  if (!info) {
    fuzz::check_error(info.error());
    return 0;
  }
  fuzz::check_result(info.value());
  PlanJson read = read_plan_json(
      R"({"gguf": "x.gguf", "devices": ["rtx-4090", "rtx-3090"], "phase": "decode", "context": 4096, "M": 1})");
  if (!read.errors.empty()) std::abort();
  std::get<EstimateInput>(read.request).model_info = std::move(info).value();
  const auto report = make_plan_report(read.request);
  if (report) fuzz::check_result(report.value());
  else fuzz::check_error(report.error());
  return 0;
}
