#include "heteropipe/cli/gzip.hpp"

#include <zlib.h>

namespace heteropipe::io {

bool is_gzip(std::string_view bytes) {
  return bytes.size() >= 2 && static_cast<unsigned char>(bytes[0]) == 0x1f &&
         static_cast<unsigned char>(bytes[1]) == 0x8b;
}

Result<std::string> inflate_if_gzip(std::string bytes, std::string_view label, double limit) {
  if (!is_gzip(bytes)) return bytes;
  z_stream stream{};
  if (inflateInit2(&stream, 15 + 16) != Z_OK) {
    return Error{ErrorCode::out_of_memory, Field::trace, 0, 0, std::string(label)};
  }
  std::string out;
  // The byte of the whole file where inflating stopped (total_in restarts with each member).
  auto refuse = [&](ErrorCode code, double value, double bound) {
    const auto at = static_cast<std::int64_t>(bytes.size() - stream.avail_in);
    inflateEnd(&stream);
    return Error{code, Field::trace, at, value, std::string(label), bound};
  };
  stream.next_in = reinterpret_cast<Bytef*>(bytes.data());
  stream.avail_in = static_cast<uInt>(bytes.size());
  char chunk[1 << 16];
  for (;;) {
    stream.next_out = reinterpret_cast<Bytef*>(chunk);
    stream.avail_out = sizeof chunk;
    const int status = inflate(&stream, Z_NO_FLUSH);
    if (status != Z_OK && status != Z_STREAM_END) return refuse(ErrorCode::bad_gzip, 0, 0);
    const std::size_t produced = sizeof chunk - stream.avail_out;
    if (static_cast<double>(out.size() + produced) > limit) {
      return refuse(ErrorCode::too_large, static_cast<double>(out.size() + produced), limit);
    }
    out.append(chunk, produced);
    if (status == Z_STREAM_END) {
      // Another member may follow (gzip files can be concatenated); anything
      // else after the data is named as such, from its first byte.
      if (stream.avail_in == 0) break;
      if (!is_gzip(std::string_view(reinterpret_cast<const char*>(stream.next_in), stream.avail_in))) {
        return refuse(ErrorCode::bad_gzip, kGzipTrailingData, 0);
      }
      if (inflateReset(&stream) != Z_OK) return refuse(ErrorCode::bad_gzip, 0, 0);
    } else if (stream.avail_in == 0 && produced == 0) {
      return refuse(ErrorCode::bad_gzip, 0, 0);  // cut short
    }
  }
  inflateEnd(&stream);
  return out;
}

}  // namespace heteropipe::io
