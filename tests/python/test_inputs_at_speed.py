"""How lists arrive: bytes as UTF-8 text through the core's parser; buffers
of numbers (array.array, memoryview, ctypes and numpy arrays) read by their
format, in any byte order and stride; per-stage results made only when asked
for; and -0 as 0 everywhere."""

import ctypes
import json
import math
import unittest
from array import array

import heteropipe
from heteropipe import HeteropipeError, Pipeline

TAU = [0.5, 1.0, 1.0, 5.0]
D = [4.6, 0.1, 0.1]
EXPECTED = Pipeline(TAU, D)


class Bytes(unittest.TestCase):
    def test_bytes_are_UTF8_text(self):
        self.assertEqual(Pipeline(b"1,2"), Pipeline("1,2"))
        self.assertEqual(Pipeline(b"1,2").tau, (1.0, 2.0))
        self.assertEqual(Pipeline(bytearray(b"0.5 1 1 5"), b"4.6;0.1;0.1"), EXPECTED)
        # Full-width digits and the ideographic comma, as UTF-8 bytes.
        self.assertEqual(Pipeline("０.5、1、1、5".encode("utf-8")).tau, tuple(TAU))
        self.assertEqual(heteropipe.analyze(b"0.5,1,1,5", b"4.6,0.1,0.1", 16), EXPECTED.analyze(16))
        self.assertEqual(Pipeline([b"0.5", "1", 1, 5.0]).tau, tuple(TAU))

    def test_bytes_that_are_not_UTF8_name_the_item(self):
        for text, index, token, shown in ((b"1,\xff", 1, "\udcff", "\\u00ff"), (b"\xc3(, 2", 0, "\udcc3(", "\\u00c3("),
                                          (b"1 2 3\xe2\x80", 2, "3\udce2\udc80", "3\\u00e2\\u0080")):
            with self.subTest(text=text), self.assertRaises(HeteropipeError) as caught:
                Pipeline(text)
            e = caught.exception
            self.assertEqual((e.code, e.field, e.index, e.token), ("not_a_number", "tau", index, token))
            self.assertEqual(str(e), f"tau, item {index + 1}: '{shown}' is not a number")
            str(e).encode("utf-8")


class Buffers(unittest.TestCase):
    def test_every_number_format_of_array(self):
        for code in "bBhHiIlLqQfd":
            with self.subTest(format=code):
                values = array(code, [0, 1, 2, 5])
                self.assertEqual(Pipeline(values).tau, (0.0, 1.0, 2.0, 5.0))
                self.assertEqual(Pipeline(memoryview(values)).tau, (0.0, 1.0, 2.0, 5.0))
        self.assertEqual(Pipeline(array("f", TAU), array("f", [0.25, 0.5, 0.125])).d, (0.25, 0.5, 0.125))
        self.assertEqual(Pipeline(array("f", [0.1])).tau, (float(array("f", [0.1])[0]),))  # float32's own value

    def test_signs_and_extremes_of_integers(self):
        for code, low, high in (("b", -128, 127), ("h", -32768, 32767), ("i", -2 ** 31, 2 ** 31 - 1),
                                ("q", -2 ** 63, 2 ** 63 - 1)):
            with self.subTest(format=code):
                self.assertEqual(heteropipe.parse_number_list(array(code, [low, high, -1, 0])),
                                 [float(low), float(high), -1.0, 0.0])
        for code in "BHIQ":
            top = 2 ** (8 * array(code).itemsize) - 1
            with self.subTest(format=code):
                self.assertEqual(heteropipe.parse_number_list(array(code, [top, 1])), [float(top), 1.0])
        with self.assertRaises(HeteropipeError) as caught:
            Pipeline(array("q", [1, -3]))
        self.assertEqual((caught.exception.code, caught.exception.index, str(caught.exception)),
                         ("negative", 1, "tau, item 2: must be >= 0 (got -3)"))

    def test_byte_order_and_stride(self):
        big = (ctypes.c_double.__ctype_be__ * 4)(*TAU)
        little = (ctypes.c_double.__ctype_le__ * 4)(*TAU)
        self.assertEqual((memoryview(big).format, memoryview(little).format), (">d", "<d"))
        self.assertEqual(Pipeline(big).tau, tuple(TAU))
        self.assertEqual(Pipeline(little).tau, tuple(TAU))
        self.assertEqual(Pipeline((ctypes.c_uint16.__ctype_be__ * 3)(1, 258, 65535)).tau, (1.0, 258.0, 65535.0))
        self.assertEqual(heteropipe.parse_number_list((ctypes.c_int32.__ctype_be__ * 2)(-1, 7)), [-1.0, 7.0])
        self.assertEqual(Pipeline((ctypes.c_float * 2)(0.5, 2)).tau, (0.5, 2.0))
        every_other = memoryview(array("d", [0.5, 99, 1, 99, 1, 99, 5]))[::2]
        self.assertFalse(every_other.c_contiguous)
        self.assertEqual(Pipeline(every_other), Pipeline(TAU))
        backwards = memoryview(array("d", TAU[::-1]))[::-1]
        self.assertEqual(Pipeline(backwards, memoryview(array("i", [0, 0, 9]))[::-1]).d, (9.0, 0.0, 0.0))
        self.assertEqual(Pipeline(memoryview(array("d", TAU))[1:3]).tau, (1.0, 1.0))
        misaligned = memoryview(b"\x00" + array("d", TAU).tobytes())[1:].cast("d")
        self.assertEqual(Pipeline(misaligned).tau, tuple(TAU))

    def test_other_layouts_are_read_item_by_item_or_refused(self):
        self.assertEqual(Pipeline(array("u", "15")).tau, (1.0, 5.0))  # characters, as list("15") gives
        self.assertEqual(Pipeline(memoryview(b"15").cast("c")).tau, (1.0, 5.0))
        grid = memoryview(array("d", range(1, 7))).cast("B").cast("d", shape=[2, 3])
        for bad, field, index in ((grid, "tau", None), ((ctypes.c_bool * 2)(True, False), "tau", 0),
                                  (memoryview(array("B", [0, 1])).cast("?"), "tau", 0)):
            with self.subTest(bad=bad), self.assertRaises(HeteropipeError) as caught:
                Pipeline(bad)
            self.assertEqual((caught.exception.code, caught.exception.field, caught.exception.index),
                             ("not_a_number", field, index))
        with self.assertRaises(HeteropipeError) as caught:
            Pipeline((ctypes.c_bool * 2)(False, True))
        self.assertEqual(str(caught.exception), "tau, item 1: 'False' is not a number")

    def test_a_buffer_past_the_stage_limit_is_refused_by_the_core(self):
        too_many = heteropipe.LIMITS["max_stages"] + 5
        with self.assertRaises(HeteropipeError) as caught:
            Pipeline(memoryview(bytes(8 * too_many)).cast("d"))
        self.assertEqual((caught.exception.code, str(caught.exception)), ("too_many", "tau: at most 10,000,000 values"))

    def test_a_list_changed_while_it_is_read(self):
        values = [1.0, 2.0, 3.0]

        class Shrinks:
            def __float__(self):
                values.clear()
                return 4.0

        values.insert(1, Shrinks())
        self.assertEqual(Pipeline(values).tau, (1.0, 4.0))  # read up to where the list now ends


class ResultsMadeWhenAskedFor(unittest.TestCase):
    def test_per_stage_tuples_of_the_reference(self):
        p = Pipeline(array("d", TAU), D)
        self.assertIs(type(p.tau), tuple)
        self.assertIs(type(p.d), tuple)
        self.assertIs(type(p.sigma), tuple)
        self.assertEqual((p.tau, p.d, p.sigma), (tuple(TAU), tuple(D), (5.1, 1.1, 1.1, 5.0)))
        self.assertIs(p.tau, p.tau)  # made once
        self.assertEqual(p, EXPECTED)
        self.assertEqual(hash(p), hash(EXPECTED))
        self.assertNotEqual(p, Pipeline(TAU))
        self.assertNotEqual(Pipeline([1, 2]), Pipeline([1, 2, 0]))

    def test_analyze_without_the_lists(self):
        full = EXPECTED.analyze(16, 0.5, 88)
        scalars = EXPECTED.analyze(16, 0.5, 88, lists=False)
        per_stage = ["tau", "d", "sigma", "link_slack", "link_margin"]
        self.assertEqual(scalars, {key: value for key, value in full.items() if key not in per_stage})
        self.assertEqual(list(scalars), [key for key in full if key not in per_stage])
        self.assertEqual(heteropipe.analyze(TAU, D, 16, lists=False),
                         {key: value for key, value in EXPECTED.analyze(16).items() if key not in per_stage})

    def test_the_lists_are_sequences_read_in_place(self):
        a = Pipeline([1.0, 3.0, 3.0, 2.0]).analyze(8)
        self.assertEqual((a["tau"], a["d"], a["sigma"]), ([1.0, 3.0, 3.0, 2.0], [0.0, 0.0, 0.0], [1.0, 3.0, 3.0, 2.0]))
        self.assertEqual((a["link_slack"], a["link_margin"]), ([2.0, 0.0, 0.0], [2.0, 0.0, 0.0]))
        for key in ("tau", "d", "sigma", "link_slack", "link_margin"):
            self.assertIsInstance(a[key], heteropipe.FloatSequence)
        self.assertEqual(json.loads(json.dumps(a, default=list))["sigma"], [1.0, 3.0, 3.0, 2.0])


class NegativeZero(unittest.TestCase):
    def test_no_negative_zero_anywhere(self):
        def zeros(value, where):
            if isinstance(value, float) and value == 0:
                self.assertEqual(math.copysign(1.0, value), 1.0, where)
            elif isinstance(value, (list, tuple, heteropipe.FloatSequence)):
                for i, item in enumerate(value):
                    zeros(item, f"{where}[{i}]")
            elif isinstance(value, dict):
                for key, item in value.items():
                    zeros(item, f"{where}.{key}")

        a = heteropipe.analyze(tau=[-0.0, 1], d=[-0.0], rho=-0.0)
        self.assertEqual((a["tau"], a["d"], a["rho"], a["effective_slope"]), ([0.0, 1.0], [0.0], 0.0, 1.0))
        zeros(a, "analyze")
        self.assertNotIn("-0", json.dumps(a, default=list))
        for tau, d in (([-0.0, 1], [-0.0]), ("-0, 1", "-0"), (b"-0 1", b"-0.0"),
                       (array("d", [-0.0, 1]), array("d", [-0.0]))):
            with self.subTest(tau=tau):
                p = Pipeline(tau, d)
                zeros((p.tau, p.d, p.sigma), "pipeline")
                b = p.analyze(4, rho=-0.0, T_real=4.0)
                zeros(b, "Pipeline.analyze")
                self.assertNotIn("-0", json.dumps(b, default=list))


if __name__ == "__main__":
    unittest.main()
