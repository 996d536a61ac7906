"""Pipeline.simulate: the same numbers as the native CLI's ``simulate --json``,
the same bits for the same seed as the core's golden values, and every bad
input with its code, field and position."""

import json
import math
import pickle
import struct
import unittest

from heteropipe import HeteropipeError, Pipeline

from support import REPO, native_cli, run


def bits(x: float) -> int:
    return struct.unpack("<Q", struct.pack("<d", x))[0]


def cli_json(test, *args):
    out = run([native_cli(test), "simulate", *args, "--json"], cwd=REPO)
    test.assertEqual(out.returncode, 0, out.stderr)
    return json.loads(out.stdout)


class SimulateAgainstCli(unittest.TestCase):
    def test_monte_carlo_equals_the_cli_json_bit_for_bit(self):
        cases = [
            (dict(tau=[1.13, 2.90, 2.62], d=[0.1, 0.2], M=16, service="lognormal:cv=0.5",
                  link_service="exponential", buffers=1, reps=100, seed=7),
             ["--tau", "1.13,2.90,2.62", "--d", "0.1,0.2", "--M", "16", "--service", "lognormal:cv=0.5",
              "--link-service", "exponential", "--buffers", "1", "--reps", "100", "--seed", "7"]),
            (dict(tau=[0.5, 1, 1, 5], d=[0.2, 0.1, 0.3], M=12, links="serial", shared="0,1;2",
                  service="gamma:cv=1.5", link_service="uniform:spread=0.5", buffers="0, inf, 2", reps=300, seed=2**53),
             ["--tau", "0.5,1,1,5", "--d", "0.2,0.1,0.3", "--M", "12", "--links", "serial", "--shared", "0,1;2",
              "--service", "gamma:cv=1.5", "--link-service", "uniform:spread=0.5", "--buffers", "0, inf, 2",
              "--reps", "300", "--seed", str(2**53)]),
            (dict(tau=[1, 1], M=3, service_matrix=[[1, 4], [1, 1], [3, 1]], buffers=[0], timeline=True),
             ["--tau", "1,1", "--M", "3", "--service-matrix", "tests/cli/sims/matrix_blocking.csv", "--buffers", "0",
              "--timeline"]),
            (dict(tau=[1, 1], M=3, link_matrix=[[2], [0], [1]], links="blocking", timeline=True),
             ["--tau", "1,1", "--M", "3", "--link-matrix", "tests/cli/sims/links_three.csv", "--links", "blocking",
              "--timeline"]),
        ]
        for kwargs, argv in cases:
            with self.subTest(argv=argv):
                p = Pipeline(kwargs.pop("tau"), kwargs.pop("d", None))
                ours = p.simulate(**kwargs)
                theirs = cli_json(self, *argv)
                self.assertEqual(list(ours), list(theirs))
                self.assertEqual(json.loads(json.dumps(ours, default=lambda a: a.tolist())), theirs)

    def test_the_same_seed_gives_the_cores_golden_bits(self):
        # tests/core/sim_random_test.cpp holds the native core to these bits.
        p = Pipeline([1.13, 2.90, 2.62], [0.1, 0.2])
        kwargs = dict(service="lognormal:cv=0.5", link_service="exponential", buffers=1, reps=100, seed=7)
        a = p.simulate(16, **kwargs)
        self.assertEqual(bits(a["makespan"]["mean"]), 4632921010276554628)
        self.assertEqual(bits(a["makespan"]["p99"]), 4634377462268877808)
        self.assertEqual(bits(a["throughput"]["mean"]), 4598981030015126052)
        self.assertEqual(p.simulate(16, **kwargs), a)
        kwargs["seed"] = 8
        self.assertNotEqual(p.simulate(16, **kwargs)["makespan"]["mean"], a["makespan"]["mean"])

    def test_deterministic_runs_are_the_closed_forms(self):
        # Times in eighths, so that every sum is exact and the engine's order of
        # additions cannot differ from the closed form's.
        p = Pipeline([0.5, 1, 1, 5], [4.5, 0.125, 0.125])
        self.assertEqual(p.simulate(8)["makespan"]["mean"], p.async_(8))
        self.assertEqual(p.simulate(8, links="blocking")["makespan"]["mean"], p.blocking(8))
        r = p.simulate(8, links="blocking", reps=3)
        self.assertEqual((r["T_async"], r["T_block"], r["jensen_gap"]), (p.async_(8), p.blocking(8), 0.0))
        self.assertEqual(r["links"], "blocking")
        # The former names of the link modes still read, as the same modes.
        self.assertEqual(p.simulate(8, links="block", reps=3), r)
        self.assertEqual(p.simulate(8, links="delay"), p.simulate(8, links="async"))
        self.assertEqual(p.simulate(8)["links"], "async")
        self.assertEqual(Pipeline([0.5, 1, 1, 5]).simulate(8, buffers=0)["makespan"]["mean"], 42.5)

    def test_per_stage_lists_and_samples(self):
        p = Pipeline([2, 4])
        r = p.simulate(1, service_samples=[[1, 3], [1, 2, 5]], quantiles=True, scaled=True, reps=2000, seed=5)
        self.assertEqual(r["deterministic_makespan"], 6.0)
        self.assertLessEqual(r["makespan"]["max"], 1.6 * 3 + 1.6 * 5)
        # Quantiles at 0.25 and 0.75: flat outside them, so means 0.25 + 1.5 + 1.25 = 3 and 0.5 + 1.25 + 0.75 = 2.5.
        r = p.simulate(1, service_samples=[[1, 5], [2, 3]], service_probabilities=[0.25, 0.75], reps=2000, seed=3)
        self.assertEqual(r["deterministic_makespan"], 5.5)
        self.assertGreaterEqual(r["makespan"]["min"], 3.0)
        self.assertLessEqual(r["makespan"]["max"], 8.0)
        r = p.simulate(4, service=["exponential", "deterministic"], reps=10, seed=1)
        self.assertEqual(r["run"]["busy"][1], 16.0)
        self.assertEqual(sum(r["histogram"]["counts"]), 10)
        self.assertTrue(all(type(c) is int for c in r["histogram"]["counts"]))

    def test_issue_22_silent_wrong_answers(self):
        # A CV below min_cv draws exactly the mean, for every distribution (1e-300 was NaN).
        p = Pipeline([1, 2])
        for service in ("gamma:cv=1e-300", "lognormal:cv=1e-300", "uniform:spread=1e-300", "gamma:cv=1e-10"):
            with self.subTest(service=service):
                r = p.simulate(4, service=service, link_service=service, reps=3)
                self.assertEqual((r["makespan"]["min"], r["makespan"]["max"]), (9.0, 9.0))
        self.assertTrue(math.isfinite(p.simulate(4, service="gamma:cv=1e-8", reps=50)["makespan"]["mean"]))
        # Block links: the blocking recurrence's bits (T_block_recurrence), as delay links give T_async's.
        q = Pipeline([2, 0, 2.6306419864991297], [4.572090012088631, 2.865549961807062])
        self.assertEqual(q.simulate(3, links="block")["makespan"]["mean"], 25.212461984572084)
        self.assertEqual(q.simulate(3, links="block")["makespan"]["mean"],
                         cli_json(self, "--tau", "2,0,2.6306419864991297", "--d",
                                  "4.572090012088631,2.865549961807062", "--M", "3",
                                  "--links", "block")["deterministic_makespan"])


class SimulateBadInput(unittest.TestCase):
    def check(self, call, code, field, index, message):
        with self.assertRaises(HeteropipeError) as caught:
            call()
        e = caught.exception
        self.assertEqual((e.code, e.field, e.index, str(e)), (code, field, index, message))

    def test_a_count_past_2_53_is_judged_as_given_as_the_cli_judges_its_text(self):
        # An int past 2^53 was read as the double it rounds to: seed 2^53 + 1 ran as the seed 2^53,
        # where the CLI's --seed 9007199254740993 is refused; numpy's uint64 likewise.
        p = Pipeline([1, 2])
        message = "seed: must be between 0 and 2^53 (got 9007199254740993)"
        self.check(lambda: p.simulate(4, seed=2**53 + 1), "out_of_range", "seed", None, message)
        try:
            import numpy
        except ImportError:  # pragma: no cover (numpy is optional)
            numpy = None
        if numpy is not None:
            self.check(lambda: p.simulate(4, seed=numpy.uint64(2**53 + 1)), "out_of_range", "seed", None, message)
        self.check(lambda: p.simulate(4, seed=-(2**53) - 1), "out_of_range", "seed", None,
                   "seed: must be between 0 and 2^53 (got -9007199254740993)")
        self.check(lambda: p.simulate(4, reps=10**30), "out_of_range", "reps", None,
                   "reps: must be between 1 and 1,000,000 (got 1000000000000000000000000000000)")
        self.assertEqual(p.simulate(4, seed=2**53, reps=2)["seed"], 2**53)
        cli = run([native_cli(self), "simulate", "--tau", "1,2", "--seed", str(2**53 + 1)])
        self.assertEqual((cli.returncode, cli.stderr), (2, "error: " + message + "\n"))

    def test_a_matrix_cell_is_named_by_its_row_and_column(self):
        p = Pipeline([1, 2, 3])

        def cell(call, code, field, row, column, message):
            with self.assertRaises(HeteropipeError) as caught:
                call()
            e = caught.exception
            self.assertEqual((e.code, e.field, e.index, e.column, str(e)), (code, field, row, column, message))
            self.assertEqual(pickle.loads(pickle.dumps(e)).column, column)

        # A value that is no number: its row, and its place in the row as the column (the row was
        # named by that place before).
        cell(lambda: p.simulate(2, service_matrix=[[1, "x", 1], [3, 4, 1]]), "not_a_number", "service_matrix", 0, 1,
             "service_matrix, row 1, column 2: 'x' is not a number")
        cell(lambda: p.simulate(2, service_matrix=[[1, 2, 3], "4, 5, y"]), "not_a_number", "service_matrix", 1, 2,
             "service_matrix, row 2, column 3: 'y' is not a number")
        cell(lambda: p.simulate(2, link_matrix=[[1, 2], (3, None)]), "not_a_number", "link_matrix", 1, 1,
             "link_matrix, row 2, column 2: 'None' is not a number")
        # The core's checks: the cell's row (the micro-batch) and column (the stage, or the link).
        cell(lambda: p.simulate(2, service_matrix=[[1, 2, 3], [4, 5, math.nan]]), "not_finite", "service_matrix", 1, 2,
             "service_matrix, row 2, column 3: must be a finite number (got nan)")
        cell(lambda: p.simulate(2, link_matrix=[[1, 2e15], [0, 0]]), "too_large", "link_matrix", 0, 1,
             "link_matrix, row 1, column 2: must be at most 1e15 (got 2e+15)")
        # A whole row, or the whole matrix: no column.
        cell(lambda: p.simulate(2, service_matrix=[[1, 2, 3], 5]), "not_a_number", "service_matrix", 1, None,
             "service_matrix, row 2: '5' is not a number")
        cell(lambda: p.simulate(2, service_matrix=[[1, 2, 3], [1, 2]]), "wrong_length", "service_matrix", 1, None,
             "service_matrix, row 2: needs S = 3 values, one per stage (got 2)")
        # A stage's samples: the stage, whichever sample is bad (the sample's place was named as the stage).
        self.check(lambda: p.simulate(2, service_samples=[[1, 2, "x"], [3], [4]]), "not_a_number", "service_samples",
                   0, "service_samples, stage 1: 'x' is not a number")
        with self.assertRaises(HeteropipeError) as caught:
            p.simulate(2, service_samples=[[1], [3], [4]], reps="x")
        self.assertIsNone(caught.exception.column)

    def test_every_class(self):
        p = Pipeline([1, 2, 3], [0.5, 0.5])
        self.check(lambda: p.simulate(4, shared=[[0], [1, 0]]), "overlapping_groups", "shared", 1,
                   "shared, group 2: link 0 is already in a shared group")
        self.check(lambda: p.simulate(4, shared="0;2"), "no_such_link", "shared", 1,
                   "shared, group 2: names link 2, but the links are 0 to 1 (S-1 = 2)")
        self.check(lambda: p.simulate(4, shared=[[0.5]]), "not_integer", "shared", 0,
                   "shared, group 1: must be a whole number (got 0.5)")
        # NaN said "must be a whole number (got 0)", and a whole 1e20 "must be a whole number";
        # a list reads a link as the text does (sim::shared_link).
        self.check(lambda: p.simulate(4, shared=[[0], [math.nan]]), "not_finite", "shared", 1,
                   "shared, group 2: must be a finite number (got nan)")
        # A float is quoted as the core writes it, text as typed (it said 1e+20 for the text too).
        for shared, got in (([[1e20]], "1e+20"), ("1e20", "1e20"), ("0, \uff11e20", "\uff11e20")):
            self.check(lambda: p.simulate(4, shared=shared), "out_of_range", "shared", 0,
                       "shared, group 1: must be between 0 and 2^53 (got " + got + ")")
        self.check(lambda: p.simulate(4, service="lognormal:cv=5"), "out_of_range", "service", None,
                   "service: must be between 0 and 4 (got 5)")
        self.check(lambda: p.simulate(4, service=["deterministic", "gamma:cv=nan", "exponential"]), "not_a_number",
                   "service", 1, "service, stage 2: 'nan' is not a number")
        self.check(lambda: p.simulate(4, service="gamma:x"), "not_a_number", "service", None, "service: 'x' is not a number")
        self.check(lambda: p.simulate(4, link_service="uniform:spread=-1"), "out_of_range", "link_service", None,
                   "link_service: must be between 0 and 1 (got -1)")
        self.check(lambda: p.simulate(4, buffers=[1, -1]), "negative", "buffers", 1,
                   "buffers, link 2: must be >= 0 (got -1)")
        self.check(lambda: p.simulate(4, buffers=math.nan), "not_finite", "buffers", 0,
                   "buffers, link 1: must be a finite number (got nan)")
        self.check(lambda: p.simulate(2, service_matrix=[[1, 2, 3], [1, 2]]), "wrong_length", "service_matrix", 1,
                   "service_matrix, row 2: needs S = 3 values, one per stage (got 2)")
        self.check(lambda: p.simulate(3, service_matrix=[[1, 2, 3]]), "wrong_length", "service_matrix", None,
                   "service_matrix: needs M x S = 9 values (got 3)")
        # Given but empty is refused, never read as "none given" (issue 22).
        self.check(lambda: Pipeline([1, 2]).simulate(3, service_matrix=[]), "wrong_length", "service_matrix", None,
                   "service_matrix: needs M x S = 6 values (got 0)")
        self.check(lambda: p.simulate(3, link_matrix=[]), "wrong_length", "link_matrix", None,
                   "link_matrix: needs M x (S-1) = 6 values (got 0)")
        self.check(lambda: p.simulate(2, link_matrix=[[1, 2], [1]]), "wrong_length", "link_matrix", 1,
                   "link_matrix, row 2: needs S-1 = 2 values, one per link (got 1)")
        self.check(lambda: p.simulate(1, link_matrix=[[1, -2]]), "negative", "link_matrix", 0,
                   "link_matrix, row 1, column 2: must be >= 0 (got -2)")
        self.check(lambda: p.simulate(3, service_samples=[]), "wrong_length", "service_samples", None,
                   "service_samples: needs S = 3 stages of samples (got 0)")
        self.check(lambda: p.simulate(3, buffers=[]), "empty", "buffers", None, "buffers: needs at least one value")
        self.check(lambda: p.simulate(3, buffers=""), "empty", "buffers", None, "buffers: needs at least one value")
        self.check(lambda: p.simulate(4, service="gamma:cv=1:cv=2"), "not_a_number", "service", None,
                   "service: the value after cv= or spread= must be one number (got '1:cv=2')")
        self.check(lambda: p.simulate(2, service_samples=[[1], [2, 0], [3]]), "not_positive", "service_samples", 1,
                   "service_samples, stage 2: must be > 0 (got 0)")
        # A subnormal sample is refused as read, as the CLI's samples CSV refuses it (too_small, min_normal_number).
        self.check(lambda: p.simulate(2, service_samples=[[1], [2, 5e-324], [3]]), "too_small", "service_samples", 1,
                   "service_samples, stage 2: is too small to read (got 5e-324): a number other than 0 must be at "
                   "least 2.2250738585072014e-308 in size")
        self.check(lambda: p.simulate(2, service_samples=[[1], [2, 1e-300], [3]]), "too_small", "service_samples", 1,
                   "service_samples, stage 2: must be at least 1e-15 (got 1e-300)")
        self.check(lambda: p.simulate(2, service_samples=[[1, 2], [2, 3], [3, 4]], service_probabilities=[0, 1.5]),
                   "out_of_range", "service_probabilities", 1,
                   "service_probabilities, item 2: must be between 0 and 1 (got 1.5)")
        self.check(lambda: p.simulate(4, reps=0), "out_of_range", "reps", None,
                   "reps: must be between 1 and 1,000,000 (got 0)")
        self.check(lambda: p.simulate(4, reps=True), "not_integer", "reps", None, "reps: must be a whole number (got True)")
        self.check(lambda: p.simulate(4, seed=-1), "out_of_range", "seed", None, "seed: must be between 0 and 2^53 (got -1)")
        self.check(lambda: p.simulate(1_000_000, reps=1000), "too_many_sim_cells", "reps", None,
                   "reps: M x S x reps = 3,000,000,000 cells is over the limit of 1,000,000,000")
        # One replication over the limit is M's fault.
        self.check(lambda: p.simulate(10**9), "too_many_sim_cells", "M", None,
                   "M: M x S x reps = 3,000,000,000 cells is over the limit of 1,000,000,000")
        self.check(lambda: Pipeline([1, 2], [3]).simulate(3 * 10**8, shared="0"), "too_many_transfers", "M", None,
                   "M: with shared links, M x (S-1) = 300,000,000 transfers that may wait at once is over the limit "
                   "of 4,194,304")
        # With shared links the event engine's cells: 1/128 of the limit (8e8 once took 40 s of CPU).
        self.check(lambda: p.simulate(1_000_000, reps=3, shared="0,1"), "too_many_sim_cells", "reps", None,
                   "reps: M x S x reps = 9,000,000 cells is over the limit of 7,812,500")
        self.check(lambda: p.simulate(1_000_000, timeline=True), "too_many_cells", "M", None,
                   "M: M x S = 3,000,000 cells is over the limit of 2,000,000")
        self.check(lambda: p.simulate(4, links="fast"), "unknown_name", "link_mode", None,
                   "link_mode: must be one of async, blocking, serial (got 'fast')")
        eight = Pipeline([1] * 8)
        self.check(lambda: eight.simulate(1_000_000, buffers=[2, math.inf, 600_000, 9, 700_000, math.inf, 0]),
                   "buffer_history_too_large", "buffers", 4,
                   "buffers, link 5: S x (buffer + 1) = 5,600,008 release times to keep is over the limit of "
                   "4,194,304 (use a smaller buffer, or inf)")
        # A buffer of M - 1 or more never fills, so it keeps no history.
        self.assertEqual(eight.simulate(600_001, buffers=600_000)["makespan"]["mean"], 600_008.0)


if __name__ == "__main__":
    unittest.main()
