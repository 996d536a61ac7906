"""The planner through the Python API: heteropipe.plan agrees with the native
CLI's JSON, heteropipe.catalog lists the catalog, and bad input raises
HeteropipeError naming the field."""

import json
import math
import tempfile
import unittest
from pathlib import Path

import heteropipe
from heteropipe import HeteropipeError

from support import REPO, native_cli, run

ESTIMATE = {"model": "llama-3-70b", "quant": "Q4_K_M",
            "devices": ["rtx-4090", "rtx-3090", {"id": "rtx-3090", "memory_bandwidth": 8e11}, "tesla-p40"],
            "links": ["pcie4-x16", "nvlink-3090", "pcie3-x16"], "context": 4096, "M": 1}
EXPLICIT = REPO / "tests" / "cli" / "plans" / "plan_two_devices.json"


class PlanTest(unittest.TestCase):
    def test_a_baseline_that_breaks_the_plans_rules_is_not_feasible(self):
        # Issue 22.8: the memory-proportional split leaves device 1 idle while allow_idle_devices is false.
        report = heteropipe.plan(json.loads((REPO / "tests" / "cli" / "plans" / "idle_baseline.json").read_text()))
        mp = report["baselines"]["memory_proportional"]
        self.assertEqual((mp["fits_memory"], mp["feasible"], mp["reason"]), (True, False, "idle_device"))
        self.assertLess(mp["loss_percent"], 0)
        self.assertEqual((report["baselines"]["even"]["feasible"], report["baselines"]["even"]["reason"]), (True, ""))

    def test_memory_warning_and_what_would_fit(self):
        # Issue 24.7: the default page plan fills its RTX 4090 past 95 %; 70B in F16 on two 4090s says
        # how much is missing and that Q4_K_M would fit, which it does.
        report = heteropipe.plan({"model": "llama-3-70b", "quant": "Q4_K_M", "context": 4096,
                                  "devices": ["rtx-4090", "rtx-3090", "rtx-3090"]})
        self.assertEqual(len(report["warnings"]), 1)
        warning = report["warnings"][0]
        self.assertEqual((warning["code"], warning["stage"], warning["device"]), ("memory_nearly_full", 0, 0))
        self.assertEqual(warning["fraction"], report["stages"][0]["memory_used"] / report["stages"][0]["memory_capacity"])
        short = {"model": "llama-3-70b", "quant": "F16", "context": 4096, "devices": ["rtx-4090", "rtx-4090"]}
        with self.assertRaises(HeteropipeError) as caught:
            heteropipe.plan(short)
        e = caught.exception
        self.assertEqual((e.code, e.field, e.fits_quant, e.fits_with_device), ("memory_short", "memory", "Q4_K_M", None))
        self.assertEqual(str(e), "memory: 87.09 GiB of memory is missing: the layers need 132.7 GiB and the devices "
                                 "hold 45.58 GiB; quantization Q4_K_M would fit")
        self.assertTrue(heteropipe.plan(dict(short, quant=e.fits_quant))["stages"])
        with self.assertRaises(HeteropipeError) as more:
            heteropipe.plan({"model": "llama-3-70b", "quant": "Q8_0", "context": 4096,
                             "devices": ["rtx-3090", "rtx-4090", "rtx-3090"]})
        self.assertEqual((more.exception.fits_quant, more.exception.fits_with_device), ("Q6_K", 0))

    def test_a_million_bad_keys_give_the_first_hundred_errors(self):
        # Once a million errors (26 s in the CLI); now the first kMaxInputErrors.
        text = '{"devices": [{"layer_times": [1], "memory_capacity": 1}], "layer_memory": [1], ' + \
            ", ".join('"colour%d": 1' % k for k in range(1_000_000)) + "}"
        with self.assertRaises(HeteropipeError) as caught:
            heteropipe.plan(text)
        e = caught.exception
        self.assertEqual(len(e.errors), 100)
        self.assertEqual((e.code, e.field, str(e)), ("unknown_key", "input", "input: unknown key 'colour0'"))
        self.assertEqual(str(e.errors[-1]), "input: unknown key 'colour99'")

    def test_large_layer_times_keep_the_plan_optimal(self):
        # Issue 22.4: 0-2 | 3 (0.017), not 0 | 1-3 (0.029).
        report = heteropipe.plan(json.loads((REPO / "tests" / "cli" / "plans" / "forbid_large_layer.json").read_text()))
        self.assertEqual([s["layers"] for s in report["stages"]], [3, 1])
        self.assertAlmostEqual(report["objective_value"], 0.017, places=15)


    def cli_json(self, path):
        result = run([native_cli(self), "plan", "--json", str(path)])
        self.assertEqual(result.returncode, 0, result.stderr)
        return json.loads(result.stdout)

    def test_the_report_is_the_clis_json(self):
        self.assertEqual(heteropipe.plan(EXPLICIT.read_text()), self.cli_json(EXPLICIT))
        self.assertEqual(heteropipe.plan(json.loads(EXPLICIT.read_text())), self.cli_json(EXPLICIT))
        path = REPO / "build" / "plan_estimate_test.json"
        path.write_text(json.dumps(ESTIMATE))
        self.assertEqual(heteropipe.plan(ESTIMATE), self.cli_json(path))

    def test_calibration_is_the_clis(self):
        # Issue 24.3: the input's "calibration" in Python is the CLI's --calibrate, bit for bit. The records
        # are the two llama.cpp's tools/llama-bench/README.md publishes (RTX 4080, Qwen2.5-7B Q4_K_M).
        plans = REPO / "tests" / "cli" / "plans"
        bench = json.loads((plans / "bench_4080.json").read_text())
        request = dict(json.loads((plans / "calibrate_4080.json").read_text()), calibration=bench)
        report = heteropipe.plan(request)
        result = run([native_cli(self), "plan", "--json", str(plans / "calibrate_4080.json"),
                      "--calibrate", str(plans / "bench_4080.json")])
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(report, json.loads(result.stdout))
        self.assertEqual([(c["device"], c["record"]) for c in report["calibrated"]], [(0, 1)])
        self.assertEqual(report["calibration_unused"], [{"record": 0, "reason": "other_phase"}])
        with self.assertRaises(HeteropipeError) as caught:
            heteropipe.plan(dict(request, calibration=[dict(bench[1], avg_ts=-1)]))
        e = caught.exception
        self.assertEqual((e.code, e.field, e.index), ("negative", "calibration", 0))
        self.assertEqual(str(e), "calibration, record 1: avg_ts must be >= 0 (got -1)")
        # The file's text, as llama-bench -o json or -o jsonl wrote it, is the same calibration; and the
        # CLI's --calibrate reads JSON lines too.
        text = (plans / "bench_4080.json").read_text()
        lines = "\n".join(json.dumps(r) for r in bench) + "\n"
        self.assertEqual(heteropipe.plan(dict(request, calibration=text)), report)
        self.assertEqual(heteropipe.plan(dict(request, calibration=lines)), report)
        with tempfile.TemporaryDirectory() as folder:
            jsonl = Path(folder) / "bench.jsonl"
            jsonl.write_text(lines)
            result = run([native_cli(self), "plan", "--json", str(plans / "calibrate_4080.json"), "--calibrate", str(jsonl)])
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(json.loads(result.stdout), report)
        with self.assertRaises(HeteropipeError) as caught:
            heteropipe.plan(dict(request, calibration=text[:-3]))
        self.assertEqual((caught.exception.code, caught.exception.field), ("not_json", "calibration"))

    def test_the_report_of_an_estimate(self):
        report = heteropipe.plan(ESTIMATE)
        self.assertEqual(list(report), ["objective", "objective_value", "stages", "tau", "d", "analysis",
                                        "tokens_per_second", "tokens_per_second_band", "throughput", "baselines",
                                        "runtime", "what_if", "warnings", "calibrated",
                                        "calibration_unused"])
        counts = [stage["layers"] for stage in report["stages"]]
        self.assertEqual(sum(counts), 80)
        self.assertEqual(report["runtime"]["vllm_pp_layer_partition"], ",".join(map(str, counts)))
        self.assertEqual(report["runtime"]["llama_cpp_tensor_split"],
                         ",".join(map(str, counts[:-1] + [counts[-1] + 1])))
        # tokens x M / T(M); here tokens 1 and M 1.
        self.assertEqual(report["tokens_per_second"], 1 * (1 / report["analysis"]["T_async"]))
        decode = heteropipe.plan({**ESTIMATE, "tokens": 2, "M": 4})
        self.assertEqual(decode["tokens_per_second"], 2 * (4 / decode["analysis"]["T_async"]))
        for name in ("even", "memory_proportional"):
            b = decode["baselines"][name]
            self.assertEqual(b["tokens_per_second"], 2 * (4 / b["analysis"]["T_async"]))
            self.assertEqual((b["feasible"], b["reason"]), (True, ""))
        for name in ("even", "memory_proportional"):
            baseline = report["baselines"][name]
            self.assertGreaterEqual(baseline["loss_percent"], 0)
            self.assertAlmostEqual(baseline["loss_percent"],
                                   (baseline["objective_value"] / report["objective_value"] - 1) * 100)
        self.assertEqual([(w["change"], w["device"]) for w in report["what_if"]],
                         [("remove", 0), ("remove", 1), ("remove", 2), ("remove", 3),
                          ("add", 0), ("add", 1), ("add", 2), ("add", 3)])

    def test_every_estimated_speed_carries_its_band_and_explicit_costs_none(self):
        # Issue 24.5: [tokens_per_second x low, x high], the same two factors for the plan, each baseline and
        # each what-if; 70B in Q4_K_M fits on neither 24 GB card alone, so those what-ifs are 0 with [0, 0].
        report = heteropipe.plan({"model": "llama-3-70b", "quant": "Q4_K_M", "devices": ["rtx-3090", "rtx-4090"]})
        low, high = (end / report["tokens_per_second"] for end in report["tokens_per_second_band"])
        self.assertTrue(0 < low < 1 < high)
        speeds = [report] + list(report["baselines"].values()) + report["what_if"]
        self.assertEqual(len(speeds), 7)
        for item in speeds:
            lo, hi = item["tokens_per_second_band"]
            self.assertAlmostEqual(lo, item["tokens_per_second"] * low, delta=1e-12 * item["tokens_per_second"])
            self.assertAlmostEqual(hi, item["tokens_per_second"] * high, delta=1e-12 * item["tokens_per_second"])
        self.assertEqual([w["tokens_per_second_band"] for w in report["what_if"] if not w["feasible"]],
                         [[0.0, 0.0], [0.0, 0.0]])
        explicit = heteropipe.plan(EXPLICIT.read_text())
        self.assertIsNone(explicit["tokens_per_second_band"])
        self.assertEqual([b["tokens_per_second_band"] for b in explicit["baselines"].values()], [None, None])
        self.assertEqual({w["tokens_per_second_band"] for w in explicit["what_if"]}, {None})

    def test_a_devices_memory_and_bandwidth_with_their_units(self):
        def plan(memory, bandwidth):
            custom = {"memory": memory, "memory_bandwidth": bandwidth, "fp16_flops": 1.65e14}
            return heteropipe.plan({**ESTIMATE, "devices": ["rtx-4090", custom], "links": ["pcie4-x16"]})
        self.assertEqual(plan("24 GiB", "1008 GB/s"), plan(24 * 2**30, 1008e9))
        with self.assertRaises(HeteropipeError) as caught:
            plan("-1 GiB", "1008 GB/s")
        self.assertEqual((caught.exception.field, caught.exception.index, caught.exception.token), ("memory", 1, "-1 GiB"))
        self.assertEqual(str(caught.exception), "memory, device 2: must be >= 0 (got -1 GiB)")
        # A unit the core does not read: coded, the text as typed, the units it reads named.
        with self.assertRaises(HeteropipeError) as caught:
            plan("24 gigs", "1008 GB/s")
        self.assertEqual((caught.exception.code, caught.exception.field, caught.exception.index, caught.exception.token),
                         ("unknown_unit", "memory", 1, "24 gigs"))
        self.assertEqual(str(caught.exception), "memory, device 2: '24 gigs' is in no unit heteropipe reads "
                                                "(TiB, GiB, MiB, TB, GB, MB, B)")

    def test_the_catalog(self):
        catalog = heteropipe.catalog()
        self.assertEqual(list(catalog), ["gpus", "models", "quants", "links"])
        gpus = {g["id"]: g for g in catalog["gpus"]}
        self.assertEqual(gpus["rtx-4090"]["memory_bandwidth"], 1008e9)
        self.assertTrue(all(g["source"] for g in catalog["gpus"]))
        self.assertEqual([gpus[g]["cuda_graphs"] for g in ("tesla-p40", "tesla-p100", "tesla-v100", "rtx-4090")],
                         [False, False, True, True])
        quants = {q["id"]: q for q in catalog["quants"]}
        self.assertEqual((quants["MXFP4"]["bytes_per_weight"], quants["MXFP4"]["other_bytes_per_weight"]),
                         (17 / 32, 34 / 32))
        self.assertEqual(quants["Q4_K_M"]["other_bytes_per_weight"], quants["Q4_K_M"]["bytes_per_weight"])
        self.assertEqual([q["id"] for q in catalog["quants"]],
                         ["F16", "BF16", "Q8_0", "Q6_K", "Q5_K_M", "Q5_K_S", "Q4_K_M", "Q4_K_S", "Q4_0", "IQ4_XS",
                          "MXFP4", "Q3_K_M", "Q2_K", "IQ2_XXS"])
        models = {m["id"]: m for m in catalog["models"]}
        self.assertEqual((models["qwen3-30b-a3b"]["experts"], models["qwen3-30b-a3b"]["experts_used"]), (128, 8))
        self.assertEqual(models["qwen3-32b"]["head_size"], 128)

    def assert_refused(self, plan_input, code, field, index=None):
        with self.assertRaises(HeteropipeError) as caught:
            heteropipe.plan(plan_input)
        error = caught.exception
        self.assertEqual((error.code, error.field, error.index), (code, field, index), str(error))
        self.assertIn(field, str(error))

    def test_utf32_text_is_named_as_such(self):
        # FF FE 00 00 was "the text is UTF-16"; 00 00 FE FF too is UTF-32.
        sentence = ("input: the text is UTF-32 (it starts with a UTF-32 byte-order mark); save it as UTF-8, "
                    "which every reader takes")
        for text, first in (('{"M": 1}'.encode("utf-32-le"), 255), ('{"M": 1}'.encode("utf-32-be"), 0)):
            bom = b"\xff\xfe\x00\x00" if first == 255 else b"\x00\x00\xfe\xff"
            with self.assertRaises(HeteropipeError) as caught:
                heteropipe.plan(bom + text)
            e = caught.exception
            self.assertEqual((e.code, e.field, e.index, e.value, str(e)), ("utf32_text", "input", None, first, sentence))
        with self.assertRaises(HeteropipeError) as caught:
            heteropipe.plan(b"\xff\xfe" + '{"M": 1}'.encode("utf-16-le"))
        self.assertEqual(caught.exception.code, "utf16_text")

    def test_bad_input_names_the_field(self):
        explicit = json.loads(EXPLICIT.read_text())
        self.assert_refused(dict(ESTIMATE, model="llama-9"), "unknown_id", "model")
        self.assert_refused(dict(ESTIMATE, quant="Q1"), "unknown_id", "quant")
        self.assert_refused(dict(ESTIMATE, devices=["rtx-4090", "gtx-480"], links=[]), "unknown_id", "devices", 1)
        self.assert_refused(dict(ESTIMATE, links=["pcie4-x16", "carrier-pigeon", "pcie3-x16"]),
                            "unknown_id", "links", 1)
        self.assert_refused(dict(ESTIMATE, links=["pcie4-x16"]), "wrong_length", "links")
        self.assert_refused(dict(ESTIMATE, M=0), "out_of_range", "M")
        self.assert_refused(dict(ESTIMATE, tokens=2.5), "not_integer", "tokens")
        self.assert_refused(dict(ESTIMATE, devices=[{"id": "rtx-4090", "fp16_flops": math.nan}], links=[]),
                            "not_finite", "fp16_flops", 0)
        self.assert_refused(dict(ESTIMATE, devices=["rtx-3070"], links=[]), "memory_short", "memory")
        negative = json.loads(json.dumps(explicit))
        negative["devices"][1]["layer_times"][2] = -1
        self.assert_refused(negative, "negative", "layer_times", 1)
        not_a_number = json.loads(json.dumps(explicit))
        not_a_number["devices"][0]["layer_times"][0] = math.nan
        self.assert_refused(not_a_number, "not_finite", "layer_times", 0)
        short = json.loads(json.dumps(explicit))
        short["cut_bytes"] = [1]
        self.assert_refused(short, "wrong_length", "cut_bytes")
        self.assert_refused(dict(explicit, M=2.0 ** 60), "out_of_range", "M")
        self.assert_refused("{\"devices\": [", "not_json", "input")

    def plan_errors(self, input):
        with self.assertRaises(HeteropipeError) as caught:
            heteropipe.plan(input)
        error = caught.exception
        self.assertIs(error.errors[0], error)
        return [str(e) for e in error.errors]

    def explicit(self, **keys):
        return dict({"devices": [{"layer_times": [1], "memory_capacity": 1}], "layer_memory": [1]}, **keys)

    def test_a_wrong_type_nested_100000_deep_is_named_from_a_dict_and_from_text(self):
        deep = []
        inner = deep
        for _ in range(99999):
            inner.append([])
            inner = inner[0]
        said = ["M: has the wrong type of value (got " + "[" * 40 + "...)"]
        self.assertEqual(self.plan_errors(self.explicit(M=deep)), said)
        text = '{"M":' + "[" * 100000 + "]" * 100000 + ',"devices":[{"layer_times":[1],"memory_capacity":1}],"layer_memory":[1]}'
        self.assertEqual(self.plan_errors(text), said)
        cycle = []
        cycle.append(cycle)
        with self.assertRaises(ValueError):
            heteropipe.plan(self.explicit(M=cycle))

    def test_numpy_numbers_and_arrays_plan_as_the_numbers_they_are_and_other_objects_are_named(self):
        # A dict with numpy's int64 or an array raised json's TypeError ("Object of type int64 is not JSON
        # serializable"), uncoded, where Pipeline takes both.
        try:
            import numpy
        except ImportError:  # pragma: no cover (numpy is optional)
            self.skipTest("numpy is not installed")
        plain = heteropipe.plan(self.explicit(M=2))
        self.assertEqual(heteropipe.plan(self.explicit(M=numpy.int64(2))), plain)
        self.assertEqual(heteropipe.plan({"devices": [{"layer_times": numpy.array([1.0]),
                                                       "memory_capacity": numpy.float32(1)}],
                                          "layer_memory": numpy.array([1], dtype=numpy.uint8), "M": numpy.int8(2)}),
                         plain)
        self.assertEqual(self.plan_errors(self.explicit(M=numpy.int64(-3))),
                         ["M: must be between 1 and 2^53 (got -3)"])
        self.assertEqual(self.plan_errors(self.explicit(M=numpy.float64("nan"))), ['M: must be a finite number (got "NaN")'])
        self.assertEqual(self.plan_errors(self.explicit(M=numpy.bool_(True))),
                         ["M: has the wrong type of value (got true)"])
        # A Decimal is the number it is, as Pipeline reads it; an object JSON has no form for goes as its
        # text, which M (a count that may be given as text, as the page's planner sends it) reads as no
        # number and a key that takes no text as the wrong type of value, each named by its key.
        import decimal
        self.assertEqual(heteropipe.plan(self.explicit(M=decimal.Decimal("2"))), plain)
        self.assertEqual(self.plan_errors(self.explicit(M={1, 2})), ["M: '{1, 2}' is not a number"])
        self.assertEqual(self.plan_errors(self.explicit(M=object)), ["M: '<class 'object'>' is not a number"])
        self.assertEqual(self.plan_errors(self.explicit(layer_memory=[{1, 2}])),
                         ['layer_memory, layer 1: has the wrong type of value (got "{1, 2}")'])

    def test_every_bad_key_is_reported_by_name(self):
        self.assertEqual(self.plan_errors(self.explicit(allow_idle_devices="yes")),
                         ['allow_idle_devices: has the wrong type of value (got "yes")'])
        self.assertEqual(self.plan_errors(self.explicit(allow_idle_devices=None)),
                         ["allow_idle_devices: has the wrong type of value (got null)"])
        self.assertEqual(self.plan_errors(self.explicit(objectve="blocking", M=9007199254740993, order=1)),
                         ["input: unknown key 'objectve' (did you mean objective?)",
                          "M: must be between 1 and 2^53 (got 9007199254740993)",
                          "order: has the wrong type of value (got 1)"])
        self.assertEqual(self.plan_errors('{"M": 1e400, "devices": [{"layer_times": [1e400], "memory_capacity": 1}], "layer_memory": [1]}'),
                         ["M: must be between 1 and 2^53 (got 1e400)", "layer_times, device 1: must be at most 1e15 (got 1e400)"])
        # M as text is read by the calculator's count rules (it was the wrong type of value).
        self.assertEqual(self.plan_errors(self.explicit(M="0.99999999999999999")),
                         ["M: must be a whole number (got 0.99999999999999999)"])
        self.assertEqual(heteropipe.plan(self.explicit(M=" 8 ")), heteropipe.plan(self.explicit(M=8)))
        self.assertEqual(self.plan_errors(dict(quant="F16", **self.explicit())), ["model: is missing"])
        error = self.plan_errors(self.explicit(allow_idle_device=True))
        self.assertEqual(error, ["input: unknown key 'allow_idle_device' (did you mean allow_idle_devices?)"])

    def test_the_values_errors_of_every_field_are_reported_with_the_readers(self):
        bad = {"devices": [{"layer_times": [1, -2], "memory_capacity": -1},
                           {"layer_times": [1, 1], "memory_capacity": 2e15}],
               "layer_memory": [1, 1], "links": [{"latency": -1e20, "bandwidth": 0}], "M": 0}
        self.assertEqual(self.plan_errors(bad),
                         ["M: must be between 1 and 2^53 (got 0)",
                          "layer_times, device 1: must be >= 0 (got -2)",
                          "memory_capacity, device 1: must be >= 0 (got -1)",
                          # As Python writes the number (its JSON text), not as 2e+15.
                          "memory_capacity, device 2: must be at most 1e15 bytes (got 2000000000000000.0)",
                          "latency, link 1: must be >= 0 (got -1e+20)",
                          "bandwidth, link 1: must be > 0 (got 0)"])
        estimate = {"model": "llama-3-8b", "quant": "Q8_0",
                    "devices": [{"memory": 2e15, "memory_bandwidth": 4e11, "fp16_flops": 1.6e13}]}
        self.assertEqual(self.plan_errors(estimate), ["memory, device 1: must be at most 1e15 bytes (got 2000000000000000.0)"])
        self.assertEqual(self.plan_errors(json.dumps(estimate).replace("2000000000000000.0", "2e15")),
                         ["memory, device 1: must be at most 1e15 bytes (got 2e15)"])

    def test_one_error_is_a_list_of_one(self):
        with self.assertRaises(HeteropipeError) as caught:
            heteropipe.Pipeline([1, -1])
        self.assertEqual(caught.exception.errors, [caught.exception])

    def test_bytes_after_a_nul_are_refused_and_a_byte_order_mark_is_skipped(self):
        text = json.dumps(self.explicit())
        self.assertEqual(self.plan_errors(text + "\x00garbage"),
                         ["input: not valid JSON (reading stopped at byte %d)" % len(text)])
        self.assertEqual(heteropipe.plan("\ufeff" + text), heteropipe.plan(text))
        # Explicit links may be left out: free links.
        two = {"devices": [{"layer_times": [1, 3], "memory_capacity": 2}, {"layer_times": [3, 1], "memory_capacity": 2}],
               "layer_memory": [1, 1], "M": 4}
        free = dict(two, links=[{"latency": 0, "bandwidth": 1}])
        self.assertEqual(heteropipe.plan(two)["stages"], heteropipe.plan(free)["stages"])
        self.assertEqual(heteropipe.plan(two)["objective_value"], 5.0)


if __name__ == "__main__":
    unittest.main()
