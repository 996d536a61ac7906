"""The whole public API against hostile values: each raises HeteropipeError
(a ValueError) with the core's code, the field and the item, and a message
that is valid text; never OverflowError, TypeError, RuntimeError,
SystemError or UnicodeEncodeError. One table: every entry point that takes a
field, crossed with every hostile value, each with the code it must give."""

import math
import numbers
import unittest
from array import array
from decimal import Decimal
from fractions import Fraction

import heteropipe
import heteropipe.core as core
from heteropipe import HeteropipeError, Pipeline
from support import native_cli, run

P = Pipeline([0.5, 1, 1, 5], [4.6, 0.1, 0.1])  # Appendix B, configuration 8: has overlap headroom
HUGE = 10 ** 400
LONGER_THAN_REPR = 10 ** 5000  # more digits than int -> str allows (sys.get_int_max_str_digits)


class FloatFails:
    def __float__(self):
        raise RuntimeError("no float today")


class RealFloatFails(FloatFails):
    """Claims to be a real number, then fails to convert."""


numbers.Real.register(RealFloatFails)


class IntFails(int):
    def __int__(self):
        raise RuntimeError("no int today")

    def __index__(self):
        raise RuntimeError("no index today")


class ReprFails:
    def __repr__(self):
        raise RuntimeError("no repr today")


class IterFails:
    def __iter__(self):
        raise RuntimeError("no iterator today")


def fails_after(*items):
    """A generator that yields items, then raises."""
    yield from items
    raise RuntimeError("stopped midway")


class Fresh:
    """A value made anew for each call (a generator is used up by one)."""

    def __init__(self, make):
        self.make = make


def made(value):
    return value.make() if isinstance(value, Fresh) else value


# Hostile values for a count (M, points), which must be an int: (label, value, code).
COUNTS = [
    ("None", None, "not_integer"),
    ("True", True, "not_integer"),
    ("complex", 1j, "not_integer"),
    ("Decimal", Decimal("2"), "not_integer"),
    ("Fraction", Fraction(2), "not_integer"),
    ("float", 8.0, "not_integer"),
    ("-0.0", -0.0, "not_integer"),
    ("nan", math.nan, "not_finite"),
    ("inf", math.inf, "not_finite"),
    ("-inf", -math.inf, "not_finite"),
    ("str", "8", "not_integer"),
    ("bytes", b"8", "not_integer"),
    ("object", object(), "not_integer"),
    ("repr fails", ReprFails(), "not_integer"),
    ("int whose __int__ fails", IntFails(3), "not_integer"),
    ("zero", 0, "out_of_range"),
    ("huge", HUGE, "out_of_range"),
    ("-huge", -HUGE, "out_of_range"),
    ("longer than repr", LONGER_THAN_REPR, "out_of_range"),
]

# Hostile values for a real number (rho, T_real), whose range is not the question.
# Past the double range a field names its own bound: rho its range, T_real
# 1e15 above and > 0 below (as the native CLI says for 1e400 typed as text).
PAST_RANGE = {"rho": "out_of_range", "T_real": "too_large"}
BELOW_RANGE = {"rho": "out_of_range", "T_real": "not_positive"}

REALS = [
    ("None", None, "not_a_number"),
    ("True", True, "not_a_number"),
    ("False", False, "not_a_number"),
    ("complex", 1j, "not_a_number"),
    ("Decimal NaN", Decimal("NaN"), "not_finite"),
    ("Decimal sNaN", Decimal("sNaN"), "not_a_number"),
    ("Decimal 1e400", Decimal("1e400"), "not_finite"),
    ("Fraction 10**400", Fraction(HUGE), PAST_RANGE),
    ("huge", HUGE, PAST_RANGE),
    ("-huge", -HUGE, BELOW_RANGE),
    ("longer than repr", LONGER_THAN_REPR, PAST_RANGE),
    ("nan", math.nan, "not_finite"),
    ("inf", math.inf, "not_finite"),
    ("-inf", -math.inf, "not_finite"),
    ("text", "x", "not_a_number"),
    ("text 1e400", "1e400", PAST_RANGE),
    ("bytes", b"x", "not_a_number"),
    ("bytes not UTF-8", b"\xff", "not_a_number"),
    ("bytes overlong", b"\xc1\x81", "not_a_number"),
    ("lone surrogate", "\ud800", "not_a_number"),
    ("blank text", " ", "empty"),
    ("list", [0.5], "not_a_number"),
    ("object", object(), "not_a_number"),
    ("__float__ fails", FloatFails(), "not_a_number"),
    ("Real whose __float__ fails", RealFloatFails(), "not_a_number"),
    ("repr fails", ReprFails(), "not_a_number"),
]

# Out of range for each real field, given as a plain number.
RANGES = {
    "rho": [("above 1", 1.5, "out_of_range"), ("below 0", -0.1, "out_of_range")],
    "T_real": [("zero", 0, "not_positive"), ("-0.0", -0.0, "not_positive"), ("negative", -1, "not_positive"),
               ("above 1e15", 2e15, "too_large")],
    "points": [("one", 1, "out_of_range"), ("10,001", 10_001, "out_of_range"), ("10**30", 10 ** 30, "out_of_range")],
}

# Hostile values for a list (tau, d): (label, value, code, index). Those
# marked RANGE are judged by the core's range checks, which a bare list
# reader (parse_number_list) does not make.
RANGE = "range"
LISTS = [
    ("int", 5, "not_a_number", None),
    ("float", 1.5, "not_a_number", None),
    ("complex", 1j, "not_a_number", None),
    ("Decimal", Decimal("1"), "not_a_number", None),
    ("object", object(), "not_a_number", None),
    ("__iter__ fails", IterFails(), "not_a_number", None),
    ("text", "1, x", "not_a_number", 1),
    ("empty item", "1,,2", "empty_item", 1),
    ("bytes", b"1, x", "not_a_number", 1),
    ("bytes not UTF-8", b"1,\xff", "not_a_number", 1),
    # Overlong UTF-8 ('A' as C1 81, NUL as E0 80 80) and past U+10FFFF: each byte escaped; the
    # message held them as typed (lone surrogates here, which no UTF-8 text can hold).
    ("bytes overlong", b"1,\xc1\x81", "not_a_number", 1),
    ("bytes overlong NUL", b"1,\xe0\x80\x80", "not_a_number", 1),
    ("bytes past U+10FFFF", b"1,\xf4\x90\x80\x80", "not_a_number", 1),
    ("lone surrogate", "1,\ud800", "not_a_number", 1),
    ("None item", [1, None], "not_a_number", 1),
    ("bool item", [1, True], "not_a_number", 1),
    ("complex item", [1, 2j], "not_a_number", 1),
    ("huge item", [1, HUGE], "too_large", 1),
    ("-huge item", [1, -HUGE], "negative", 1),
    ("longer than repr item", (1, LONGER_THAN_REPR), "too_large", 1),
    ("Fraction 10**400 item", [1, Fraction(HUGE)], "too_large", 1),
    ("nan item", [1, math.nan], "not_finite", 1, RANGE),
    ("inf item", [1, math.inf], "not_finite", 1, RANGE),
    ("Decimal sNaN item", [1, Decimal("sNaN")], "not_a_number", 1),
    ("__float__ fails item", [1, FloatFails()], "not_a_number", 1),
    ("repr fails item", [1, ReprFails()], "not_a_number", 1),
    ("object item", (1, object()), "not_a_number", 1),
    ("text item", [1, "x"], "not_a_number", 1),
    ("bytes item not UTF-8", [1, b"\xff"], "not_a_number", 1),
    ("surrogate item", ["1", "\ud800"], "not_a_number", 1),
    ("negative item", [1, -2], "negative", 1, RANGE),
    ("generator fails midway", Fresh(lambda: fails_after(1, 2)), "not_a_number", 2),
    ("generator of a bad item", Fresh(lambda: (x for x in [1, "y"])), "not_a_number", 1),
    ("array with nan", array("d", [1, math.nan]), "not_finite", 1, RANGE),
    ("buffer of bools", memoryview(array("b", [1, 0])).cast("?"), "not_a_number", 0),
]

# Where each field is taken: (entry point, a function of the hostile value).
COUNT_ENTRIES = {
    "M": [
        ("Pipeline.free", P.free), ("Pipeline.async_", P.async_), ("Pipeline.block", P.block),
        ("Pipeline.gpipe", P.gpipe), ("Pipeline.overlap_gap", P.overlap_gap),
        ("Pipeline.overestimate", P.overestimate), ("Pipeline.analyze", P.analyze),
        ("Pipeline.recurrence", P.recurrence), ("Pipeline.timeline", P.timeline), ("Pipeline.curve", P.curve),
        ("Pipeline.overlap_ratio", lambda M: P.overlap_ratio(88.0, M)),
        ("Pipeline.sandwich_position", lambda M: P.sandwich_position(88.0, M)),
        ("core.makespan_free", lambda M: core.makespan_free([1, 2], M)),
        ("core.makespan_async", lambda M: core.makespan_async([1, 2], M)),
        ("core.makespan_blocking", lambda M: core.makespan_blocking([1, 2], M)),
        ("core.gpipe_makespan", lambda M: core.gpipe_makespan([1, 2], M)),
        ("core.overlap_gap", lambda M: core.overlap_gap([1, 2], M)),
        ("core.overlap_ratio", lambda M: core.overlap_ratio([1, 2], 5.0, M)),
        ("analyze", lambda M: heteropipe.analyze([1, 2], M=M)),
    ],
    "points": [("Pipeline.curve", lambda n: P.curve(8, points=n))],
}

# Where None is the default (no T_real, the default rho), None is no error.
NONE_IS_DEFAULT = "None is the default"
REAL_ENTRIES = {
    "rho": [
        ("Pipeline.slope", P.slope), ("Pipeline.analyze", lambda x: P.analyze(8, rho=x), NONE_IS_DEFAULT),
        ("core.effective_slope", lambda x: core.effective_slope([1, 2], x)),
        ("analyze", lambda x: heteropipe.analyze([1, 2], rho=x)),
        ("parse_number", lambda x: heteropipe.parse_number(x, "rho")),
    ],
    "T_real": [
        ("Pipeline.overlap_ratio", lambda x: P.overlap_ratio(x, 16)),
        ("Pipeline.sandwich_position", lambda x: P.sandwich_position(x, 16)),
        ("Pipeline.analyze", lambda x: P.analyze(16, T_real=x), NONE_IS_DEFAULT),
        ("core.overlap_ratio", lambda x: core.overlap_ratio([1, 2], x, 3)),
        ("analyze", lambda x: heteropipe.analyze([1, 2], T_real=x), NONE_IS_DEFAULT),
        ("parse_number", lambda x: heteropipe.parse_number(x, "T_real")),
    ],
}

LIST_ENTRIES = {
    "tau": [
        ("Pipeline", Pipeline), ("core.homogeneity_bias", core.homogeneity_bias),
        ("core.validate_pipeline", core.validate_pipeline), ("analyze", heteropipe.analyze),
        ("parse_number_list", heteropipe.parse_number_list),
    ],
    "d": [
        ("Pipeline", lambda d: Pipeline([1, 2, 3], d)),
        ("core.makespan_async", lambda d: core.makespan_async([1, 2, 3], 4, d)),
        ("analyze", lambda d: heteropipe.analyze([1, 2, 3], d)),
        ("parse_number_list", lambda d: heteropipe.parse_number_list(d, "d")),
    ],
}


def rows():
    """(entry, field, label, call, code, index) for every case of the table."""
    for field, entries in COUNT_ENTRIES.items():
        for entry, function in entries:
            for label, value, code in COUNTS + RANGES.get(field, []):
                yield entry, field, label, (lambda f=function, v=value: f(v)), code, None
    for field, entries in REAL_ENTRIES.items():
        for entry, function, *none_is_default in entries:
            # parse_number reads a number; whether it is finite and in range is
            # the caller's to check.
            reads_only = entry == "parse_number"
            for label, value, code in REALS + ([] if reads_only else RANGES[field]):
                if (value is None and none_is_default) or (reads_only and code == "not_finite"):
                    continue
                yield entry, field, label, (lambda f=function, v=value: f(v)), \
                    code[field] if isinstance(code, dict) else code, None
    for field, entries in LIST_ENTRIES.items():
        for entry, function in entries:
            for label, value, code, index, *judged in LISTS:
                if judged and entry == "parse_number_list":
                    continue
                yield entry, field, label, (lambda f=function, v=value: f(made(v))), code, index


class EveryEntryEveryHostileValue(unittest.TestCase):
    def test_the_table(self):
        count = 0
        for entry, field, label, call, code, index in rows():
            with self.subTest(entry=entry, field=field, value=label):
                count += 1
                with self.assertRaises(HeteropipeError) as caught:
                    call()
                e = caught.exception
                self.assertIsInstance(e, ValueError)
                self.assertEqual((e.code, e.field, e.index), (code, field, index))
                message = str(e)
                message.encode("utf-8")  # valid text: no lone surrogate escapes into it
                self.assertTrue(message.startswith(field + (f", item {index + 1}: " if index is not None else ": ")),
                                message)
                self.assertTrue(math.isfinite(e.value))
                self.assertIsInstance(e.token, str)
        self.assertGreater(count, 900)

    def test_None_where_a_list_is_optional_or_required(self):
        self.assertEqual(Pipeline([1, 2], None).d, (0.0,))
        for call in (lambda: Pipeline(None), lambda: heteropipe.analyze(None)):
            with self.assertRaises(HeteropipeError) as caught:
                call()
            self.assertEqual((caught.exception.code, caught.exception.field, str(caught.exception)),
                             ("empty", "tau", "tau: needs at least one value"))
        with self.assertRaises(HeteropipeError) as caught:
            heteropipe.parse_number_list(None)
        self.assertEqual(str(caught.exception),
                         "tau: must be a list of numbers or a text list like '1, 2.5, 3' (got None)")


class WhatTheMessagesSay(unittest.TestCase):
    def message(self, call):
        with self.assertRaises(HeteropipeError) as caught:
            call()
        return caught.exception

    def test_huge_ints_are_quoted_as_given(self):
        head = "1" + "0" * 39 + "..."
        # As the native CLI says for 1e400 typed as text (tests/cli/golden).
        self.assertEqual(str(self.message(lambda: P.slope(HUGE))), f"rho: must be between 0 and 1 (got {head})")
        self.assertEqual(str(self.message(lambda: P.overlap_ratio(HUGE, 8))),
                         f"T_real: must be at most 1e15 (got {head})")
        self.assertEqual(str(self.message(lambda: P.async_(HUGE))), f"M: must be between 1 and 2^53 (got {head})")
        self.assertEqual(str(self.message(lambda: Pipeline([1, -HUGE]))),
                         f"tau, item 2: must be >= 0 (got -{head[:-4]}...)")
        e = self.message(lambda: P.async_(LONGER_THAN_REPR))
        self.assertEqual((e.code, e.token), ("out_of_range", head))
        self.assertEqual(self.message(lambda: P.slope(ReprFails())).token, "<ReprFails object>")

    def test_a_lone_surrogate_is_named_and_escaped(self):
        for call in (lambda: Pipeline("1,\ud800"), lambda: Pipeline(["1", "\ud800"])):
            e = self.message(call)
            self.assertEqual((e.code, e.field, e.index, e.token), ("not_a_number", "tau", 1, "\ud800"))
            self.assertEqual(str(e), "tau, item 2: '\\ud800' is not a number")
        self.assertEqual(str(self.message(lambda: P.slope("0.\udfff"))), "rho: '0.\\udfff' is not a number")

    def test_bytes_not_UTF8_are_named_and_escaped(self):
        e = self.message(lambda: Pipeline(b"1, 2\xff"))
        self.assertEqual((e.code, e.index, e.token), ("not_a_number", 1, "2\udcff"))
        self.assertEqual(str(e), "tau, item 2: '2\\u00ff' is not a number")

    def test_the_exception_of_an_argument_is_kept_as_the_cause(self):
        e = self.message(lambda: Pipeline(fails_after(1, 2, 3)))
        self.assertEqual((e.code, e.index, e.token), ("not_a_number", 3, "RuntimeError('stopped midway')"))
        self.assertIsInstance(e.__cause__, RuntimeError)
        e = self.message(lambda: Pipeline([1, FloatFails()]))
        self.assertIsInstance(e.__cause__, RuntimeError)
        e = self.message(lambda: P.slope(RealFloatFails()))
        self.assertIsInstance(e.__cause__, RuntimeError)

    def test_an_interruption_is_not_an_input_error(self):
        def interrupted():
            yield 1
            raise KeyboardInterrupt

        class FloatInterrupted:
            def __float__(self):
                raise KeyboardInterrupt

        with self.assertRaises(KeyboardInterrupt):
            Pipeline(interrupted())
        with self.assertRaises(KeyboardInterrupt):
            Pipeline([1, FloatInterrupted()])

    def test_points_as_the_cli_says(self):
        # heteropipe --tau 1,2 --curve 1e5: "error: points: must be between 2 and 10,000 (got 1e5)".
        p = Pipeline([1, 2])
        self.assertEqual(str(self.message(lambda: p.curve(8, points=10 ** 5))),
                         "points: must be between 2 and 10,000 (got 100000)")
        self.assertEqual(str(self.message(lambda: p.curve(8, points=10 ** 30))),
                         "points: must be between 2 and 10,000 (got 1000000000000000000000000000000)")
        self.assertEqual(str(self.message(lambda: p.curve(8, points=1))),
                         "points: must be between 2 and 10,000 (got 1)")
        self.assertEqual(self.message(lambda: p.curve(8, points=1)).limit, 2)
        self.assertEqual(self.message(lambda: p.curve(8, points=10 ** 5)).limit, 10_000)
        self.assertEqual(str(self.message(lambda: p.curve(8, points=1.5))), "points: must be a whole number (got 1.5)")
        self.assertEqual(str(self.message(lambda: p.curve(8, points="x"))), "points: must be a whole number (got 'x')")
        self.assertEqual(str(self.message(lambda: p.curve(8, points=True))),
                         "points: must be a whole number (got True)")
        # The bounds themselves are accepted, and give what the CLI's --curve gives.
        self.assertEqual(p.curve(8, points=2)["M"].tolist(), [1.0, 3.0, 8.0])
        cli = native_cli(self)
        for M, points in ((8, 2), (10 ** 6, 10_000), (10 ** 6, 9_999)):
            with self.subTest(M=M, points=points):
                csv = run([cli, "--tau", "1,2", "--M", str(M), "--curve", str(points)])
                self.assertEqual(csv.returncode, 0, csv.stderr)
                rows = [line.split(",") for line in csv.stdout.splitlines()[1:]]
                curve = p.curve(M, points=points)
                self.assertEqual([float(row[0]) for row in rows], curve["M"].tolist())
                self.assertEqual([float(row[2]) for row in rows], curve["T_async"].tolist())

    def test_field_names_are_checked(self):
        for field in ("x", None, b"tau"):
            with self.subTest(field=field), self.assertRaises(ValueError) as caught:
                heteropipe.parse_number("1", field)
            self.assertNotIsInstance(caught.exception, HeteropipeError)

    def test_read_request_takes_text(self):
        for kwargs, field in (({"tau": None}, "tau"), ({"tau": "1", "d": 5}, "d"), ({"tau": "1", "M": 8}, "M"),
                              ({"tau": "1", "rho": 0.5}, "rho"), ({"tau": "1", "T_real": 3.0}, "T_real")):
            with self.subTest(kwargs=kwargs), self.assertRaises(HeteropipeError) as caught:
                heteropipe.read_request(**kwargs)
            self.assertEqual((caught.exception.code, caught.exception.field, caught.exception.index),
                             ("not_a_number", field, None))
        read = heteropipe.read_request(b"1,\xff", "", "8", "1", None)
        self.assertEqual([(e["code"], e["index"], e["message"]) for e in read["errors"]],
                         [("not_a_number", 1, "tau, item 2: '\\u00ff' is not a number")])


class ParseNumber(unittest.TestCase):
    def test_text_and_numbers(self):
        self.assertEqual(heteropipe.parse_number(b" 0.5 ", "rho"), 0.5)
        self.assertEqual(heteropipe.parse_number("\uff10\uff0e\uff15", "rho"), 0.5)  # full-width digits
        self.assertEqual(heteropipe.parse_number(Fraction(1, 4), "rho"), 0.25)
        self.assertEqual(heteropipe.parse_number(Decimal("0.1"), "T_real"), 0.1)
        self.assertEqual(heteropipe.parse_number(math.inf, "rho"), math.inf)  # read, not judged
        for x in ("-0", -0.0, b"-0"):
            with self.subTest(x=x):
                self.assertEqual(math.copysign(1, heteropipe.parse_number(x, "rho")), 1.0)
        self.assertEqual(heteropipe.parse_number_list([1, "2", b"3"], "d"), [1.0, 2.0, 3.0])
        self.assertEqual(heteropipe.parse_number_list(b"1\xef\xbc\x8c2"), [1.0, 2.0])  # UTF-8 full-width comma
        # A list is read, not judged: ranges are the Pipeline's to check.
        self.assertEqual(heteropipe.parse_number_list([1, -2]), [1.0, -2.0])


if __name__ == "__main__":
    unittest.main()
