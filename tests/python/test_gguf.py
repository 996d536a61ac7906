"""GGUF files through the Python API: heteropipe.model_info agrees with the
native CLI's `model --json` and with the closed forms of files written from
ggml's spec (tests/data/gguf/write_gguf.py), a 70B-shaped file of sparse
data plans from "gguf": PATH and from "model": {...} alike, and bad files
raise coded errors with their byte offsets."""

import json
import os
import random
import sys
import tempfile
import unittest

import heteropipe
from heteropipe import HeteropipeError

from support import REPO, native_cli, run

sys.path.insert(0, str(REPO / "tests" / "data" / "gguf"))
import write_gguf  # noqa: E402

FIXTURES = REPO / "tests" / "data" / "gguf"


class ModelInfoTest(unittest.TestCase):
    def test_model_info_is_the_clis_json(self):
        cli = native_cli(self)
        for name in ("dense.gguf", "gqa.gguf", "moe.gguf", "mixed_tied.gguf", "sliding.gguf"):
            native = json.loads(run([cli, "model", "--json", str(FIXTURES / name)]).stdout)
            self.assertEqual(heteropipe.model_info(FIXTURES / name), native)

    def test_a_name_that_is_not_utf8_is_the_clis_as_a_browser_decodes_it(self):
        # It was the bytes decoded with surrogateescape ('Bad \\udcff name ...'), which no UTF-8 writer
        # takes; the CLI's model --json aborted on it.
        info = heteropipe.model_info(FIXTURES / "bad_utf8_name.gguf")
        self.assertEqual(info["name"], "Bad \ufffd name \ufffd\ufffd\ufffd cut \ufffd \x1b[2J")
        self.assertEqual(info["name"].encode("utf-8").decode("utf-8"), info["name"])
        cli = native_cli(self)
        native = json.loads(run([cli, "model", "--json", str(FIXTURES / "bad_utf8_name.gguf")]).stdout)
        self.assertEqual(info, native)

    def test_a_40_gb_file_reads_from_its_header_alone(self):
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "big.gguf")
            size = write_gguf.llama_70b(path)
            self.assertGreater(size, 39e9)  # about 40 GB
            m = heteropipe.model_info(path)
            per_layer = ((8192 * 8192 * 2 + 8192 * 1024 * 2 + 3 * 8192 * 28672) // 256 * 144 + 2 * 8192 * 4)
            self.assertEqual(m["layer_bytes"], [float(per_layer)] * 80)
            self.assertEqual(m["embedding_bytes"], 8192 * 128256 // 256 * 144)
            self.assertEqual(m["output_bytes"], 8192 * 128256 // 256 * 210 + 8192 * 4)
            self.assertEqual(m["kv_bytes_per_token"], 80 * 2 * 8 * (128 + 128))
            self.assertEqual((m["layers"], m["vocab_size"], m["key_length"]), (80, 128256, 128))

            # "gguf": PATH (absolute, and relative to the current directory) and "model": {...} plan alike.
            base = {"devices": ["a100-80gb", "rtx-4090", "rtx-4090"], "context": 4096, "M": 1}
            by_path = heteropipe.plan(dict(base, gguf=path))
            by_facts = heteropipe.plan(dict(base, model=m))
            here = os.getcwd()
            try:
                os.chdir(folder)
                relative = heteropipe.plan(dict(base, gguf="big.gguf"))
            finally:
                os.chdir(here)
            self.assertEqual(by_path, by_facts)
            self.assertEqual(by_path, relative)
            self.assertEqual(sum(s["layers"] for s in by_path["stages"]), 80)

    def test_a_mixture_of_experts_plans_on_its_active_bytes(self):
        m = heteropipe.model_info(FIXTURES / "moe.gguf")
        dense = dict(m, active_layer_bytes=m["layer_bytes"])
        base = {"devices": ["rtx-4090"], "context": 0, "M": 1}
        moe_report, dense_report = heteropipe.plan(dict(base, model=m)), heteropipe.plan(dict(base, model=dense))
        # Reading fewer bytes per token is faster; the memory holds every expert either way.
        self.assertGreater(moe_report["tokens_per_second"], dense_report["tokens_per_second"])
        self.assertEqual(moe_report["stages"][0]["memory_used"], dense_report["stages"][0]["memory_used"])

    def test_bad_files_say_where(self):
        with tempfile.TemporaryDirectory() as folder:
            good = (FIXTURES / "dense.gguf").read_bytes()
            cut = os.path.join(folder, "cut.gguf")
            with open(cut, "wb") as f:
                f.write(good[:100])
            with self.assertRaises(HeteropipeError) as caught:
                heteropipe.model_info(cut)
            self.assertEqual((caught.exception.code, caught.exception.limit), ("truncated", 100))
            self.assertIn("GGUF file, byte", str(caught.exception))
            bad = os.path.join(folder, "bad.gguf")
            with open(bad, "wb") as f:
                f.write(b"GGML" + good[4:])
            with self.assertRaises(HeteropipeError) as caught:
                heteropipe.model_info(bad)
            self.assertEqual((caught.exception.code, caught.exception.index), ("not_gguf", 0))
            with self.assertRaises(OSError):
                heteropipe.model_info(os.path.join(folder, "none.gguf"))
            with self.assertRaises(HeteropipeError) as caught:
                heteropipe.plan({"gguf": cut, "devices": ["rtx-4090"]})
            self.assertEqual(caught.exception.code, "truncated")

    def test_random_cuts_never_crash(self):
        good = (FIXTURES / "moe.gguf").read_bytes()
        rng = random.Random(11)
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "cut.gguf")
            for _ in range(60):
                with open(path, "wb") as f:
                    f.write(good[:rng.randrange(len(good))])
                with self.assertRaises(HeteropipeError) as caught:
                    heteropipe.model_info(path)
                self.assertEqual(caught.exception.code, "truncated")


if __name__ == "__main__":
    unittest.main()
