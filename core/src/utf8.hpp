#pragma once

#include <string>
#include <string_view>

namespace heteropipe {

// Bytes from a file as UTF-8, as every front end must show them: each
// malformed sequence (a stray byte, an overlong form, a surrogate, a
// sequence cut short) becomes U+FFFD by the WHATWG Encoding Standard's UTF-8
// decoder (https://encoding.spec.whatwg.org/#utf-8-decoder), which a
// browser's TextDecoder follows, so the CLI, Python and the module give the
// same text; the bytes themselves would abort a JSON writer. A GGUF file's
// strings, a trace's range names.
std::string as_utf8(std::string_view bytes);

}  // namespace heteropipe
