"""Exactness at the edges through the Python package: the core decides each
case (the CLI's goldens, the module's and the pages' tests hold the same)."""

import json
import math
import unittest

import heteropipe
from heteropipe import HeteropipeError, Pipeline


def typed(hundredths: int) -> str:
    return f"{hundredths / 100:.2f}"


class CountsFromTheirDigits(unittest.TestCase):
    def test_M_past_2_53_or_not_whole_is_refused_as_typed(self):
        for M, code, message in (
                ("9007199254740993", "out_of_range", "M: must be between 1 and 2^53 (got 9007199254740993)"),
                ("9007199254740992.5", "not_integer", "M: must be a whole number (got 9007199254740992.5)"),
                ("0.99999999999999999", "not_integer", "M: must be a whole number (got 0.99999999999999999)")):
            errors = heteropipe.read_request("1", M=M)["errors"]
            self.assertEqual([(e["field"], e["code"], e["index"], e["message"]) for e in errors],
                             [("M", code, None, message)])
        self.assertEqual(heteropipe.read_request("1", M="9007199254740992")["request"]["M"], 2 ** 53)
        with self.assertRaises(HeteropipeError) as caught:
            Pipeline([1]).async_(2 ** 53 + 1)
        self.assertEqual(caught.exception.code, "out_of_range")


class OneStoryPerPipeline(unittest.TestCase):
    def test_ratio_headroom_and_position_follow_the_reported_makespans(self):
        for tau, d, M, T_real in (([1, 1e13], [9999999999999.002], 2, 3e13), ([0.1, 0.2], [0.2], 2, 0.7)):
            a = heteropipe.analyze(tau, d, M, T_real=T_real)
            self.assertEqual(a["overlap_headroom"], a["T_block"] > a["T_async"])
            self.assertEqual(a["overlap_gap"], a["T_block"] - a["T_async"])
            position = ("below_async" if T_real < a["T_async"] else "above_block" if T_real > a["T_block"]
                        else "inside")
            self.assertEqual(a["T_real_position"], position)
            if "overlap_ratio" in a and position == "inside":
                self.assertTrue(0 <= a["overlap_ratio"] <= 1, a["overlap_ratio"])

    def test_T_rho_keeps_its_ends_and_the_sandwich_when_T_block_dwarfs_T_async(self):
        # T_block about 1e21, T_async 1,000,000,003,000,001: T_block - 1 * gap
        # fell 18,113 below T_async.
        for rho in (1.0, 1 - 2 ** -53, 0.5, 1e-300, 0.0):
            a = heteropipe.analyze([1, 3], [1e15], 10 ** 6, rho)
            self.assertTrue(a["T_async"] <= a["T_rho"] <= a["T_block"], (rho, a["T_rho"]))
        self.assertEqual(heteropipe.analyze([1, 3], [1e15], 10 ** 6, 1.0)["T_rho"], 1000000003000001.0)
        self.assertEqual(heteropipe.analyze([1, 3], [1e15], 10 ** 6, 0.0)["T_rho"], 1.0000000000000009e+21)

    def test_T_gpipe_at_2_53_is_never_below_T_free(self):
        for tau in ([1], [1, 2], [0.5, 1, 1, 5]):
            a = heteropipe.analyze(tau, M=2 ** 53)
            self.assertGreaterEqual(a["T_gpipe"], a["T_free"])
            self.assertGreaterEqual(a["gpipe_overestimate"], 0)

    def test_every_two_decimal_boundary_up_to_one_is_no_phase_transition(self):
        cases = 0
        for a in range(1, 100):
            for c in range(a + 1, 101):
                request = heteropipe.read_request(f"{typed(a)},{typed(c)}", typed(c - a))["request"]
                r = heteropipe.analyze(request["tau"], request["d"])
                self.assertFalse(r["phase_transition"], (a, c))
                self.assertEqual(r["link_margin"], [0.0])
                self.assertEqual(r["full_bias"], 0.0)
                self.assertEqual(r["T_block"], r["T_async"])
                self.assertFalse(r["overlap_headroom"])
                cases += 1
        self.assertEqual(cases, 4950)


class NumbersAsTyped(unittest.TestCase):
    def test_unicode_blanks_full_width_digits_and_safe_tokens(self):
        self.assertEqual(heteropipe.read_request("1", M="8\u3000", rho="\u30000.5\u3000", T_real=" 9\v")["errors"], [])
        wide = heteropipe.read_request("\uff11.\uff11\uff13\uff0c\uff12.\uff19\uff10", M="\uff11\uff10\uff10")["request"]
        self.assertEqual((wide["tau"], wide["M"]), ([1.13, 2.9], 100))
        self.assertEqual(Pipeline("\uff11.\uff11\uff13\uff0c\uff12.\uff19\uff10").tau, (1.13, 2.9))
        errors = heteropipe.read_request("1", T_real="1e-400")["errors"]
        self.assertEqual((errors[0]["code"], errors[0]["message"]), ("too_small", "T_real: is too small to read (got 1e-400): "
                         "a number other than 0 must be at least 2.2250738585072014e-308 in size"))
        errors = heteropipe.read_request("1", rho="0.5\r\nerror: fake")["errors"]
        self.assertEqual(errors[0]["message"], "rho: '0.5\\u000d\\u000aerror: fake' is not a number")
        with self.assertRaises(HeteropipeError) as caught:
            Pipeline("1," + "7" * 131072 + "x")
        self.assertEqual(str(caught.exception), "tau, item 2: '" + "7" * 80 + "\u2026' is not a number")

    def test_negative_zero_is_zero(self):
        a = heteropipe.analyze([-0.0, 1], [-0.0], rho=-0.0)
        for x in (a["tau"][0], a["d"][0], a["sigma"][0], a["rho"]):
            self.assertEqual(math.copysign(1, x), 1.0)
        self.assertNotIn("-0.0", json.dumps(a, default=list))


if __name__ == "__main__":
    unittest.main()
