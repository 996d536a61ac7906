// The wasm is inlined in this file (SINGLE_FILE), so loading it never needs
// the network. Emscripten 3.1.6 still tries fetch() on its own data: URL
// first, which a Content-Security-Policy without connect-src data: reports
// as a violation before the glue falls back to decoding the bytes in place.
// Shadowing fetch inside the module makes it decode them straight away.
var fetch;
