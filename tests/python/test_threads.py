"""Long calls run without the GIL: another Python thread makes progress while
the core works, and the results are the same as from one thread. Nothing
here measures speed: a thread that holds the GIL through a long call lets
the counter below advance at most once or twice, one that releases it lets
it run freely."""

import threading
import time
import unittest

from heteropipe import Pipeline


class Counter:
    """A thread that counts while it can get the GIL, giving it up after each
    step (time.sleep(0)), so it advances only while nobody holds it."""

    def __init__(self):
        self.count = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self):
        while not self._stop.is_set():
            self.count += 1
            time.sleep(0)

    def __enter__(self):
        self._thread.start()
        while self.count < 10:  # running
            time.sleep(0.001)
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join()

    def steps_during(self, call):
        """(steps the counter made while call() ran, call's result)."""
        before = self.count
        result = call()
        return self.count - before, result


# About a billion recurrence steps (M x S + 32 (M + S - 1)): a large share of
# a second at the core's speed, and well inside the work limit.
P = Pipeline([1.0, 2.0, 0.5, 3.0] * 16, [0.25] * 63)
M = 10 ** 7


class OtherThreadsRun(unittest.TestCase):
    def test_during_the_recurrence(self):
        with Counter() as counter:
            steps, makespan = counter.steps_during(lambda: P.recurrence(M, "blocking"))
        self.assertGreater(steps, 100)
        self.assertLessEqual(abs(makespan - P.block(M)) / P.block(M), 1e-12)

    def test_during_the_timeline(self):
        timeline_cells = 2_000_000
        with Counter() as counter:
            steps, t = counter.steps_during(lambda: P.timeline(timeline_cells // P.S, "async"))
        self.assertGreater(steps, 10)
        self.assertEqual(t.makespan, P.recurrence(timeline_cells // P.S, "async"))

    def test_results_from_threads_at_once(self):
        results = {}

        def work(regime):
            results[regime] = P.recurrence(M // 10, regime)

        threads = [threading.Thread(target=work, args=(regime,)) for regime in ("async", "blocking")]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        self.assertEqual(results, {"async": P.recurrence(M // 10, "async"),
                                   "blocking": P.recurrence(M // 10, "blocking")})
        self.assertLessEqual(abs(results["async"] - P.async_(M // 10)) / P.async_(M // 10), 1e-12)


if __name__ == "__main__":
    unittest.main()
