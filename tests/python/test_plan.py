"""The planner through the Python API: heteropipe.plan agrees with the native
CLI's JSON, heteropipe.catalog lists the catalog, and bad input raises
HeteropipeError naming the field."""

import json
import math
import unittest

import heteropipe
from heteropipe import HeteropipeError

from support import REPO, native_cli, run

ESTIMATE = {"model": "llama-3-70b", "quant": "Q4_K_M",
            "devices": ["rtx-4090", "rtx-3090", {"id": "rtx-3090", "memory_bandwidth": 8e11}, "tesla-p40"],
            "links": ["pcie4-x16", "nvlink-3090", "pcie3-x16"], "context": 4096, "M": 1}
EXPLICIT = REPO / "tests" / "cli" / "plans" / "plan_two_devices.json"


class PlanTest(unittest.TestCase):
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

    def test_the_report_of_an_estimate(self):
        report = heteropipe.plan(ESTIMATE)
        self.assertEqual(list(report), ["objective", "objective_value", "stages", "tau", "d", "analysis",
                                        "tokens_per_second", "throughput", "baselines", "runtime", "what_if"])
        counts = [stage["layers"] for stage in report["stages"]]
        self.assertEqual(sum(counts), 80)
        self.assertEqual(report["runtime"]["vllm_pp_layer_partition"], ",".join(map(str, counts)))
        self.assertEqual(report["runtime"]["llama_cpp_tensor_split"],
                         ",".join(map(str, counts[:-1] + [counts[-1] + 1])))
        self.assertEqual(report["tokens_per_second"], 1 / (sum(report["tau"]) + sum(report["d"])))
        for name in ("even", "memory_proportional"):
            baseline = report["baselines"][name]
            self.assertGreaterEqual(baseline["loss_percent"], 0)
            self.assertAlmostEqual(baseline["loss_percent"],
                                   (baseline["objective_value"] / report["objective_value"] - 1) * 100)
        self.assertEqual([(w["change"], w["device"]) for w in report["what_if"]],
                         [("remove", 0), ("remove", 1), ("remove", 2), ("remove", 3),
                          ("add", 0), ("add", 1), ("add", 2), ("add", 3)])

    def test_the_catalog(self):
        catalog = heteropipe.catalog()
        self.assertEqual(list(catalog), ["gpus", "models", "quants", "links"])
        gpus = {g["id"]: g for g in catalog["gpus"]}
        self.assertEqual(gpus["rtx-4090"]["memory_bandwidth"], 1008e9)
        self.assertTrue(all(g["source"] for g in catalog["gpus"]))
        self.assertEqual([q["id"] for q in catalog["quants"]], ["F16", "Q8_0", "Q6_K", "Q5_K_M", "Q4_K_M", "Q4_0"])

    def assert_refused(self, plan_input, code, field, index=None):
        with self.assertRaises(HeteropipeError) as caught:
            heteropipe.plan(plan_input)
        error = caught.exception
        self.assertEqual((error.code, error.field, error.index), (code, field, index), str(error))
        self.assertIn(field, str(error))

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
        self.assert_refused(dict(ESTIMATE, devices=["rtx-3070"], links=[]), "memory_short", "memory_capacity")
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


if __name__ == "__main__":
    unittest.main()
