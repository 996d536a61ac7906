"""The core's number rules (docs/cli.md), the same table as tests/js/number-forms.test.mjs: every interface reads
typed text by the one parser, so Python agrees with the CLI and the npm module."""

import unittest

from heteropipe import HeteropipeError, parse_number

NUMBER_FORMS = [
    ("+5", 5), (".5", 0.5), ("5.", 5), ("\u00a05\u00a0", 5), ("\uff15", 5), ("+.5e+1", 5), ("\uff11\uff45\uff13", 1000),
    ("-0", 0), ("0e-400", 0), ("0x10", "not_a_number"), ("1_000", "not_a_number"), ("5e", "not_a_number"),
    (".", "not_a_number"), ("inf", "not_a_number"), ("nan", "not_a_number"), ("1,000", "not_a_number"),
    ("1e-400", "too_small"), ("-1e-310", "too_small"), ("1e400", "too_large"),
]


class NumberForms(unittest.TestCase):
    def test_signs_dots_blanks_full_width_read_hex_underscores_refused(self):
        for typed, expected in NUMBER_FORMS:
            with self.subTest(typed=typed):
                if isinstance(expected, str):
                    with self.assertRaises(HeteropipeError) as caught:
                        parse_number(typed, "T_real")
                    self.assertEqual((caught.exception.code, caught.exception.field, caught.exception.token),
                                     (expected, "T_real", typed))
                else:
                    self.assertEqual(parse_number(typed, "T_real"), expected)


if __name__ == "__main__":
    unittest.main()
