# Drops whole-line // comments and indentation from the JS wrapper before it is
# appended to the module (Emscripten copies --extern-post-js verbatim), to keep
# the single-file module small. Usage: cmake -DIN=... -DOUT=... -P strip-comments.cmake
file(READ "${IN}" text)
set(text "\n${text}")
string(REGEX REPLACE "\n[ \t]*//[^\n]*" "" text "${text}")
string(REGEX REPLACE "\n[ \t]+" "\n" text "${text}")
string(REGEX REPLACE "^\n" "" text "${text}")
file(WRITE "${OUT}" "${text}")
