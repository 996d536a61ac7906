#include "marshal.hpp"

#include <array>
#include <cstring>
#include <string>

namespace heteropipe::wasm {
namespace {

std::array<std::vector<double>, 3> list_buffers;

// Past this many values a buffer is given back once a smaller request comes.
constexpr std::size_t kKeepValues = std::size_t{1} << 16;

void fit(std::vector<double>& buffer, double wanted) {
  const auto length = static_cast<std::size_t>(wanted);
  if (length > buffer.size()) {
    buffer.resize(length);
  } else if (buffer.size() > kKeepValues && length < buffer.size() / 4) {
    std::vector<double>(length).swap(buffer);
  }
}

double address_of(const void* p) { return static_cast<double>(reinterpret_cast<std::uintptr_t>(p)); }

}  // namespace

val error_object(const Error& error) {
  val e = val::object();
  e.set("code", std::string(error_code_name(error.code)));
  e.set("field", std::string(field_name(error.field)));
  e.set("index", static_cast<double>(error.index));
  e.set("value", error.value);
  e.set("token", error.token);
  return e;
}

Reply fail(const Error& error) {
  Reply reply;
  reply.error = error_object(error);
  return reply;
}

Reply succeed(val value) {
  Reply reply;
  reply.value = std::move(value);
  return reply;
}

val list_views(double tau_length, double d_length, double batches_length) {
  const double lengths[] = {tau_length, d_length, batches_length};
  // Every resize first: growing memory detaches views made before it.
  for (std::size_t i = 0; i < list_buffers.size(); ++i) fit(list_buffers[i], lengths[i]);
  val views = val::array();
  for (const auto& buffer : list_buffers) views.call<void>("push", view_of(buffer));
  return views;
}

Result<std::vector<double>> read_list(List list, double length, Field field, double max_items) {
  const auto& buffer = list_buffers[static_cast<std::size_t>(list)];
  if (length > max_items || length > static_cast<double>(buffer.size())) {
    return Error{ErrorCode::too_many, field, kWholeField, length, {}};
  }
  return std::vector<double>(buffer.begin(), buffer.begin() + static_cast<std::ptrdiff_t>(length));
}

val to_float64_array(const std::vector<double>& values) { return view_of(values).call<val>("slice"); }

val view_of(const std::vector<double>& values) {
  return val(emscripten::typed_memory_view(values.size(), values.data()));
}

void RecordWriter::put(const char* name, double kind, double a, double b) {
  records.insert(records.end(), {address_of(name), static_cast<double>(std::strlen(name)), kind, a, b});
}

void RecordWriter::operator()(const char* name, const std::vector<double>& x) {
  put(name, 2, static_cast<double>(out.size()), static_cast<double>(x.size()));
  out.insert(out.end(), x.begin(), x.end());
}

void RecordWriter::finish() {
  out.insert(out.end(), records.begin(), records.end());
  out.push_back(static_cast<double>(records.size() / 5));
}

void RecordWriter::operator()(const char* name, std::string_view x) {
  put(name, 3, address_of(x.data()), static_cast<double>(x.size()));
}

}  // namespace heteropipe::wasm
