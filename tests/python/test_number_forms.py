"""The core's number rules (docs/cli.md), the same table as tests/js/number-forms.test.mjs: every interface reads
typed text by the one parser, so Python agrees with the CLI and the npm module."""

import array
import decimal
import fractions
import math
import unittest

from heteropipe import LIMITS, HeteropipeError, Pipeline, parse_number, plan

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

    def test_rho_and_t_real(self):
        # rho=5e-324 and T_real=Decimal("1e-400") were read (as 5e-324 and 0); the CLI's --rho 5e-324 is too_small.
        p = Pipeline([1.0, 2.0], [0.5])
        self.assert_too_small(lambda: p.analyze(4, rho=5e-324), "rho", None, "5e-324")
        self.assert_too_small(lambda: p.analyze(4, T_real=-5e-324), "T_real", None, "-5e-324")
        self.assert_too_small(lambda: p.overlap_ratio(decimal.Decimal("1e-400"), 4), "T_real", None,
                              "Decimal('1E-400')")
        self.assert_too_small(lambda: p.slope(fractions.Fraction(1, 10 ** 400)), "rho", None,
                              repr(fractions.Fraction(1, 10 ** 400))[:40] + "...")
        with self.assertRaises(HeteropipeError) as as_text:
            p.analyze(4, rho="5e-324")
        with self.assertRaises(HeteropipeError) as as_float:
            p.analyze(4, rho=5e-324)
        self.assertEqual(str(as_float.exception), str(as_text.exception))
        # 0 in any form and the smallest normal double are read.
        for zero in (0.0, -0.0, decimal.Decimal("0E-500"), fractions.Fraction(0)):
            self.assertEqual(p.slope(zero), p.slope(0))
        self.assertEqual(p.slope(LIMITS["min_normal_number"]), p.slope(0))

    def test_plan_dict_decimal_and_fraction(self):
        # A Decimal went through float(): 1E-400 became 0 (the planner's "some layer must take at least 1e-15 ...
        # (got 0)") and 1E+400 infinity; now its digits go as typed, as the CLI reads them from a file.
        def layer_time(value):
            return {"devices": [{"layer_times": [value], "memory_capacity": 1}], "layer_memory": [1]}

        for given, code, token in ((decimal.Decimal("1e-400"), "too_small", "1E-400"),
                                   (decimal.Decimal("5e-324"), "too_small", "5E-324"),
                                   (fractions.Fraction(1, 10 ** 400), "too_small", "1E-400"),
                                   (decimal.Decimal("1e400"), "too_large", "1E+400"),
                                   # float() raised OverflowError, which sent the Fraction as text: wrong_type.
                                   (fractions.Fraction(10 ** 400), "too_large", "1E+400"),
                                   (fractions.Fraction(-(10 ** 400), 3), "negative", "-3.3333333333333333E+399")):
            with self.subTest(given=given):
                with self.assertRaises(HeteropipeError) as caught:
                    plan(layer_time(given))
                e = caught.exception
                self.assertEqual((e.code, e.field, e.index, e.token), (code, "layer_times", 0, token))
                with self.assertRaises(HeteropipeError) as as_text:
                    plan('{"devices": [{"layer_times": [%s], "memory_capacity": 1}], "layer_memory": [1]}' % token)
                self.assertEqual(str(e), str(as_text.exception))
        self.assertEqual(plan(layer_time(decimal.Decimal("1.50")))["stages"][0]["tau"], 1.5)
        self.assertEqual(plan(layer_time(fractions.Fraction(3, 2)))["stages"][0]["tau"], 1.5)

    def test_simulator_lists_name_their_place(self):
        # As the CLI's CSV and options name it; shared=[[0, 5e-324]] said "group 2", the item's place in its group.
        p = Pipeline([1.0, 1.0, 1.0])
        for options, field, index, where in (
                ({"service_matrix": [[1, 1, 1], [1, 5e-324, 1]]}, "service_matrix", 1, "row 2, column 2"),
                ({"service_samples": [[1], [2, 5e-324], [3]]}, "service_samples", 1, "stage 2"),
                ({"shared": [[0, 5e-324]]}, "shared", 0, "group 1"),
                ({"buffers": [1, 5e-324]}, "buffers", 1, "link 2")):
            with self.subTest(field=field):
                e = self.assert_too_small(lambda: p.simulate(2, **options), field, index, "5e-324")
                self.assertTrue(str(e).startswith(field + ", " + where + ": is too small to read"), str(e))

    def test_one_buffer_size_for_every_link(self):
        # buffers=5e-324 said "must be a whole number", 10**400 raised pybind11's uncoded RuntimeError, and
        # True was read as 1; now each is what the same value in a list gives.
        p = Pipeline([1.0, 1.0, 1.0])
        for given in (5e-324, 10 ** 400, -10 ** 400, True):
            with self.subTest(given=repr(given)[:20]):
                with self.assertRaises(HeteropipeError) as alone:
                    p.simulate(2, buffers=given)
                with self.assertRaises(HeteropipeError) as listed:
                    p.simulate(2, buffers=[given])
                self.assertEqual((alone.exception.code, alone.exception.field, alone.exception.index, str(alone.exception)),
                                 (listed.exception.code, "buffers", 0, str(listed.exception)))
        self.assertEqual(alone.exception.code, "not_a_number")
        self.assertEqual(p.simulate(2, buffers=1), p.simulate(2, buffers=[1]))
        # Any number a list takes is one size (they were "must be a list of numbers ... (got 2)").
        one = p.simulate(2, buffers=[2])
        for given in (fractions.Fraction(4, 2), decimal.Decimal("2")):
            with self.subTest(given=given):
                self.assertEqual(p.simulate(2, buffers=given), one)
        with self.assertRaises(HeteropipeError) as huge:
            p.simulate(2, buffers=fractions.Fraction(10 ** 400))
        self.assertEqual((huge.exception.code, huge.exception.index), ("too_large", 0))
        try:
            import numpy
        except ImportError:
            numpy = None
        if numpy is not None:
            for given in (numpy.int64(2), numpy.float32(2), numpy.array(2.0)):
                with self.subTest(given=repr(given)):
                    self.assertEqual(p.simulate(2, buffers=given), one)
            self.assertEqual(p.simulate(2, buffers=numpy.array([2.0, 2.0])), p.simulate(2, buffers=[2, 2]))
            with self.assertRaises(HeteropipeError) as flagged:
                p.simulate(2, buffers=numpy.bool_(True))
            self.assertEqual((flagged.exception.code, flagged.exception.index), ("not_a_number", 0))
        self.assertEqual(p.simulate(2, buffers=float("inf")), p.simulate(2))


if __name__ == "__main__":
    unittest.main()
