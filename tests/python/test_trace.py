"""heteropipe.import_trace: the same result as `heteropipe trace --json`, from
paths, bytes or gzip bytes, and the same coded errors naming file and
position (docs/traces.md)."""

import errno
import gzip
import json
import os
import pickle
import shutil
import tempfile
import unittest

import heteropipe
from heteropipe import HeteropipeError, import_trace
from support import REPO, native_cli, run, run_bytes

SYNTHETIC = [REPO / "tests" / "data" / "traces" / "synthetic" / f"rank-{r}.json.gz" for r in range(3)]
REAL = [REPO / "tests" / "data" / "traces" / f"hta_sampled_rank-{r}.json.gz" for r in range(2)]
CPU_GLOO = [REPO / "tests" / "cli" / "traces" / f"cpu_gloo_rank-{r}.json" for r in range(2)]
KINETO_PEERS = [REPO / "tests" / "cli" / "traces" / f"kineto_peers_rank-{r}.json" for r in range(3)]
TORCH_STEPS = [REPO / "tests" / "cli" / "traces" / f"torch_steps_rank-{r}.json" for r in range(2)]
MICROBATCH = "^microbatch_([0-9]+)$"


class ImportTrace(unittest.TestCase):
    def native_json(self, *args):
        done = run([native_cli(self), "trace", "--json", *map(str, args)])
        self.assertEqual(done.returncode, 0, done.stderr)
        return json.loads(done.stdout)

    def test_synthetic_ranks_agree_with_the_cli(self):
        result = import_trace(SYNTHETIC)
        self.assertEqual(result, self.native_json(*SYNTHETIC))
        self.assertEqual(list(result), list(self.native_json(*SYNTHETIC)))
        # The timeline they were written from: tau 1000, 2500, 1500 us, d 200, 300 us, M 8.
        self.assertEqual(result["tau"], [1.0, 2.5, 1.5])
        self.assertEqual(result["d"], [0.2, 0.3])
        self.assertEqual((result["M"], result["T_real"], result["position"]), (8, 23.0, "inside"))
        self.assertEqual(result["clock_offsets"], [0.0, -12.345, 0.777])

    def test_clock_offset_bounds_are_pairs_indexed_by_link(self):
        # NCCL kernel pairs bound each link's offset on both sides (the
        # truths -12.345 and 0.777 - -12.345 = 13.122 lie inside).
        self.assertEqual(import_trace(SYNTHETIC)["clock_offset_bounds"], [[-12.545, -12.138], [12.822, 13.429]])
        # gloo pairs: from below by causality (rank 1's clock is 3000 us behind
        # rank 0's; the message of micro-batch 0 left 4 us before it arrived),
        # from above by gloo's rendezvous (micro-batch 1's send, which waited
        # for its receive, ended 1.5 us after that receive was posted).
        cpu = import_trace(CPU_GLOO, unit="us", microbatch="^microbatch_([0-9]+)$")
        self.assertEqual(cpu["clock_offset_bounds"], [[-3004.0, -2998.5]])
        self.assertEqual(cpu, self.native_json("--unit", "us", "--microbatch", "^microbatch_([0-9]+)$", *CPU_GLOO))

    def test_a_pattern_that_matches_no_range_names_the_ranges_there_are(self):
        # The CPU run's ranges are microbatch_0..2 on each rank: 6 of one form.
        result = import_trace(CPU_GLOO, microbatch="^mb([0-9]+)$")
        self.assertEqual(result, self.native_json("--microbatch", "^mb([0-9]+)$", *CPU_GLOO))
        self.assertEqual((result["reason"], result["range_names"]),
                         ("no_microbatch_ranges", [{"name": "microbatch_0", "count": 6}]))
        self.assertTrue(result["reason_message"].endswith(
            "; the ranges these stages hold most, by name (how many ranges have its form, digits aside): "
            "'microbatch_0' (6)"))

    def test_a_range_name_that_is_no_utf8_is_named_with_the_replacement_character(self):
        def text(name, op):
            return (b'[{"name":"' + name + b'","ph":"X","ts":1,"dur":5,"pid":"CPU functions","tid":1},'
                    b'{"name":"aten::mm","ph":"X","ts":2,"dur":1,"pid":"CPU functions","tid":1},'
                    b'{"name":"' + op + b'","ph":"X","ts":7,"dur":1,"pid":"CPU functions","tid":1}]')
        result = import_trace([text(b"mb\xff_1", b"gloo:send"), text(b"mb_1", b"gloo:recv")], microbatch="^q([0-9]+)$")
        self.assertEqual(result["range_names"], [{"name": "mb_1", "count": 1}, {"name": "mb\ufffd_1", "count": 1}])

    def test_results_returned_to_stage_0_are_set_aside_and_counted(self):
        # torch 2.x's peers: the last stage's 4 results back to stage 0 and
        # one message from stage 0 straight to stage 2 are no link.
        result = import_trace(KINETO_PEERS)
        self.assertEqual(result, self.native_json(*KINETO_PEERS))
        self.assertEqual((result["tau"], result["d"], result["M"], result["T_real"]), ([0.1, 0.3, 0.2], [0.02, 0.03], 4, 1.55))
        self.assertEqual([(w["code"], w["value"], w["limit"]) for w in result["warnings"]],
                         [("returns_to_first_stage", 4, 4), ("messages_set_aside", 2, 0)])
        self.assertEqual(result["warnings"][0]["message"],
                         "the last stage's 4 sends to stage 0 and stage 0's 4 receives are results returned to "
                         "stage 0, set aside: the pipeline is the links from each stage to the next")

    def test_profiler_steps_import_one_step_as_the_cli_does(self):
        # A real 2-step schedule (ProfilerStep#1 and #2, microbatch_0..3 in each).
        first = import_trace(TORCH_STEPS, microbatch=MICROBATCH)
        self.assertEqual(first, self.native_json("--microbatch", MICROBATCH, *TORCH_STEPS))
        second = import_trace(TORCH_STEPS, microbatch=MICROBATCH, profiler_step=2)
        self.assertEqual(second, self.native_json("--microbatch", MICROBATCH, "--profiler-step", "2", *TORCH_STEPS))
        self.assertEqual(import_trace(TORCH_STEPS, microbatch=MICROBATCH, profiler_step="2"), second)
        self.assertEqual((first["M"], second["M"]), (4, 4))
        self.assertNotEqual(first["T_real"], second["T_real"])
        self.assertEqual([(w["code"], w["index"], w["value"], w["limit"]) for w in second["warnings"]],
                         [("profiler_steps", 2, 2, 2)])
        for step, code, index, message in [
                (9, "unknown_id", 0, "profiler_step: file 1 holds no ProfilerStep#9 (the files' last step is ProfilerStep#2)"),
                (1.5, "not_integer", None, "profiler_step: must be a whole number (got 1.5)"),
                ("x", "not_a_number", None, "profiler_step: 'x' is not a number"),
                ("", "empty", None, "profiler_step: is empty")]:
            with self.assertRaises(HeteropipeError) as caught:
                import_trace(TORCH_STEPS, microbatch=MICROBATCH, profiler_step=step)
            e = caught.exception
            self.assertEqual((e.code, e.field, e.index, str(e)), (code, "profiler_step", index, message))
            # The step is one value, as the CLI's --profiler-step: the same line, no "item 1".
            if isinstance(step, str):
                run = run_bytes([native_cli(self), "trace", "--microbatch", MICROBATCH, "--profiler-step", step,
                                 *map(str, TORCH_STEPS)])
                self.assertEqual(run.stderr.decode(), "error: " + message + "\n")

    def test_an_endless_file_is_read_only_up_to_the_limit(self):
        # /dev/zero was read into all of memory; now one byte past max_trace_bytes (made small
        # here, so that the test reads a few bytes), which the core then refuses, coded.
        saved = heteropipe.LIMITS["max_trace_bytes"]
        heteropipe.LIMITS["max_trace_bytes"] = 1000
        try:
            with self.assertRaises(HeteropipeError) as caught:
                import_trace("/dev/zero")
            self.assertEqual(caught.exception.token, "/dev/zero")
        finally:
            heteropipe.LIMITS["max_trace_bytes"] = saved

    def test_a_directory_is_its_trace_files_in_name_order_as_in_the_cli(self):
        # The saved run's directory holds rank-0..2.json and its own run.json,
        # a JSON object with no traceEvents, which is left out.
        folder = REPO / "tests" / "data" / "traces" / "torch_forwarding_stage"
        files = [folder / f"rank-{r}.json" for r in range(3)]
        result = import_trace(folder, unit="us", microbatch=MICROBATCH)
        self.assertEqual(result, import_trace(files, unit="us", microbatch=MICROBATCH))
        self.assertEqual(result, self.native_json("--unit", "us", "--microbatch", MICROBATCH, folder))
        self.assertEqual((result["M"], len(result["stages"])), (8, 3))
        # A directory mixed with files takes its place in the list; gzip files count, a dot-file and a
        # file of another kind do not.
        self.assertEqual(heteropipe._core.trace_directory_files(
            ["run.json", "b.pt.trace.json.gz", ".hidden.json", "a.json", "notes.txt", "rank-10.json", "rank-2.json"]),
            ["a.json", "b.pt.trace.json.gz", "rank-10.json", "rank-2.json", "run.json"])
        # One that holds no trace file is a coded error naming it, as the CLI's.
        for empty in (REPO / "docs", REPO / "tests" / "cli" / "sims"):
            with self.subTest(directory=empty):
                with self.assertRaises(HeteropipeError) as caught:
                    import_trace([files[0], empty])
                e = caught.exception
                self.assertEqual((e.code, e.field, e.token), ("empty", "trace", str(empty)))
                native = run([native_cli(self), "trace", str(files[0]), str(empty)])
                self.assertEqual(native.stderr, "error: " + str(e) + "\n")

    def test_a_directory_member_that_cannot_be_read_is_named_as_in_the_cli(self):
        # What is no file (a dangling link, a folder named x.json) is no member, in both. A member
        # whose read fails once open (a link to /proc/self/mem, whose first page is unmapped: EIO)
        # is an OSError naming it, with the errno the CLI's "cannot be read" words; it named no file.
        source = REPO / "tests" / "data" / "traces" / "torch_forwarding_stage"
        files = [source / f"rank-{r}.json" for r in range(3)]
        with tempfile.TemporaryDirectory() as folder:
            for r in range(3):
                shutil.copy(files[r], os.path.join(folder, f"rank-{r}.json"))
            os.symlink(os.path.join(folder, "gone"), os.path.join(folder, "a.json"))
            os.mkdir(os.path.join(folder, "b.json"))
            self.assertEqual(import_trace(folder, microbatch=MICROBATCH), import_trace(files, microbatch=MICROBATCH))
            self.assertEqual(self.native_json("--microbatch", MICROBATCH, folder),
                             import_trace(files, microbatch=MICROBATCH))
            member = os.path.join(folder, "c.json")
            os.symlink("/proc/self/mem", member)
            with self.assertRaises(OSError) as caught:
                import_trace(folder, microbatch=MICROBATCH)
            e = caught.exception
            self.assertEqual((e.errno, e.filename), (errno.EIO, member))
            native = run([native_cli(self), "trace", "--microbatch", MICROBATCH, folder])
            self.assertEqual(native.stderr, "error: " + member + ": cannot be read (input/output error)\n")

    def test_a_path_that_is_no_utf8_is_read_as_the_cli_reads_it(self):
        # A name with a byte that is no UTF-8: os.listdir gives it as a str with a surrogate escape,
        # os.scandir of a bytes folder as bytes. Either is read, as the CLI reads the bytes it is given.
        source = REPO / "tests" / "data" / "traces" / "torch_forwarding_stage"
        with tempfile.TemporaryDirectory() as folder:
            run_dir = os.path.join(folder, os.fsdecode(b"run-\xff"))
            os.mkdir(run_dir)
            for r in range(3):
                shutil.copy(source / f"rank-{r}.json", os.path.join(run_dir, os.fsdecode(b"rank-%d-\xfe.json" % r)))
            names = sorted(os.listdir(run_dir))
            self.assertEqual(names[0], "rank-0-\udcfe.json")
            paths = [os.path.join(run_dir, name) for name in names]
            truth = import_trace([source / f"rank-{r}.json" for r in range(3)], microbatch=MICROBATCH)
            self.assertEqual(truth["M"], 8)
            entries = sorted(os.scandir(os.fsencode(run_dir)), key=lambda entry: entry.name)
            self.assertIsInstance(os.fspath(entries[0]), bytes)
            for given in (paths, entries, run_dir, os.fsencode(run_dir).decode("utf-8", "surrogateescape")):
                with self.subTest(given=given):
                    self.assertEqual(import_trace(given, microbatch=MICROBATCH), truth)
            self.assertEqual(self.native_json("--microbatch", MICROBATCH, run_dir), truth)
            self.assertEqual(heteropipe._core.trace_directory_files(names + ["notes-\udcff.txt"]), names)
            # What is wrong in such a file is the coded error any file gives, its token the path as given.
            bad = os.path.join(run_dir, os.fsdecode(b"bad-\xff.json"))
            with open(bad, "wb") as f:
                f.write(b'[{"ph":"X","name":"k","ts":1,"dur":-3}]')
            with self.assertRaises(HeteropipeError) as caught:
                import_trace([paths[0], bad])
            e = caught.exception
            self.assertEqual((e.code, e.field, e.index, e.token), ("negative", "dur", 35, bad))
            str(e).encode("utf-8")  # the message escapes the byte, as every message escapes what is no UTF-8
            # An empty folder of such a name: the coded error of any folder that holds no trace.
            empty = os.path.join(folder, os.fsdecode(b"empty-\xff"))
            os.mkdir(empty)
            with self.assertRaises(HeteropipeError) as caught:
                import_trace([paths[0], empty])
            self.assertEqual((caught.exception.code, caught.exception.field, caught.exception.token),
                             ("empty", "trace", empty))

    def test_options_and_bytes(self):
        data = [p.read_bytes() for p in SYNTHETIC]
        plain = gzip.decompress(data[1])
        result = import_trace([data[0], plain, bytearray(data[2])], unit="us", stat="p50")
        self.assertEqual(result, self.native_json("--unit", "us", "--stat", "p50", *SYNTHETIC))
        self.assertEqual(result["tau"], [1000.0, 2500.0, 1500.0])
        reversed_order = import_trace(SYNTHETIC, stage_order=[2, 1, 0])
        self.assertEqual((reversed_order["pipeline"], reversed_order["reason"]), (False, "stages_out_of_order"))
        self.assertEqual(reversed_order["reason_message"],
                         "the first stage receives but sends nothing, the last sends but receives nothing, or the "
                         "links' pairs contradict each other about the clocks in this order and agree in another "
                         "order of the middle stages: the stages are not in the order the messages flow; give the "
                         "files in rank order or set the stage order")

    def test_a_name_or_pattern_of_another_type_is_refused_by_its_keyword(self):
        # unit=5 was pybind11's TypeError with the binding's C++ signature; the file is never read.
        for keyword, value in (("unit", 5), ("stat", None), ("compute", b"gemm"), ("transfer", 1.5),
                               ("microbatch", ["mb"])):
            with self.assertRaises(TypeError) as caught:
                import_trace(["no-such-file.json"], **{keyword: value})
            self.assertEqual(str(caught.exception), f"import_trace: {keyword} must be a str (got {value!r})")

    def test_stage_order_and_clock_offsets_are_read_as_the_cli_reads_them(self):
        # Text as the CLI takes it, or numbers: the same import.
        self.assertEqual(import_trace(SYNTHETIC, stage_order="0, 1, 2", clock_offsets="0,-12,1"),
                         self.native_json("--stage-order", "0,1,2", "--clock-offsets", "0,-12,1", *SYNTHETIC))
        self.assertEqual(import_trace(SYNTHETIC, clock_offsets=(0, -12, 1))["clock_offsets"], [0.0, -12.0, 1.0])

        def refused(code, field, index, message, **options):
            with self.assertRaises(HeteropipeError) as caught:
                import_trace(SYNTHETIC, **options)
            e = caught.exception
            self.assertEqual((e.code, e.field, e.index, str(e)), (code, field, index, message))

        # Each was a TypeError or a ValueError with no code, or a rank cut to a whole number (0.5 read as 0).
        # An int past 2^53 is quoted as given (it was "rank 1e+20", the double it was read as).
        refused("not_a_permutation", "stage_order", None,
                "stage_order: must list ranks that ran kernels, none twice (rank 100000000000000000000 is wrong)",
                stage_order=[10 ** 20, 0, 1])
        refused("too_large", "clock_offsets", 1,
                "clock_offsets, stage 2: must be at most 1e14 (got 1000000000000000001)",
                clock_offsets=[0, 10 ** 18 + 1, 0])
        refused("not_a_permutation", "stage_order", None,
                "stage_order: must list ranks that ran kernels, none twice (rank 0.5 is wrong)",
                stage_order=[0.5, 1, 2])
        refused("not_a_number", "stage_order", 0, "stage_order, item 1: 'x' is not a number", stage_order=["x", 1, 2])
        refused("not_a_number", "clock_offsets", 1, "clock_offsets, stage 2: 'x' is not a number",
                clock_offsets=[0, "x", 0])
        # A NaN offset said "got 0"; a finite one past the limit "must be a finite number".
        refused("not_finite", "clock_offsets", 0, "clock_offsets, stage 1: must be a finite number (got nan)",
                clock_offsets=[float("nan"), 0, 0])
        refused("too_large", "clock_offsets", 1, "clock_offsets, stage 2: must be at most 1e14 (got 1e+15)",
                clock_offsets=[0, 1e15, 0])
        # Typed as the CLI's text, it is quoted as typed, as the CLI quotes it.
        refused("too_large", "clock_offsets", 1, "clock_offsets, stage 2: must be at most 1e14 (got 1e15)",
                clock_offsets="0, 1e15, 0")
        refused("wrong_length", "clock_offsets", None,
                "clock_offsets: needs S = 3 offsets, one per stage, or none (got 2)", clock_offsets=[0, 0])
        # A dict was read as its keys ({0: 0, 1: 5, 2: 9} as offsets 0, 1, 2) and a set in its own order.
        refused("not_a_number", "clock_offsets", None, "clock_offsets: '{0: 0, 1: 5, 2: 9}' is not a number",
                clock_offsets={0: 0, 1: 5, 2: 9})
        refused("not_a_number", "stage_order", None, "stage_order: '{0, 1, 2}' is not a number",
                stage_order={0, 1, 2})

    def test_real_traces_agree_with_the_cli(self):
        result = import_trace(REAL)
        self.assertEqual(result, self.native_json(*REAL))
        # T_real in parts (issue 23): model, variability, blocking and other, summing to it.
        self.assertEqual([p["cause"] for p in result["explain"]], ["model", "variability", "blocking", "other"])
        self.assertAlmostEqual(sum(p["time"] for p in result["explain"]), result["T_real"], delta=1e-9)
        self.assertEqual(result["explain"][0]["time"], result["analysis"]["T_async"])
        self.assertLessEqual(result["replay"]["async"], result["replay"]["blocking"])
        ratio = (result["replay"]["blocking"] - result["T_real"]) / (result["replay"]["blocking"] - result["replay"]["async"])
        self.assertAlmostEqual(result["overlap_ratio_replay"], ratio, delta=1e-12)
        # At min, d is 0, and a warning says why: 2 of the 10 pairs took no time.
        at_min = import_trace(REAL, stat="min")
        self.assertEqual(at_min["d"], [0.0])
        zero = [w for w in at_min["warnings"] if w["code"] == "link_time_zero"]
        self.assertEqual([(w["index"], w["value"], w["limit"]) for w in zero], [(0, 2.0, 10.0)])
        self.assertTrue(zero[0]["message"].startswith("link 0: d is 0 because 2 of its 10 transfers took no time"))
        self.assertEqual([r["kernels"] for r in result["ranks"]], [1154, 1104])
        self.assertEqual([r["transfer_kernels"] for r in result["ranks"]], [10, 10])
        self.assertEqual([w["code"] for w in result["warnings"]], ["missing_ranks", "clock_bounds_contradict"])

    def test_standard_input_is_a_file_too(self):
        done = run_bytes([native_cli(self), "trace", "--json", str(SYNTHETIC[0]), "-", str(SYNTHETIC[2])],
                         input=SYNTHETIC[1].read_bytes())
        self.assertEqual(done.returncode, 0)
        self.assertEqual(json.loads(done.stdout)["tau"], import_trace(SYNTHETIC)["tau"])

    def test_bad_input_is_a_coded_error_with_file_and_position(self):
        cases = [
            (b'{"traceEvents":[{"ph":"X","ts":', "not_json", "trace", 31),
            (b'[{"ph":"X","name":"k","ts":1,"dur":-3}]', "negative", "dur", 35),
            (b'[{"ph":"X","name":"k","ts":NaN,"dur":1}]', "not_finite", "ts", 27),
            (b'[{"ph":"X","name":"k","ts":1,"dur":1e308}]', "too_large", "dur", 35),
            (b'[{"ph":"X","name":"k","ts":"1","dur":1}]', "wrong_type", "ts", 27),
            (b'[{"ph":"X","name":"k","ts":1}]', "missing_field", "dur", 1),
            (b'[{"ph":"B","name":"k","pid":0,"tid":1,"ts":1}]', "unmatched_begin", "ph", 1),
            (b"", "empty", "trace", 0),
            (bytes(range(256)), "not_a_trace", "trace", 0),
            (b'{"traceEvents":[]}\x00x', "not_json", "trace", 18),
            (gzip.compress(b"[]" * 1000)[:20], "bad_gzip", "trace", None),
        ]
        for data, code, field, index in cases:
            with self.subTest(code=code, data=data[:40]):
                with self.assertRaises(HeteropipeError) as caught:
                    import_trace(data)
                e = caught.exception
                self.assertEqual((e.code, e.field, e.token), (code, field, "(bytes 1)"))
                if index is not None:
                    self.assertEqual(e.index, index)
                self.assertTrue(str(e).startswith("(bytes 1), "), str(e))
        # Each number of the file names its own key and its rule (issue 22.17).
        said = [
            (b'{"distributedInfo":{"rank":0,"world_size":-5},"traceEvents":[]}',
             "(bytes 1), byte 42: world_size must be between 1 and 2^53 (got -5)"),
            (b'{"baseTimeNanoseconds":1e30,"traceEvents":[]}',
             "(bytes 1), byte 23: baseTimeNanoseconds must be between 0 and 9e18 (got 1e30)"),
            (b'{"baseTimeNanoseconds":"x","traceEvents":[]}',
             "(bytes 1), byte 23: baseTimeNanoseconds has the wrong type of value (got \"x\")"),
            (b'[{"ph":"X","name":"k","ts":"NaN","dur":1}]',
             "(bytes 1), byte 27: ts has the wrong type of value (got \"NaN\")"),
            (b'[{"ph":"X","name":"k","ts":1,"dur":2,"pid":1e300}]',
             "(bytes 1), byte 43: pid must be between -2^53 and 2^53 (got 1e300)"),
            (b"stage,microbatch,kind,start_s,end_s\n0,0,compute,1e12,2e12\n",
             "(bytes 1), line 2: start must be at most 100,000,000,000 (got 1e12)"),
            (gzip.compress(b"[]") + b"x", "(bytes 1), byte 22: bytes that are not gzip data follow the end of the gzip data"),
        ]
        for data, message in said:
            with self.subTest(data=data[:40]):
                with self.assertRaises(HeteropipeError) as caught:
                    import_trace(data)
                self.assertEqual(str(caught.exception), message)
        # The value as typed is kept apart from the file's label, and survives a pickle.
        with self.assertRaises(HeteropipeError) as caught:
            import_trace(b'[{"ph":"X","name":"k","ts":1,"dur":"12"}]')
        e = caught.exception
        self.assertEqual((e.code, e.field, e.token, e.typed), ("wrong_type", "dur", "(bytes 1)", '"12"'))
        again = pickle.loads(pickle.dumps(e))
        self.assertEqual((again.typed, str(again)), ('"12"', str(e)))
        self.assertEqual(str(e), '(bytes 1), byte 35: dur has the wrong type of value (got "12")')
        # CR-only lines and a quoted header read like the plain file.
        plain = b"stage,microbatch,kind,start,end\n0,0,compute,0,2\n1,0,compute,3,5\n0,0,transfer,2,3\n"
        quoted = plain.replace(b"stage,microbatch,kind,start,end", b'"stage","microbatch","kind","start","end"')
        self.assertEqual(import_trace(quoted.replace(b"\n", b"\r")), import_trace(plain))
        with self.assertRaises(HeteropipeError) as caught:
            import_trace(SYNTHETIC, stat="max")
        self.assertEqual((caught.exception.code, caught.exception.field), ("unknown_name", "stat"))
        with self.assertRaises(HeteropipeError) as caught:
            import_trace(SYNTHETIC, compute="(")
        self.assertEqual(caught.exception.code, "bad_pattern")


if __name__ == "__main__":
    unittest.main()
