// The sentences of GGUF files' errors (heteropipe/plan/gguf.hpp): each says
// the byte where the problem lies, and the key or tensor it is about.
#include "gguf_text.hpp"

#include "heteropipe/text/numbers.hpp"

namespace heteropipe::text::detail {
namespace {

bool is_gguf_field(Field f) {
  switch (f) {
    case Field::gguf:
    case Field::header_bytes:
    case Field::key_count:
    case Field::tensor_count:
    case Field::string_length:
    case Field::array_length:
    case Field::n_dims:
    case Field::dims:
    case Field::value_type:
    case Field::ggml_type:
      return true;
    default:
      return false;
  }
}

std::string over(const Error& e) { return ", over the limit of " + grouped(e.limit); }

// A count of the file: its exact digits when the reader kept them (past 2^53), else its value.
std::string count(const Error& e) { return e.typed.empty() ? grouped(e.value) : grouped_digits(e.typed); }

std::string what(const Error& e) {
  const std::string name = "'" + quoted(e.token) + "'";
  switch (e.code) {
    case ErrorCode::not_gguf:
      return "does not start with the bytes GGUF, so it is no GGUF file";
    case ErrorCode::unsupported_version:
      return "version " + shortest(e.value) + " is not read (versions 2 and 3 are)";
    case ErrorCode::truncated:
      if (!e.token.empty()) {
        return "tensor " + name + "'s data ends at byte " + grouped(e.value) + ", past the file's end at " +
               grouped(e.limit) + " (was the file cut short?)";
      }
      return "the file ends inside its header, at " + grouped(e.limit) + " bytes (was it cut short?)";
    case ErrorCode::unknown_type:
      if (e.field == Field::ggml_type) {
        return "tensor " + name + " has ggml type " + shortest(e.value) + ", which this reader does not know";
      }
      return "key " + name + " has value type " + shortest(e.value) + ", which GGUF does not define";
    case ErrorCode::too_large:
      switch (e.field) {
        case Field::header_bytes:
          return "the header and tensor table run past " + grouped(e.value) + " bytes" + over(e);
        case Field::key_count: return count(e) + " keys" + over(e);
        case Field::tensor_count: return count(e) + " tensors" + over(e);
        case Field::string_length:
          return "a string of " + count(e) + " bytes" + (e.token.empty() ? "" : " in " + name) + over(e);
        case Field::array_length:
          if (e.value <= e.limit) return "key " + name + " nests arrays more than " + grouped(e.limit) + " deep";
          return "key " + name + " holds an array of " + count(e) + " items" + over(e);
        default:  // n_dims
          return "tensor " + name + " has " + grouped(e.value) + " dimensions" + over(e);
      }
    case ErrorCode::bad_tensor:
      return "tensor " + name + "'s first dimension, " + grouped(e.value) + ", is no whole number of its type's " +
             grouped(e.limit) + "-element blocks";
    case ErrorCode::duplicate_tensor:
      return "tensor " + name + " appears a second time in the tensor table (its bytes would count twice)";
    case ErrorCode::duplicate_key:
      return "key " + name + " appears a second time in the metadata (which of its values holds is not defined, "
             "and ggml refuses such a file)";
    case ErrorCode::unaligned_tensor:
      return "tensor " + name + "'s data offset, " + grouped(e.value) + ", is no multiple of the alignment, " +
             grouped(e.limit);
    case ErrorCode::overlapping_tensors:
      return "tensor " + name + "'s data starts at offset " + grouped(e.value) +
             ", inside another tensor's data, which ends at " + grouped(e.limit);
    case ErrorCode::bad_alignment:
      if (e.field == Field::value_type) {
        return "key " + name + " has value type " + shortest(e.value) + ", but the alignment must be a whole number";
      }
      return "key " + name + ", " + shortest(e.value) + ", is no alignment: GGUF requires a nonzero power of two";
    case ErrorCode::missing_field:
      return "key " + name + " is missing";
    default:
      return std::string(error_code_name(e.code));
  }
}

}  // namespace

std::optional<std::string> describe_gguf_error(const Error& e) {
  // A fact out of its range, as the file gives it (token: its key or tensor;
  // index: its byte). A model object's layers typed out of range is no file's:
  // its token is the number as typed, index none ("GGUF file, byte -1" before).
  if (e.field == Field::layers && !e.token.empty() && e.index != kWholeField) {
    const std::string where = "GGUF file, byte " + grouped(static_cast<double>(e.index)) + ": ";
    if (e.code == ErrorCode::bad_tensor) {
      return where + "tensor '" + quoted(e.token) + "' is in layer " + grouped(e.value) + ", but block_count says " +
             grouped(e.limit) + " layers";
    }
    return where + "'" + quoted(e.token) + "' must be between 1 and " + grouped(e.limit) + " (got " +
           (e.typed.empty() ? shortest(e.value) : e.typed) + ")";
  }
  if (!is_gguf_field(e.field)) return std::nullopt;
  // The plan input's "gguf" key, left unread where files cannot be read.
  if (e.code == ErrorCode::wrong_form) {
    return "gguf: '" + quoted(e.token) + "' is a file, which only the CLI and Python read; elsewhere give "
           "\"model\": the object modelInfo returns";
  }
  if (e.code == ErrorCode::empty) return std::string("gguf: is empty");
  // A fact's key of a type that is no whole number: where the type is given.
  if (e.code == ErrorCode::wrong_type && e.field == Field::value_type) {
    return "GGUF file, byte " + grouped(static_cast<double>(e.index)) + ": key '" + quoted(e.token) +
           "' has value type " + shortest(e.value) + ", but it must be a whole number";
  }
  if (e.code == ErrorCode::wrong_type) return std::nullopt;
  if (e.code == ErrorCode::conflicting_keys) return std::nullopt;
  return "GGUF file, byte " + grouped(static_cast<double>(e.index)) + ": " + what(e);
}

}  // namespace heteropipe::text::detail
