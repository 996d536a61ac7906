"""Number-likes as values: numpy's scalars and 0-d arrays, and objects that
say how they read as a float (__float__) or an int (__index__), are read as
the numbers they are; booleans, complex numbers and arrays of items are
refused with the core's code, naming the field (and the item, in a list).
numpy is used where it is installed; the stand-ins below play its part
where it is not, so every case runs either way."""

import unittest

from heteropipe import HeteropipeError, Pipeline

try:
    import numpy
except ImportError:  # the stand-ins below are the number-likes then
    numpy = None


class FloatLike:
    """Reads as a float, as numpy's float32 does, and is no registered Real."""

    def __init__(self, x):
        self.x = x

    def __float__(self):
        return float(self.x)


class IndexLike:
    """Reads as an int, as a 0-d integer array does, and is no registered Integral."""

    def __init__(self, n):
        self.n = n

    def __index__(self):
        return self.n

    def __float__(self):
        return float(self.n)


class BoolLike:
    """Stands in for numpy.bool_: its type's module and name are numpy's."""

    def __init__(self, b):
        self.b = b

    def __index__(self):
        return int(self.b)

    def __float__(self):
        return float(self.b)


BoolLike.__module__ = "numpy"
BoolLike.__name__ = "bool_"


class ArrayLike(FloatLike):
    """An array of several items: no single number."""
    ndim = 1


P = Pipeline([0.5, 1, 1, 5], [4.6, 0.1, 0.1])


def number_likes():
    if numpy is not None:
        return {"int": numpy.int64(8), "int0d": numpy.array(8), "real": numpy.float32(0.5),
                "real0d": numpy.array(0.5), "bool": numpy.bool_(True), "complex": numpy.complex128(0.5),
                "array": numpy.array([0.5, 0.5]), "fraction0d": numpy.array(8.5)}
    return {"int": IndexLike(8), "int0d": IndexLike(8), "real": FloatLike(0.5), "real0d": FloatLike(0.5),
            "bool": BoolLike(True), "complex": 0.5 + 0j, "array": ArrayLike(0.5), "fraction0d": FloatLike(8.5)}


class NumberLikes(unittest.TestCase):
    def setUp(self):
        self.x = number_likes()

    def code_of(self, call):
        with self.assertRaises(HeteropipeError) as caught:
            call()
        return caught.exception

    def test_accepted_as_the_numbers_they_are(self):
        self.assertEqual(P.async_(self.x["int"]), P.async_(8))
        self.assertEqual(P.blocking(self.x["int0d"]), P.blocking(8))
        self.assertEqual(P.slope(self.x["real"]), P.slope(0.5))
        self.assertEqual(P.slope(self.x["real0d"]), P.slope(0.5))
        self.assertEqual(P.slope(IndexLike(1)), P.slope(1.0))
        self.assertEqual(P.overlap_ratio(self.x["real0d"] if numpy is None else numpy.float64(40), 8),
                         P.overlap_ratio(0.5 if numpy is None else 40.0, 8))
        self.assertEqual(Pipeline([self.x["real"], IndexLike(2)]).tau, (0.5, 2.0))

    def test_refused_coded(self):
        e = self.code_of(lambda: P.slope(self.x["bool"]))
        self.assertEqual((e.code, e.field, e.index), ("not_a_number", "rho", None))
        e = self.code_of(lambda: P.slope(self.x["complex"]))
        self.assertEqual((e.code, e.field), ("not_a_number", "rho"))
        e = self.code_of(lambda: P.slope(self.x["array"]))
        self.assertEqual((e.code, e.field), ("not_a_number", "rho"))
        e = self.code_of(lambda: P.async_(self.x["bool"]))
        self.assertEqual((e.code, e.field), ("not_integer", "M"))
        e = self.code_of(lambda: P.async_(self.x["fraction0d"]))
        self.assertEqual((e.code, e.field), ("not_integer", "M"))
        e = self.code_of(lambda: P.async_(self.x["array"]))
        self.assertEqual((e.code, e.field), ("not_integer", "M"))

    def test_list_items_refused_coded_with_their_index(self):
        e = self.code_of(lambda: Pipeline([1.0, self.x["bool"], 2.0]))
        self.assertEqual((e.code, e.field, e.index), ("not_a_number", "tau", 1))
        e = self.code_of(lambda: Pipeline([1.0, 2.0], [self.x["complex"]]))
        self.assertEqual((e.code, e.field, e.index), ("not_a_number", "d", 0))
        if numpy is not None:  # numpy's own complex type, no subclass of Python's
            e = self.code_of(lambda: Pipeline([numpy.complex64(1), 2.0]))
            self.assertEqual((e.code, e.field, e.index), ("not_a_number", "tau", 0))


if __name__ == "__main__":
    unittest.main()
