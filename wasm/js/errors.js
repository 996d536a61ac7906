// The error every failed call throws. Its message is the core's English
// sentence (text::describe in C++); nothing here words an error.
export class HeteropipeError extends Error {
  constructor(info) {
    super(info.message);
    this.code = info.code;
    this.field = info.field;
    this.index = info.index;
    this.value = info.value;
    this.limit = info.limit;
    this.token = info.token;
    // The sentence without the field's name ("item 2: must be >= 0 (got -1)"),
    // for a caller that names the field in its own words.
    this.detail = info.detail;
    // A matrix's error (service_matrix, link_matrix): index is the row and
    // column the column, null for a whole row or the whole matrix.
    if (info.column !== undefined) this.column = info.column;
    // A trace file's wrong_type (token is the file's label): the value as typed.
    if (info.typed !== undefined) this.typed = info.typed;
    // What would fit, on an estimate that no split fits (field 'memory').
    if (info.fits_quant !== undefined) {
      this.fits_quant = info.fits_quant;
      this.fits_with_device = info.fits_with_device < 0 ? null : info.fits_with_device;
    }
    // Every error the call found, this one first; a list of one when it is
    // alone (plan reports each bad key of its input).
    this.errors = [this];
    const more = info.errors || [];
    for (let k = 1; k < more.length; k++) this.errors.push(new HeteropipeError(errorInfo(more[k])));
  }
}
HeteropipeError.prototype.name = 'HeteropipeError';
// The class's own name too (the bundle is minified), as consoles show it.
Object.defineProperty(HeteropipeError, 'name', { value: 'HeteropipeError' });

// A core error as the public ErrorInfo: `index` is null for the whole field.
export function errorInfo(e) {
  if (e.index < 0) e.index = null;
  if (e.column < 0) e.column = null;
  return e;
}
