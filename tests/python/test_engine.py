"""The exact schedule engine (recurrence and timeline) against the closed
forms: Appendix B (docs/model.md), both regimes, several M."""

import unittest

from heteropipe import Pipeline
from support import APPENDIX_B

BATCHES = (1, 2, 3, 8, 17, 100, 1000)


def relative(a, b):
    return abs(a - b) / max(abs(b), 1e-300)


class AppendixB(unittest.TestCase):
    def test_recurrence_equals_closed_forms(self):
        for number, (tau, d) in enumerate(APPENDIX_B, start=1):
            p = Pipeline(tau, d)
            for M in BATCHES:
                with self.subTest(configuration=number, M=M):
                    T_async = p.recurrence(M, "async")
                    T_block = p.recurrence(M, "blocking")
                    self.assertLessEqual(relative(T_async, p.async_(M)), 1e-12)
                    self.assertLessEqual(relative(T_block, p.block(M)), 1e-12)
                    self.assertLessEqual(p.async_(M), p.block(M))
                    if not any(d):
                        self.assertLessEqual(relative(T_async, p.free(M)), 1e-12)

    def test_phase_transition_flags(self):
        flags = [Pipeline(tau, d).phase() for tau, d in APPENDIX_B]
        # 7: d0 = 4 <= slack 4.5; 8: d0 = 4.6 > 4.5; 9: d = 10 > 0; 10: d = 1 > 0;
        # 11: last link 0.9 > 1.7 - 0.9 = 0.8.
        self.assertEqual(flags, [False, False, False, False, False, False, False, True, True, True, True])

    def test_aliases_of_the_regimes(self):
        p = Pipeline(*APPENDIX_B[7])
        self.assertEqual(p.recurrence(16, "async"), p.recurrence(16))
        self.assertNotEqual(p.recurrence(16, "async"), p.recurrence(16, "blocking"))
        # The former spellings still read, and the timeline names its regime as written now.
        self.assertEqual(p.recurrence(16, "asynchronous"), p.recurrence(16, "async"))
        self.assertEqual(p.recurrence(16, "block"), p.recurrence(16, "blocking"))
        self.assertEqual(p.timeline(4, "asynchronous").regime, "async")
        self.assertEqual(p.timeline(4, "block").regime, "blocking")
        self.assertEqual(p.block(16), p.blocking(16))


class Timeline(unittest.TestCase):
    def check_schedule(self, p, M, regime):
        t = p.timeline(M, regime)
        S = p.S
        start, finish = t.compute_start.tolist(), t.compute_finish.tolist()
        sent, arrived = t.transfer_start.tolist(), t.transfer_finish.tolist()
        self.assertEqual((t.S, t.M, t.regime), (S, M, regime))
        self.assertEqual((len(start), len(sent)), (M * S, M * (S - 1)))
        self.assertEqual(t.makespan, finish[-1])
        self.assertEqual(t.makespan, p.recurrence(M, regime))
        for m in range(M):
            for s in range(S):
                cell = m * S + s
                self.assertAlmostEqual(finish[cell] - start[cell], p.tau[s], places=9)
                if s > 0:  # the micro-batch arrived from the previous stage
                    self.assertGreaterEqual(start[cell], arrived[m * (S - 1) + s - 1])
                if m > 0:  # the stage is free: no overlap on one stage
                    busy_until = finish[cell - S] if regime == "async" or s == S - 1 \
                        else arrived[(m - 1) * (S - 1) + s]
                    self.assertGreaterEqual(start[cell], busy_until)
                if s < S - 1:
                    transfer = m * (S - 1) + s
                    self.assertEqual(sent[transfer], finish[cell])
                    self.assertAlmostEqual(arrived[transfer] - sent[transfer], p.d[s], places=9)

    def test_schedules_of_appendix_b(self):
        for number, (tau, d) in enumerate(APPENDIX_B, start=1):
            for regime in ("async", "blocking"):
                with self.subTest(configuration=number, regime=regime):
                    self.check_schedule(Pipeline(tau, d), 9, regime)

    def test_arrays_support_the_buffer_protocol(self):
        t = Pipeline([0.5, 1, 1, 5], [0.2, 0.1, 0.3]).timeline(3, "async")
        view = memoryview(t.compute_finish)
        self.assertEqual((view.format, view.ndim, view.readonly), ("d", 1, True))
        self.assertEqual(view.tolist(), t.compute_finish.tolist())
        self.assertEqual(len(t.compute_finish), 12)
        self.assertEqual(t.compute_finish[-1], t.makespan)
        self.assertEqual(list(t.transfer_finish)[:3], t.transfer_finish.tolist()[:3])
        self.assertEqual(t.compute_start.tolist()[:4], [0.0, 0.7, 1.8, 3.0999999999999996])
        with self.assertRaises(IndexError):
            t.compute_start[12]

    def test_fields_as_the_core_names_them(self):
        t = Pipeline([0.5, 1, 1, 5]).timeline(2, "blocking")
        self.assertEqual(list(t.as_dict()), ["S", "M", "regime", "makespan", "utilization", "compute_start",
                                             "compute_finish", "transfer_start", "transfer_finish"])
        self.assertEqual(repr(t), "<Timeline blocking S=4 M=2>")
        self.assertEqual(t.makespan, 12.5)
        # Stage 3 (tau 5, no send) is busy 2 x 5 of the 12.5: 0.8.
        self.assertEqual(t.utilization.tolist(), [2 * 0.5 / 12.5, 2 * 1 / 12.5, 2 * 1 / 12.5, 2 * 5 / 12.5])
        with self.assertRaises(AttributeError):
            t.makespan = 0
        with self.assertRaises(AttributeError):
            t.compute_time
        c = Pipeline([0.5, 1, 1, 5]).curve(8, points=20)
        self.assertEqual(list(c), ["M", "T_free", "T_async", "T_block", "T_gpipe", "gpipe_overestimate"])

    def test_curve(self):
        p = Pipeline([0.5, 1, 1, 5])
        c = p.curve(8, points=20)
        Ms = [int(M) for M in c["M"].tolist()]
        self.assertEqual(Ms, list(range(1, 9)))
        self.assertEqual(c["T_gpipe"].tolist()[0], 20.0)
        self.assertEqual(c["T_async"].tolist(), [p.async_(M) for M in Ms])


if __name__ == "__main__":
    unittest.main()
