import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hp } from './support.mjs';

// The core's number rules (docs/cli.md), the same table as tests/python/test_number_forms.py: every
// interface reads typed text by the one parser, so the module agrees with the CLI and Python.
const NUMBER_FORMS = [
  ['+5', 5], ['.5', 0.5], ['5.', 5], ['\u00a05\u00a0', 5], ['\uff15', 5], ['+.5e+1', 5], ['\uff11\uff45\uff13', 1000],
  ['-0', 0], ['0e-400', 0], ['0x10', 'not_a_number'], ['1_000', 'not_a_number'], ['5e', 'not_a_number'],
  ['.', 'not_a_number'], ['inf', 'not_a_number'], ['nan', 'not_a_number'], ['1,000', 'not_a_number'],
  ['1e-400', 'too_small'], ['-1e-310', 'too_small'], ['1e400', 'too_large'],
];

test('number forms: signs, dots, blanks, full-width digits read; hex, underscores, a lone e refused', () => {
  for (const [typed, expected] of NUMBER_FORMS) {
    if (typeof expected === 'number') {
      assert.equal(hp.parseNumber(typed, 'T_real'), expected, typed);
    } else {
      assert.throws(() => hp.parseNumber(typed, 'T_real'), { code: expected, field: 'T_real', token: typed }, typed);
    }
  }
});
