"""The core's number rules (docs/cli.md), the same table as tests/js/number-forms.test.mjs: every interface reads
typed text by the one parser, so Python agrees with the CLI and the npm module."""

import array
import math
import unittest

from heteropipe import LIMITS, HeteropipeError, Pipeline, parse_number

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


class SubnormalFloats(unittest.TestCase):
    """A subnormal given as a float, not typed, is the error the same number typed as text gets (too_small, limit
    min_normal_number): Pipeline([5e-324]) said the largest stage time must be at least 1e-15, and Pipeline([1,
    5e-324]) and d=[5e-324] were read as they were."""

    def assert_too_small(self, call, field, index, token):
        with self.assertRaises(HeteropipeError) as caught:
            call()
        e = caught.exception
        self.assertEqual((e.code, e.field, e.index, e.token, e.limit),
                         ("too_small", field, index, token, LIMITS["min_normal_number"]))
        return e

    def test_lists_tuples_iterables_and_buffers(self):
        tiny = 5e-324
        largest_subnormal = math.nextafter(LIMITS["min_normal_number"], 0)
        self.assertEqual(largest_subnormal, 2.225073858507201e-308)
        cases = [([tiny], [tiny]), ((1.0, tiny), [1.0, tiny]), (iter([1.0, tiny]), [1.0, tiny]),
                 ([1.0, -tiny], [1.0, -tiny]), (array.array("d", [1.0, tiny]), [1.0, tiny]),
                 (memoryview(array.array("d", [1.0, largest_subnormal])), [1.0, largest_subnormal])]
        for given, values in cases:
            with self.subTest(given=repr(given)):
                e = self.assert_too_small(lambda: Pipeline(given), "tau", len(values) - 1, repr(values[-1]))
                with self.assertRaises(HeteropipeError) as as_text:
                    Pipeline(", ".join(repr(x) for x in values))
                self.assertEqual(str(e), str(as_text.exception))
        self.assert_too_small(lambda: Pipeline([1.0, 1.0], d=[tiny]), "d", 0, "5e-324")
        self.assert_too_small(lambda: Pipeline([1.0, 1.0], d=array.array("d", [-tiny])), "d", 0, "-5e-324")
        # A strided buffer (each item read apart, not copied whole) is held to the same rule.
        strided = memoryview(array.array("d", [1.0, 9.0, -largest_subnormal]))[::2]
        self.assert_too_small(lambda: Pipeline(strided), "tau", 1, repr(-largest_subnormal))
        # 0, -0 and the smallest normal double are read.
        self.assertEqual(Pipeline([1.0, 0.0, -0.0, LIMITS["min_normal_number"]]).tau,
                         (1.0, 0.0, 0.0, LIMITS["min_normal_number"]))


if __name__ == "__main__":
    unittest.main()
