#include "number_buffer.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "errors.hpp"
#include "heteropipe/limits.hpp"
#include "heteropipe/parse.hpp"
#include "strings.hpp"

namespace heteropipe::python {
namespace {

// A buffer whose view is released however the reading ends.
class View {
 public:
  explicit View(py::handle obj) {
    held_ = PyObject_GetBuffer(obj.ptr(), &view_, PyBUF_RECORDS_RO) == 0;
    if (!held_) {
      // Not an error of the argument: it just has no layout readable here.
      if (!PyErr_ExceptionMatches(PyExc_Exception)) throw py::error_already_set();
      PyErr_Clear();
    }
  }
  ~View() {
    if (held_) PyBuffer_Release(&view_);
  }
  View(const View&) = delete;
  View& operator=(const View&) = delete;

  bool held() const { return held_; }
  const Py_buffer& operator*() const { return view_; }

 private:
  Py_buffer view_{};
  bool held_ = false;
};

enum class Kind { real, signed_integer, unsigned_integer, boolean };

struct Format {
  Kind kind;
  bool swapped;  // stored in the other byte order than this machine's
};

// A struct-module format of one number ("d", "<f", ">q", "=H", ...), or nullopt.
std::optional<Format> format_of(const char* text) {
  std::string_view f = text ? text : "B";
  bool big_endian_data = false, explicit_order = false;
  if (!f.empty() && std::string_view("@=<>!").find(f.front()) != std::string_view::npos) {
    explicit_order = f.front() == '<' || f.front() == '>' || f.front() == '!';
    big_endian_data = f.front() == '>' || f.front() == '!';
    f.remove_prefix(1);
  }
  if (f.size() != 1) return std::nullopt;
  const bool big_endian_machine = PY_BIG_ENDIAN != 0;
  const bool swapped = explicit_order && big_endian_data != big_endian_machine;
  switch (f.front()) {
    case 'd': case 'f': return Format{Kind::real, swapped};
    case 'b': case 'h': case 'i': case 'l': case 'q': case 'n': return Format{Kind::signed_integer, swapped};
    case 'B': case 'H': case 'I': case 'L': case 'Q': case 'N': return Format{Kind::unsigned_integer, swapped};
    case '?': return Format{Kind::boolean, swapped};
    default: return std::nullopt;
  }
}

// One item of `size` bytes at `at` as a double.
double number_at(const char* at, Py_ssize_t size, const Format& format) {
  unsigned char bytes[8];
  std::memcpy(bytes, at, static_cast<std::size_t>(size));
  if (format.swapped) {
    for (Py_ssize_t i = 0; i < size / 2; ++i) std::swap(bytes[i], bytes[size - 1 - i]);
  }
  if (format.kind == Kind::real) {
    if (size == 8) {
      double x;
      std::memcpy(&x, bytes, 8);
      return x;
    }
    float x;
    std::memcpy(&x, bytes, 4);
    return x;
  }
  std::uint64_t bits = 0;  // the item zero- or sign-extended to 64 bits
  std::memcpy(&bits, bytes, static_cast<std::size_t>(size));  // little-endian machine order
  if (PY_BIG_ENDIAN) bits >>= 8 * (8 - size);
  if (format.kind == Kind::unsigned_integer) return static_cast<double>(bits);
  const int unused = 64 - 8 * static_cast<int>(size);
  return static_cast<double>(static_cast<std::int64_t>(bits << unused) >> unused);
}

bool size_fits(Kind kind, Py_ssize_t size) {
  if (kind == Kind::real) return size == 8 || size == 4;
  return size == 1 || size == 2 || size == 4 || size == 8;
}

}  // namespace

std::optional<std::vector<double>> numbers_from_buffer(py::handle obj, Field field) {
  if (!PyObject_CheckBuffer(obj.ptr())) return std::nullopt;
  const View view(obj);
  if (!view.held()) return std::nullopt;
  const Py_buffer& v = *view;
  if (v.ndim != 1) raise(Error{ErrorCode::not_a_number, field, kWholeField, 0.0, short_repr(obj)});
  const std::optional<Format> format = format_of(v.format);
  if (!format || !size_fits(format->kind, v.itemsize)) return std::nullopt;
  // Some exporters (ctypes) leave shape or strides out for a contiguous buffer.
  const Py_ssize_t count = v.shape ? v.shape[0] : v.len / v.itemsize;
  // One item past the limit is enough for the core to name it.
  const Py_ssize_t n = std::min<Py_ssize_t>(count, limits::kMaxStages + 1);
  const Py_ssize_t stride = v.strides ? v.strides[0] : v.itemsize;
  const char* data = static_cast<const char*>(v.buf);
  if (format->kind == Kind::boolean && n > 0) {
    raise(Error{ErrorCode::not_a_number, field, 0, 0.0, *data ? "True" : "False"});
  }
  std::vector<double> values;
  values.reserve(static_cast<std::size_t>(n));  // written once, never zeroed first
  const bool aligned = reinterpret_cast<std::uintptr_t>(data) % alignof(double) == 0;
  if (format->kind == Kind::real && v.itemsize == 8 && !format->swapped && stride == 8 && aligned) {
    const auto* first = reinterpret_cast<const double*>(data);
    values.insert(values.end(), first, first + n);  // one copy
  } else {
    for (Py_ssize_t i = 0; i < n; ++i) values.push_back(number_at(data + i * stride, v.itemsize, *format));
  }
  // A subnormal item (5e-324, a float32's 1e-45) is the core's checks' too_small, as in a list.
  return values;
}

}  // namespace heteropipe::python
