// The record format of the boundary, as wasm/src/protocol.hpp defines it
// (tests/js/parity.test.mjs holds the two equal). A record is RECORD doubles:
// kind, name, name length, a, b, c.
export const RECORD = 6;
export const STAGING_HEADER = 2;

export const NUMBER = 1;
export const INTEGER = 2;
export const BOOLEAN = 3;
export const TEXT = 4;
export const LIST = 5;
export const OBJECT = 6;
export const OBJECTS = 7;
export const TOKEN = 8;
export const NULL_VALUE = 9;
export const TUPLES = 10;
export const TUPLE = 11;
