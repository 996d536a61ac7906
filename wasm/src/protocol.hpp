#pragma once

// The one record format of the boundary, in both directions. JavaScript
// mirrors these numbers in wasm/js/protocol.js (tests/js/parity.test.mjs holds
// the two equal); nothing else about a request or a reply is agreed on in
// advance: fields are found by name.
//
// A record is kRecordDoubles doubles: kind, name, name length, a, b, c.
//
// A request (written by the wrapper into a staging area that stage() made):
//   double 0   the bytes staged: the whole request, or only its records and
//              strings when its lists and texts did not fit in memory
//   double 1   the number of records
//   then the records; names, tokens, lists and texts are byte offsets from
//   the start of the area (an offset of 0: not copied, because too long).
//
// A reply (written by the Writer, read by the wrapper at the address an
// operation returns): the Reply header (reply.hpp), then records whose texts
// and lists are addresses in wasm memory, kept until release(). A reply's
// record names its field by its index in the module's table of field names
// (reply.hpp's field_name; -1: none), with c the address of the name's text,
// which the wrapper reads once per index.
namespace heteropipe::wasm {

inline constexpr int kRecordDoubles = 6;
inline constexpr int kStagingHeaderDoubles = 2;

enum class Kind {
  number = 1,   // a: the value
  integer = 2,  // a: the value, a whole number
  boolean = 3,  // a: 0 or 1
  text = 4,     // a: where its UTF-8 bytes are; b: how many
  list = 5,     // a: where its doubles are; b: how many
  object = 6,   // a: how many records after this one are its fields (nested ones included)
  objects = 7,  // a: how many records after this one are its items, each an object record
  token = 8,    // requests only: how JS wrote the non-number value of field `name`
                // (a: where, b: bytes; c: the item, or -1 for the whole field)
  null_value = 9,  // replies only: a number or list that is absent (JS null)
  tuples = 10,     // replies only: a: how many records after this one are its items, each a tuple record
  tuple = 11,      // replies only: a: how many records after this one are its elements, each a
                   // number, integer, boolean, text or null_value record
};

}  // namespace heteropipe::wasm
