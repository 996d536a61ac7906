"""The paper's numbers (docs/model.md): Section 3.1, Section 7.2 and Table 1."""

import unittest

from heteropipe import Pipeline


def overestimate_percent(p, M):
    return round(100 * p.overestimate(M), 1)


class Section31(unittest.TestCase):
    def test_worked_example(self):
        p = Pipeline([0.5, 1, 1, 5])
        self.assertEqual(p.free(1), 7.5)
        self.assertEqual(p.gpipe(1), 20.0)
        self.assertEqual(overestimate_percent(p, 1), 166.7)
        self.assertEqual(p.free(8), 42.5)
        self.assertEqual(p.gpipe(8), 55.0)
        self.assertEqual(overestimate_percent(p, 8), 29.4)
        self.assertEqual(p.bias(), 12.5)
        self.assertEqual(p.crossover(), 2.5)

    def test_bias_is_constant_in_M(self):
        p = Pipeline([0.5, 1, 1, 5])
        for M in (1, 2, 8, 100, 10 ** 6, 2 ** 40):
            self.assertEqual(p.gpipe(M) - p.free(M), 12.5)


class Section72(unittest.TestCase):
    def test_legalone(self):
        p = Pipeline([1.13, 2.90, 2.62])
        self.assertAlmostEqual(p.bias(), 2.05, places=12)
        self.assertEqual(overestimate_percent(p, 1), 30.8)
        self.assertEqual(overestimate_percent(p, 100), 0.7)


class Table1(unittest.TestCase):
    ROWS = [
        ([1, 1, 1, 1], 0.0, 0.0, 0.0),
        ([0.8, 1, 1, 1.2], 0.8, 20.0, 6.5),
        ([0.5, 1, 1, 2], 3.5, 77.8, 18.9),
        ([0.5, 1, 1, 5], 12.5, 166.7, 29.4),
        ([0.1, 0.2, 0.3, 5], 14.4, 257.1, 35.5),
    ]

    def test_rows(self):
        for tau, bias, at_1, at_8 in self.ROWS:
            with self.subTest(tau=tau):
                p = Pipeline(tau)
                self.assertAlmostEqual(p.bias(), bias, places=12)
                self.assertEqual(overestimate_percent(p, 1), at_1)
                self.assertEqual(overestimate_percent(p, 8), at_8)
                a = p.analyze(8)
                self.assertEqual(a["gpipe_overestimate"], p.overestimate(8))


if __name__ == "__main__":
    unittest.main()
