// The wasm is inlined in this file (load.js hands the glue its bytes), so
// loading it never needs the network. Shadowing fetch inside the glue makes
// sure that nothing in it, whatever the build's settings, ever tries the
// network or a URL (which a Content-Security-Policy without connect-src
// would report as a violation).
var fetch;
