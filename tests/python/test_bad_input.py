"""Every bad-input class raises HeteropipeError (a ValueError) with the
core's code, field and 0-based index, and an English message naming the
field and the 1-based item."""

import math
import unittest

import heteropipe.core as core
from heteropipe import HeteropipeError, Pipeline, analyze, parse_number, parse_number_list

P = Pipeline([0.5, 1, 1, 5], [0.2, 0.1, 0.3])


class BadInput(unittest.TestCase):
    def expect(self, call, code, field, index, message):
        with self.assertRaises(HeteropipeError) as caught:
            call()
        e = caught.exception
        self.assertIsInstance(e, ValueError)
        self.assertEqual((e.code, e.field, e.index, str(e)), (code, field, index, message))
        self.assertTrue(math.isfinite(e.value))

    def test_tau_and_d(self):
        self.expect(lambda: Pipeline([]), "empty", "tau", None, "tau: needs at least one value")
        self.expect(lambda: Pipeline([1, -2]), "negative", "tau", 1, "tau, item 2: must be >= 0 (got -2)")
        self.expect(lambda: Pipeline([1, float("nan")]), "not_finite", "tau", 1,
                    "tau, item 2: must be a finite number (got nan)")
        self.expect(lambda: Pipeline([float("inf")]), "not_finite", "tau", 0,
                    "tau, item 1: must be a finite number (got inf)")
        self.expect(lambda: Pipeline([0, 0, 0]), "all_zero", "tau", None, "tau: at least one stage time must be > 0")
        self.expect(lambda: Pipeline([1, 2e15]), "too_large", "tau", 1, "tau, item 2: must be at most 1e15 (got 2e+15)")
        self.expect(lambda: Pipeline([0.5, 1, 1, 5], [0.2, 0.1]), "wrong_length", "d", None,
                    "d: needs S-1 = 3 link latencies, one per link, or none (got 2)")
        self.expect(lambda: Pipeline([1, 2], [-0.5]), "negative", "d", 0, "d, item 1: must be >= 0 (got -0.5)")
        self.expect(lambda: Pipeline([1, "x"]), "not_a_number", "tau", 1, "tau, item 2: 'x' is not a number")
        self.expect(lambda: Pipeline([1, None]), "not_a_number", "tau", 1, "tau, item 2: 'None' is not a number")
        self.expect(lambda: Pipeline([1, True]), "not_a_number", "tau", 1, "tau, item 2: 'True' is not a number")
        self.expect(lambda: Pipeline(5), "not_a_number", "tau", None,
                    "tau: must be a list of numbers or a text list like '1, 2.5, 3' (got 5)")

    def test_a_mapping_or_a_set_is_no_list(self):
        # Iterated, a dict gives its keys and a set no order of the caller's:
        # both were read as other numbers than meant ({1.0: 'a'} as tau [1.0]).
        self.expect(lambda: Pipeline({1.0: "a", 2.0: "b"}), "not_a_number", "tau", None,
                    "tau: must be a list of numbers or a text list like '1, 2.5, 3' (got {1.0: 'a', 2.0: 'b'})")
        self.expect(lambda: Pipeline([1, 2], {0.5}), "not_a_number", "d", None,
                    "d: must be a list of numbers or a text list like '1, 2.5, 3' (got {0.5})")
        self.expect(lambda: Pipeline(frozenset([3.0, 1.0])), "not_a_number", "tau", None,
                    "tau: must be a list of numbers or a text list like '1, 2.5, 3' (got frozenset({1.0, 3.0}))")
        # A dict's values, or any other ordered iterable, is read in its order.
        self.assertEqual(Pipeline({"a": 3.0, "b": 1.0}.values()).tau, (3.0, 1.0))

    def test_too_small_when_the_core_has_it(self):
        with self.assertRaises(HeteropipeError) as caught:
            Pipeline([1e-16, 0])
        self.assertIn(caught.exception.code, ("too_small", "all_zero"))
        self.assertTrue(str(caught.exception).startswith("tau: "))

    def test_a_nonzero_number_below_the_smallest_normal_double_is_too_small(self):
        # Typed text, a Decimal and a Fraction that float() turns into 0 or a subnormal: the core's one rule.
        from decimal import Decimal
        from fractions import Fraction
        sentence = ": a number other than 0 must be at least 2.2250738585072014e-308 in size"
        self.expect(lambda: Pipeline([1, "1e-400"]), "too_small", "tau", 1,
                    "tau, item 2: is too small to read (got 1e-400)" + sentence)
        self.expect(lambda: Pipeline([1, Decimal("1e-400")]), "too_small", "tau", 1,
                    "tau, item 2: is too small to read (got Decimal('1E-400'))" + sentence)
        self.expect(lambda: Pipeline([Fraction(1, 10 ** 310)]), "too_small", "tau", 0,
                    "tau, item 1: is too small to read (got Fraction(1, 1" + "0" * 27 + "...)" + sentence)
        self.assertEqual(Pipeline([1, Decimal(0), "0e-400"]).tau, (1.0, 0.0, 0.0))

    def test_too_many_stages(self):
        self.expect(lambda: Pipeline(bytes(8 * (10 ** 7 + 1)) and __import__("array").array("d", bytes(8 * (10 ** 7 + 1)))),
                    "too_many", "tau", None, "tau: at most 10,000,000 values")

    def test_parser(self):
        self.expect(lambda: Pipeline("1,,2"), "empty_item", "tau", 1, "tau, item 2: empty item between separators")
        self.expect(lambda: Pipeline(",1"), "empty_item", "tau", 0, "tau, item 1: empty item between separators")
        for text, token in (("1 0x10", "0x10"), ("1 1e", "1e"), ("1 abc", "abc"), ("1 nan", "nan"), ("1 inf", "inf")):
            self.expect(lambda: parse_number_list(text, "d"), "not_a_number", "d", 1,
                        f"d, item 2: '{token}' is not a number")
        self.expect(lambda: parse_number_list("1,1e400"), "too_large", "tau", 1,
                    "tau, item 2: must be at most 1e15 (got 1e400)")
        self.expect(lambda: parse_number("  ", "M"), "empty", "M", None, "M: is empty")
        self.expect(lambda: parse_number("1e999", "M"), "out_of_range", "M", None, "M: must be between 1 and 2^53 (got 1e999)")
        self.expect(lambda: Pipeline(["1", "1_000"]), "not_a_number", "tau", 1, "tau, item 2: '1_000' is not a number")
        # A decimal comma is never a silent separator: "0,5 1 1 5" read as five stages, 0, 5, 1, 1 and 5.
        self.expect(lambda: Pipeline("0,5 1 1 5"), "ambiguous_comma", "tau", 0,
                    "tau, item 1: '0,5' is ambiguous: a comma between digits may be a decimal or thousands mark, not "
                    "a separator; write numbers with a decimal point and no grouping (0.5, 1000), and separate items "
                    "with a comma and a blank")
        self.assertEqual(parse_number_list("0.5,1,1,5"), [0.5, 1.0, 1.0, 5.0])
        # A time with its unit: "12 ms, 3 ms" named "ms" as item 2.
        self.expect(lambda: Pipeline("12 ms, 3 ms"), "has_unit", "tau", 0,
                    "tau, item 1: '12 ms' has a unit: type plain numbers, every time in the same unit")

    def test_an_int_past_2_53_in_a_list_is_quoted_as_given(self):
        # It was quoted as the double it was read as: "(got 1e+16)" for 10**16 + 1, "rank 1e+20" for 10**20.
        big = 10 ** 16 + 1
        self.expect(lambda: Pipeline([1, big]), "too_large", "tau", 1,
                    "tau, item 2: must be at most 1e15 (got 10000000000000001)")
        self.expect(lambda: Pipeline((1, 1), [-big]), "negative", "d", 0,
                    "d, item 1: must be >= 0 (got -10000000000000001)")
        self.expect(lambda: analyze([1, 2 ** 53 + 1]), "too_large", "tau", 1,
                    "tau, item 2: must be at most 1e15 (got 9007199254740993)")
        self.expect(lambda: core.validate_pipeline([big]), "too_large", "tau", 0,
                    "tau, item 1: must be at most 1e15 (got 10000000000000001)")
        with self.assertRaises(HeteropipeError) as caught:
            Pipeline([1, big])
        self.assertEqual((caught.exception.value, caught.exception.token), (1e16, "10000000000000001"))
        p = Pipeline([1, 1, 1])
        self.expect(lambda: p.simulate(2, buffers=[1, big]), "too_large", "buffers", 1,
                    "buffers, link 2: must be at most 1,000,000 (got 10000000000000001)")
        self.expect(lambda: p.simulate(2, buffers=big), "too_large", "buffers", 0,
                    "buffers, link 1: must be at most 1,000,000 (got 10000000000000001)")
        self.expect(lambda: p.simulate(2, service_matrix=[[1, 1, 1], [1, big, 1]]), "too_large", "service_matrix", 1,
                    "service_matrix, row 2, column 2: must be at most 1e15 (got 10000000000000001)")
        self.expect(lambda: p.simulate(2, shared=[[0], [10 ** 20 + 1]]), "out_of_range", "shared", 1,
                    "shared, group 2: must be between 0 and 2^53 (got 100000000000000000001)")
        # An int within 2^53 is exact as a double, and quoted as before.
        self.expect(lambda: Pipeline([1, 2 * 10 ** 15]), "too_large", "tau", 1,
                    "tau, item 2: must be at most 1e15 (got 2e+15)")

    def test_M_is_an_int_as_in_the_reference(self):
        self.expect(lambda: P.async_(8.0), "not_integer", "M", None, "M: must be a whole number (got 8.0)")
        self.expect(lambda: P.async_(2.5), "not_integer", "M", None, "M: must be a whole number (got 2.5)")
        self.expect(lambda: P.block(True), "not_integer", "M", None, "M: must be a whole number (got True)")
        self.expect(lambda: P.free("8"), "not_integer", "M", None, "M: must be a whole number (got '8')")
        self.expect(lambda: P.gpipe(float("nan")), "not_finite", "M", None, "M: must be a finite number (got nan)")
        self.expect(lambda: P.async_(0), "out_of_range", "M", None, "M: must be between 1 and 2^53 (got 0)")
        self.expect(lambda: P.async_(-3), "out_of_range", "M", None, "M: must be between 1 and 2^53 (got -3)")
        self.expect(lambda: P.async_(2 ** 53 + 1), "out_of_range", "M", None,
                    "M: must be between 1 and 2^53 (got 9007199254740993)")
        self.expect(lambda: P.async_(10 ** 400), "out_of_range", "M", None,
                    f"M: must be between 1 and 2^53 (got 1{'0' * 39}...)")
        self.assertEqual(P.async_(2 ** 53), P.async_(2 ** 53))
        self.expect(lambda: core.makespan_async([1, 2], 1.0), "not_integer", "M", None,
                    "M: must be a whole number (got 1.0)")

    def test_rho_and_T_real(self):
        self.expect(lambda: P.slope(1.5), "out_of_range", "rho", None, "rho: must be between 0 and 1 (got 1.5)")
        self.expect(lambda: core.effective_slope([1, 2], -0.1), "out_of_range", "rho", None,
                    "rho: must be between 0 and 1 (got -0.1)")
        self.expect(lambda: P.slope(float("nan")), "not_finite", "rho", None, "rho: must be a finite number (got nan)")
        self.expect(lambda: P.slope("high"), "not_a_number", "rho", None, "rho: 'high' is not a number")
        self.expect(lambda: P.overlap_ratio(0, 8), "not_positive", "T_real", None, "T_real: must be > 0 (got 0)")
        self.expect(lambda: P.overlap_ratio(-1, 8), "not_positive", "T_real", None, "T_real: must be > 0 (got -1)")
        self.expect(lambda: P.overlap_ratio(1e16, 8), "too_large", "T_real", None,
                    "T_real: must be at most 1e15 (got 1e+16)")
        self.expect(lambda: analyze([1, 2], M=4, T_real=float("inf")), "not_finite", "T_real", None,
                    "T_real: must be a finite number (got inf)")

    def test_no_overlap_headroom_when_strict(self):
        self.assertEqual(P.overlap_ratio(42.0, 16), 1.0)
        self.expect(lambda: P.overlap_ratio(42.0, 16, strict=True), "no_overlap_headroom", "T_real", None,
                    "T_real: no overlap headroom: T_block equals T_async, so the overlap ratio is undefined")
        self.expect(lambda: core.overlap_ratio([1, 2], 5.0, 3, strict=True), "no_overlap_headroom", "T_real", None,
                    "T_real: no overlap headroom: T_block equals T_async, so the overlap ratio is undefined")

    def test_cell_limits(self):
        self.expect(lambda: Pipeline([1, 2]).timeline(1_000_001), "too_many_cells", "M", None,
                    "M: M x S = 2,000,002 cells is over the limit of 2,000,000")
        self.expect(lambda: Pipeline([1, 2]).recurrence(6 * 10 ** 9, "blocking"), "too_much_work", "M", None,
                    "M: M x S + 32 (M + S - 1) = 204,000,000,032 recurrence steps is over the limit of "
                    "4,000,000,000")
        self.expect(lambda: Pipeline([1]).recurrence(10 ** 9), "too_much_work", "M", None,
                    "M: M x S + 32 (M + S - 1) = 33,000,000,000 recurrence steps is over the limit of "
                    "4,000,000,000")

    def test_regime_names(self):
        with self.assertRaises(ValueError):
            P.timeline(2, "sideways")

    def test_errors_carry_the_bound_they_broke(self):
        from heteropipe import LIMITS
        for call, code, limit in (
                (lambda: Pipeline([1, 2e15]), "too_large", LIMITS["max_value"]),
                (lambda: Pipeline([0.5, 1, 1, 5], [0.2, 0.1]), "wrong_length", 3),
                (lambda: P.async_(0), "out_of_range", 1),
                (lambda: P.async_(2 ** 53 + 1), "out_of_range", LIMITS["max_batches"]),
                (lambda: P.async_(-10 ** 400), "out_of_range", 1),
                (lambda: P.slope(1.5), "out_of_range", 1),
                (lambda: Pipeline([1, 2]).timeline(1_000_001), "too_many_cells", LIMITS["max_timeline_cells"]),
                (lambda: P.async_(2.5), "not_integer", 0),
        ):
            with self.subTest(code=code, limit=limit), self.assertRaises(HeteropipeError) as caught:
                call()
            self.assertEqual((caught.exception.code, caught.exception.limit), (code, limit))

    def test_the_message_is_the_core_sentence_for_any_parts(self):
        from heteropipe import _core
        e = HeteropipeError("too_large", "tau", 1, 2e15, "", 1e15)
        self.assertEqual(str(e), "tau, item 2: must be at most 1e15 (got 2e+15)")
        self.assertEqual(_core.describe("too_many", "d", None, 0.0, "", 10 ** 7), "d: at most 10,000,000 values")
        self.assertEqual(str(HeteropipeError("not_a_number", "tau", 0, 0.0, "a\x1b[2Jb")),
                         "tau, item 1: 'a\\u001b[2Jb' is not a number")
        with self.assertRaises(ValueError):
            _core.describe("sideways", "tau", None, 0.0, "", 0.0)

    def test_read_request_words_errors_as_the_cli(self):
        from heteropipe import _core
        read = _core.read_request("-1,x", "1,2,3", "0", "2", "-3")
        self.assertEqual(list(read), ["request", "errors"])
        # tests/cli/golden/bad_every_field.txt, one error per field; d is
        # judged only once tau is valid.
        self.assertEqual([e["message"] for e in read["errors"]], [
            "tau, item 2: 'x' is not a number",
            "M: must be between 1 and 2^53 (got 0)",
            "rho: must be between 0 and 1 (got 2)",
            "T_real: must be > 0 (got -3)",
        ])
        self.assertEqual(list(read["errors"][0]), ["code", "field", "index", "value", "limit", "token", "message", "detail"])
        # The sentence without the field's name, for a front end that names the field in its own words.
        self.assertEqual([e["detail"] for e in read["errors"]], [
            "item 2: 'x' is not a number",
            "must be between 1 and 2^53 (got 0)",
            "must be between 0 and 1 (got 2)",
            "must be > 0 (got -3)",
        ])
        good = _core.read_request("0.5，1，1，5", "", "16", "0.5", "88")
        self.assertEqual((good["errors"], good["request"]),
                         ([], {"tau": [0.5, 1.0, 1.0, 5.0], "d": [], "M": 16.0, "rho": 0.5, "T_real": 88.0}))

    def test_limits_are_the_cores_by_their_visitor_names(self):
        from heteropipe import LIMITS
        self.assertEqual(list(LIMITS.items()), [
            ("max_stages", 10_000_000), ("max_value", 1e15), ("min_stage_time", 1e-15), ("min_batches", 1.0),
            ("max_batches", 2.0 ** 53), ("min_rho", 0.0), ("max_rho", 1.0), ("max_timeline_cells", 2e6),
            ("stream_diagonal_cost", 32.0), ("max_stream_work", 4e9), ("max_text_bytes", 2.0 ** 27),
            ("min_curve_points", 2), ("max_curve_points", 10_000), ("max_plan_devices", 256),
            ("max_plan_layers", 4096), ("max_order_search_devices", 6), ("max_order_search_work", 2.0 ** 20),
            ("max_estimate_tokens", 2.0 ** 20), ("max_estimate_context", 2.0 ** 24), ("max_what_if_devices", 16),
            ("max_reps", 1e6), ("max_sim_cells", 1e9), ("max_buffer", 1e6), ("max_buffer_history", 2.0 ** 22), ("max_queued_transfers", 2.0 ** 22), ("max_cv", 4.0), ("min_cv", 1e-9), ("max_spread", 1.0),
            ("max_service_samples", 1e6),
            ("max_trace_bytes", 2.0 ** 29), ("max_trace_events", 5e6), ("max_trace_ranks", 4096), ("max_trace_time", 1e17),
            ("max_trace_depth", 64), ("max_range_names", 5), ("max_range_name_bytes", 80),
            ("max_gguf_header_bytes", 2.0 ** 28), ("max_gguf_keys", 65536),
            ("max_gguf_tensors", 2.0 ** 20), ("max_gguf_string_bytes", 2.0 ** 24), ("max_gguf_array_items", 2.0 ** 26),
            ("max_gguf_dims", 4), ("max_calibration_records", 1024), ("max_gpu_info_bytes", 1024),
            ("max_model_count", 2.0 ** 53), ("min_normal_number", 2.2250738585072014e-308)])
        self.assertIs(type(LIMITS["max_stages"]), int)

    def test_errors_survive_pickling(self):
        import pickle
        try:
            Pipeline([1, -2])
        except HeteropipeError as e:
            copy = pickle.loads(pickle.dumps(e))
            self.assertEqual((copy.code, copy.field, copy.index, str(copy)), (e.code, e.field, e.index, str(e)))
            self.assertEqual((copy.value, copy.token, copy.limit), (e.value, e.token, e.limit))


if __name__ == "__main__":
    unittest.main()
