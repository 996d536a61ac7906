"""The reference's documented API and values, unchanged, on the C++ core."""

import inspect
import math
import unittest

import heteropipe
import heteropipe.core as core
from heteropipe import HeteropipeError, Pipeline


class ReadmeQuickStart(unittest.TestCase):
    def test_legalone_pipeline(self):
        p = Pipeline(tau=[1.13, 2.90, 2.62])
        self.assertAlmostEqual(p.bias(), 2.05, places=12)
        # Theorem 2: sum(tau) + (M-1) tau_max = 6.65 + 99 * 2.9.
        self.assertAlmostEqual(p.async_(M=100), 293.75, places=9)
        self.assertIs(p.phase(), False)
        self.assertAlmostEqual(p.crossover(), 1 + 6.65 / 2.9, places=12)
        self.assertEqual((p.S, p.tau_max, p.sigma_max), (3, 2.9, 2.9))
        self.assertEqual(p.sigma, (1.13, 2.9, 2.62))
        self.assertEqual(p.tau, (1.13, 2.9, 2.62))
        self.assertEqual(p.d, (0.0, 0.0))
        self.assertAlmostEqual(p.free(M=1), 6.65, places=12)
        self.assertAlmostEqual(p.gpipe(M=1), 8.7, places=12)
        self.assertAlmostEqual(p.full_bias(), 2.05, places=12)

    def test_with_communication(self):
        p = Pipeline(tau=[0.5, 1, 1, 5], d=[0.2, 0.1, 0.3])
        # sum(tau) + sum(d) = 8.1, slope tau_max = 5, sigma_max = 5 as well.
        self.assertAlmostEqual(p.async_(M=16), 83.1, places=9)
        self.assertAlmostEqual(p.block(M=16), 83.1, places=9)
        self.assertEqual(p.overlap_gap(M=16), 0.0)
        self.assertIs(p.phase(), False)
        self.assertEqual(p.slope(rho=0.8), 5.0)
        self.assertEqual(p.throughput(blocking=True), 0.2)
        self.assertEqual(p.throughput(), 0.2)
        # No headroom (T_block == T_async): the reference returns 1.0.
        self.assertEqual(p.overlap_ratio(T_real=42.0, M=16), 1.0)
        self.assertAlmostEqual(p.full_bias(), 12.5 - 0.6, places=12)

    def test_overlap_ratio_with_headroom(self):
        p = Pipeline(tau=[0.5, 1, 1, 5], d=[4.6, 0.1, 0.1])  # Appendix B, configuration 8
        T_async, T_block = p.async_(16), p.block(16)
        self.assertAlmostEqual(T_async, 87.3, places=9)
        self.assertAlmostEqual(T_block, 88.8, places=9)
        self.assertAlmostEqual(p.overlap_ratio(T_real=88.0, M=16), (88.8 - 88) / 1.5, places=9)
        self.assertAlmostEqual(p.overlap_ratio(T_real=T_async, M=16), 1.0, places=12)
        self.assertAlmostEqual(p.overlap_ratio(T_real=T_block, M=16), 0.0, places=12)
        self.assertEqual(p.sandwich_position(T_real=88.0, M=16), "inside")
        self.assertEqual(p.sandwich_position(T_real=80.0, M=16), "below_async")
        self.assertAlmostEqual(p.slope(rho=0.5), 5.05, places=12)

    def test_analyze_has_every_reference_key_in_order(self):
        a = Pipeline(tau=[1.13, 2.90, 2.62]).analyze(M=100)
        reference_keys = ["S", "M", "tau", "d", "tau_max", "sigma_max", "T_free", "T_async", "T_block",
                          "T_gpipe", "homogeneity_bias", "full_bias", "phase_transition", "overlap_gap",
                          "effective_slope", "asymptotic_throughput_async", "asymptotic_throughput_blocking",
                          "crossover_batches"]
        self.assertEqual(list(a)[:len(reference_keys)], reference_keys)
        self.assertIs(type(a["S"]), int)
        self.assertIs(type(a["M"]), int)
        self.assertEqual(a["M"], 100)
        self.assertIs(type(a["bottleneck_stage"]), int)
        self.assertEqual(a["bottleneck_stage"], 1)
        self.assertAlmostEqual(a["homogeneity_bias"], 2.05, places=12)
        self.assertEqual(a["tau"], [1.13, 2.9, 2.62])
        self.assertNotIn("T_real", a)

    def test_analyze_with_rho_and_T_real(self):
        p = Pipeline(tau=[0.5, 1, 1, 5], d=[4.6, 0.1, 0.1])
        a = p.analyze(16, rho=0.5, T_real=88)
        self.assertEqual(a["rho"], 0.5)
        self.assertAlmostEqual(a["effective_slope"], 5.05, places=12)
        self.assertAlmostEqual(a["overlap_ratio"], 0.8 / 1.5, places=9)
        self.assertEqual(a["T_real_position"], "inside")
        self.assertEqual(list(a)[-3:], ["T_real", "overlap_ratio", "T_real_position"])
        # Without headroom the dict follows the core: no overlap_ratio key.
        b = Pipeline(tau=[0.5, 1, 1, 5]).analyze(8, T_real=42.5)
        self.assertNotIn("overlap_ratio", b)
        self.assertEqual(b["T_real_position"], "inside")
        self.assertEqual(heteropipe.analyze([0.5, 1, 1, 5], [4.6, 0.1, 0.1], 16, 0.5, 88), a)


class PureFunctions(unittest.TestCase):
    tau, d = [0.5, 1, 1, 5], [4.6, 0.1, 0.1]

    def test_same_signatures_as_the_reference(self):
        expected = {
            "validate_pipeline": "(tau, d=None)",
            "blocking_sigma": "(tau, d=None)",
            "makespan_free": "(tau, M)",
            "makespan_async": "(tau, M, d=None)",
            "makespan_blocking": "(tau, M, d=None)",
            "gpipe_makespan": "(tau, M)",
            "homogeneity_bias": "(tau)",
            "full_bias_decomposition": "(tau, d=None)",
            "phase_transition": "(tau, d=None)",
            "overlap_gap": "(tau, M, d=None)",
            "effective_slope": "(tau, rho=1.0, d=None)",
            "overlap_ratio": "(tau, T_real, M, d=None, *, strict=False)",
            "asymptotic_throughput": "(tau, d=None, blocking=False)",
            "crossover_batches": "(tau, d=None)",
        }
        for name, signature in expected.items():
            function = getattr(core, name)
            self.assertIs(getattr(heteropipe, name), function)
            params = inspect.signature(function).parameters.values()
            text = "(" + ", ".join(str(p).split(":")[0] + ("=" + repr(p.default) if p.default is not p.empty else "")
                                   if p.kind is not p.KEYWORD_ONLY else "*, " + p.name + "=" + repr(p.default)
                                   for p in params) + ")"
            self.assertEqual(text, signature, name)

    def test_functions_equal_pipeline_methods(self):
        tau, d = self.tau, self.d
        p = Pipeline(tau, d)
        for M in (1, 2, 16, 1000):
            self.assertEqual(core.makespan_free(tau, M), p.free(M))
            self.assertEqual(core.makespan_async(tau, M, d), p.async_(M))
            self.assertEqual(core.makespan_blocking(tau, M, d), p.block(M))
            self.assertEqual(core.gpipe_makespan(tau, M), p.gpipe(M))
            self.assertEqual(core.overlap_gap(tau, M, d), p.overlap_gap(M))
            self.assertEqual(core.overlap_ratio(tau, 80.0 + M, M, d), p.overlap_ratio(80.0 + M, M))
        self.assertEqual(core.homogeneity_bias(tau), 12.5)
        self.assertAlmostEqual(core.full_bias_decomposition(tau, d), 12.5 - 4.8, places=12)
        self.assertIs(core.phase_transition(tau, d), True)
        self.assertEqual(core.effective_slope(tau, 0.0, d), 5.1)
        self.assertEqual(core.effective_slope(tau), 5.0)
        self.assertEqual(core.asymptotic_throughput(tau, d, blocking=True), 1 / 5.1)
        self.assertEqual(core.asymptotic_throughput(tau, d), 0.2)
        self.assertAlmostEqual(core.crossover_batches(tau, d), 1 + 12.3 / 5, places=12)
        self.assertEqual(core.blocking_sigma(tau, d), [5.1, 1.1, 1.1, 5.0])
        self.assertEqual(core.validate_pipeline(tau), ([0.5, 1.0, 1.0, 5.0], [0.0, 0.0, 0.0]))
        self.assertEqual(core.overlap_ratio([1, 2, 3], 10.0, 3), 1.0)  # reference quirk: no headroom
        self.assertEqual(heteropipe.__version__, "0.1.0")

    def test_inputs_as_text_tuples_and_buffers(self):
        from array import array
        expected = Pipeline([0.5, 1, 1, 5], [4.6, 0.1, 0.1])
        self.assertEqual(Pipeline("0.5，1，1，5", "4.6 0.1 0.1"), expected)
        self.assertEqual(Pipeline((0.5, 1, 1, 5), array("d", [4.6, 0.1, 0.1])), expected)
        self.assertEqual(Pipeline(["0.5", "1", 1, 5.0], d=[4.6, 0.1, 0.1]), expected)
        self.assertEqual(hash(Pipeline(tau=[1, 2], d=())), hash(Pipeline([1.0, 2.0])))
        self.assertEqual(heteropipe.parse_number_list("1; 2、3,"), [1.0, 2.0, 3.0])
        self.assertEqual(heteropipe.parse_number(" 8 ", "M"), 8.0)

    def test_pipeline_is_immutable(self):
        p = Pipeline([1, 2])
        with self.assertRaises(AttributeError):
            p.tau = (3.0,)

    def test_results_are_plain_floats(self):
        p = Pipeline([1, 2])
        for value in (p.bias(), p.async_(3), p.slope(), p.crossover()):
            self.assertIs(type(value), float)
            self.assertTrue(math.isfinite(value))


if __name__ == "__main__":
    unittest.main()
