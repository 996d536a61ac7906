"""An analysis's per-stage lists are FloatSequences: read-only sequences that
read the result's memory in place, and behave as the lists of their values
wherever a reader of the reference's lists looks (index, slice, len,
iteration, ==, list(...), repr)."""

import gc
import json
import unittest
from array import array
from collections.abc import Sequence

import heteropipe
from heteropipe import FloatSequence, Pipeline

TAU = [0.5, 1.0, 1.0, 5.0]
D = [0.2, 0.1, 0.3]
SIGMA = [t + d for t, d in zip(TAU, D)] + [TAU[-1]]
SLACK = [5.0 - t for t in TAU[:-1]]
MARGIN = [s - d for s, d in zip(SLACK, D)]


class Behaviour(unittest.TestCase):
    def setUp(self):
        self.a = Pipeline(TAU, D).analyze(16)
        self.sigma = self.a["sigma"]

    def test_values(self):
        a = self.a
        self.assertEqual([a["tau"], a["d"], a["sigma"], a["link_slack"], a["link_margin"]],
                         [TAU, D, SIGMA, SLACK, MARGIN])
        self.assertEqual(list(a["sigma"]), [0.7, 1.1, 1.3, 5.0])
        self.assertEqual(a["sigma"].tolist(), SIGMA)

    def test_indexing_and_slices(self):
        s = self.sigma
        self.assertEqual((len(s), s[0], s[3], s[-1], s[-4]), (4, 0.7, 5.0, 5.0, 0.7))
        for index in (4, -5, 2 ** 62):
            with self.subTest(index=index), self.assertRaises(IndexError):
                s[index]
        for part in (slice(1, 3), slice(None, None, -1), slice(None, None, 2), slice(5, 9), slice(-2, None)):
            with self.subTest(part=part):
                self.assertIsInstance(s[part], FloatSequence)
                self.assertEqual(s[part], SIGMA[part])
        with self.assertRaises(TypeError):
            s["0"]

    def test_iteration_and_containment(self):
        s = self.sigma
        self.assertEqual([x for x in s], SIGMA)
        self.assertEqual(list(reversed(s)), SIGMA[::-1])
        self.assertEqual(sum(s), sum(SIGMA))
        self.assertIn(5, s)
        self.assertNotIn(4.0, s)
        self.assertIsInstance(s, Sequence)

    def test_equality(self):
        s = self.sigma
        self.assertTrue(s == SIGMA and SIGMA == s and s == s[:])
        self.assertFalse(s != SIGMA)
        self.assertEqual(self.a["d"], [0.2, 0.1, 0.3])
        self.assertEqual(Pipeline([1, 2]).analyze(4)["tau"], [1, 2])  # ints compare as numbers do
        for other in (SIGMA[:-1], SIGMA + [1.0], [0.7, 1.1, 1.3, 5.5], ["0.7", 1.1, 1.3, 5.0]):
            with self.subTest(other=other):
                self.assertNotEqual(s, other)
                self.assertNotEqual(other, s)
        self.assertNotEqual(s, tuple(SIGMA))  # as a list is not equal to a tuple
        self.assertNotEqual(s, None)
        with self.assertRaises(TypeError):
            hash(s)

    def test_read_only(self):
        s = self.sigma
        with self.assertRaises(TypeError):
            s[0] = 1.0
        view = memoryview(s)
        self.assertEqual((view.format, view.readonly, view.tolist()), ("d", True, SIGMA))
        with self.assertRaises(TypeError):
            view[0] = 1.0

    def test_repr_is_the_lists(self):
        self.assertEqual(repr(self.sigma), repr(SIGMA))
        self.assertEqual(repr(Pipeline([1]).analyze(2)["d"]), "[]")
        self.assertEqual(json.dumps(self.a, default=list), json.dumps({k: (list(v) if isinstance(v, FloatSequence)
                                                                          else v) for k, v in self.a.items()}))

    def test_outlives_the_pipeline_and_the_source(self):
        source = array("d", TAU)
        tau = heteropipe.analyze(source, D, 16)["tau"]
        source[0] = 9.0
        del source
        gc.collect()
        self.assertEqual(tau, TAU)
        self.assertEqual(Pipeline(TAU).analyze(8)["tau"][1:], TAU[1:])

    def test_the_derived_lists_are_computed_when_read(self):
        # sigma, link_slack and link_margin hold the pipeline, not arrays of
        # their own: they outlive the pipeline and the result, and memoryview
        # (which needs an array) gets the same values as indexing.
        a = Pipeline(TAU, D).analyze(16)
        sigma, slack, margin = a["sigma"], a["link_slack"], a["link_margin"]
        del a
        gc.collect()
        self.assertEqual((sigma, slack, margin), (SIGMA, SLACK, MARGIN))
        self.assertEqual([memoryview(x).tolist() for x in (sigma, slack, margin)], [SIGMA, SLACK, MARGIN])
        self.assertEqual([list(reversed(x)) for x in (sigma, slack, margin)], [SIGMA[::-1], SLACK[::-1], MARGIN[::-1]])
        self.assertEqual(memoryview(Pipeline([2.0]).analyze(3)["link_margin"]).tolist(), [])


class AtAMillionStages(unittest.TestCase):
    def test_values_at_the_ends(self):
        n = 10 ** 6
        tau = array("d", [1.0]) * n
        tau[n // 2] = 3.0
        a = Pipeline(tau).analyze(100)
        self.assertEqual((len(a["tau"]), len(a["d"]), len(a["link_slack"])), (n, n - 1, n - 1))
        self.assertEqual((a["sigma"][n // 2], a["link_slack"][0], a["link_slack"][n // 2], a["link_margin"][-1]),
                         (3.0, 2.0, 0.0, 2.0))
        self.assertEqual(memoryview(a["tau"]).tobytes(), tau.tobytes())


if __name__ == "__main__":
    unittest.main()
