// heteropipe._core.run_cli: the native command line (heteropipe::cli::run)
// writing into Python objects, so that the Python `heteropipe` command gives
// the native binary's bytes, exit status and errors.
#include <optional>
#include <ostream>
#include <streambuf>
#include <string>
#include <utility>
#include <vector>

#include "bindings.hpp"
#include "heteropipe/cli/cli.hpp"
#include "strings.hpp"

namespace heteropipe::python {
namespace {

// Hands what run() writes, in chunks, to a sink: a Python object with
// write(bytes) and flush(). An exception from the sink fails the stream, so
// run() reports the output as unwritable, as the native CLI does when its
// stdout fails.
class SinkBuffer : public std::streambuf {
 public:
  explicit SinkBuffer(py::object sink) : sink_(std::move(sink)), chunk_(kChunkBytes) { reset(); }

  // An exception that is not an Exception (KeyboardInterrupt, SystemExit)
  // is not a write failure: it is raised again once run() returns.
  std::optional<py::error_already_set> interruption;

 protected:
  int_type overflow(int_type c) override {
    if (!forward()) return traits_type::eof();
    if (!traits_type::eq_int_type(c, traits_type::eof())) {
      *pptr() = traits_type::to_char_type(c);
      pbump(1);
    }
    return traits_type::not_eof(c);
  }

  int sync() override { return forward() && call("flush") ? 0 : -1; }

 private:
  static constexpr std::size_t kChunkBytes = 64 * 1024;

  void reset() { setp(chunk_.data(), chunk_.data() + chunk_.size()); }

  bool forward() {
    const auto size = static_cast<std::size_t>(pptr() - pbase());
    reset();
    return size == 0 ? !failed_ : call("write", chunk_.data(), size);
  }

  // Runs while run() has released the GIL, and takes it for the call.
  // write(bytes) with the given bytes, or flush() without.
  bool call(const char* method, const char* bytes = nullptr, std::size_t size = 0) {
    if (failed_) return false;
    py::gil_scoped_acquire gil;
    try {
      if (bytes) sink_.attr(method)(py::bytes(bytes, size));
      else sink_.attr(method)();
    } catch (py::error_already_set& e) {
      if (!e.matches(PyExc_Exception) && !interruption) interruption.emplace(e);
      failed_ = true;
    }
    return !failed_;
  }

  py::object sink_;
  std::vector<char> chunk_;
  bool failed_ = false;
};

int run_cli(const py::sequence& args, py::object out, py::object err) {
  std::vector<std::string> words;
  for (py::handle arg : args) words.push_back(utf8_of(arg));
  SinkBuffer out_buffer(std::move(out)), err_buffer(std::move(err));
  int status = 0;
  {
    std::ostream out_stream(&out_buffer), err_stream(&err_buffer);
    py::gil_scoped_release no_gil;  // the core's work needs no Python
    status = cli::run(words, out_stream, err_stream);
    out_stream.flush();
    err_stream.flush();
  }
  for (SinkBuffer* buffer : {&out_buffer, &err_buffer}) {
    if (buffer->interruption) throw *buffer->interruption;
  }
  return status;
}

}  // namespace

void bind_cli(py::module_& m) {
  m.def("run_cli", &run_cli, py::arg("args"), py::arg("out"), py::arg("err"),
        "Runs the heteropipe command line on args (str or bytes, without the program name), writing bytes to "
        "out and err (objects with write(bytes) and flush()); returns the exit status.");
}

}  // namespace heteropipe::python
