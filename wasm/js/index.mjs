// The ESM entry: the same single module as `require('heteropipe')`, so one
// copy of the wasm serves both.
import load from './heteropipe.js';

export const HeteropipeError = load.HeteropipeError;
export default load;
