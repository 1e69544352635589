#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Unit tests of lab/analysis/wakeup_cost.py (make scale's report), on
synthetic runs whose figures are known: the tracer's cost subtracted once
per call and once per nested traced call, percentiles, the paired
comparison and its verdict, the growth fit, and one message naming the
cause for each bad input."""

import io
import os
import shutil
import sys
import tempfile
import unittest
from contextlib import redirect_stderr, redirect_stdout

import tap  # noqa: E402  (tests/host, first on the path)

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lab"))
from analysis import wakeup_cost as W  # noqa: E402

C, H = 400, 700  # the tracer's cost in a call, and per nested traced call


def stats_mean(xs):
    return sum(xs) / len(xs)


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def platform(d, name, cpus, costs, reps=2, lost=0, search=None):
    """A platform's run: COSTS {policy: true cost of select_task_rq_fair};
    SEARCH {policy: true cost of the series' search}, traced inside it."""
    search = search or {}
    log = [f"wakeup-cost: cpus {cpus} perf-domains 2 uptime-s 0.52 mem-used-kb 40960"]
    for r in range(1, reps + 1):
        for p, cost in costs.items():
            lines = [f"lab_trace_empty {C + d_} 0" for d_ in (-16, 0, 16)]
            lines += [f"lab_trace_nested {C + H} 1"] * 3
            for i in range(100):
                k = 1 if p in search else 0
                lines.append(f"select_task_rq_fair {cost + r + i + C + k * H} {k}")
                if k:
                    lines.append(f"find_energy_efficient_cpu_sd {search[p] + C} 0")
            write(os.path.join(d, name, "wakeup-cost", f"periodic-{cpus}-p{p}-r{r}.txt"),
                  "\n".join(lines) + "\n")
            log.append(f"wakeup-cost workload periodic:{cpus} policy {p} rep {r} "
                       f"samples {len(lines)} lost {lost}")
    write(os.path.join(d, name, "experiment.log"), "\n".join(log) + "\n")


class WakeupCost(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)
        self.d = self.tmp.name

    def config(self, plats):
        write(os.path.join(self.d, "config"),
              f"command=lab/scale -p \"{plats}\"\nplatforms={plats}\n")

    def test_tracer_cost_subtracted(self):
        platform(self.d, "a", 8, {1: 1000, 2: 900}, search={2: 300})
        cpus, pds, runs, calib, _ = W.read_platform(os.path.join(self.d, "a"))
        self.assertEqual((cpus, pds), (8, 2))
        self.assertEqual(calib[("periodic:8", 1, 1)], (C, H))
        self.assertEqual(runs[("periodic:8", 1, 1)]["select_task_rq_fair"][:2], [1001, 1002])
        # The nested traced call costs its caller H, not C.
        self.assertEqual(runs[("periodic:8", 2, 2)]["select_task_rq_fair"][0], 902)
        self.assertEqual(runs[("periodic:8", 2, 1)]["find_energy_efficient_cpu_sd"][0], 300)
        self.assertNotIn("lab_trace_empty", runs[("periodic:8", 1, 1)])

    def test_frozen_runs_calibrated_by_the_clock(self):
        lines = [f"select_task_rq_fair {5000 + i} 0\nsched_clock 48 0" for i in range(10)]
        write(os.path.join(self.d, "f", "wakeup-cost", "frozen-8-p1-r1.txt"), "\n".join(lines) + "\n")
        write(os.path.join(self.d, "f", "experiment.log"),
              "wakeup-cost: cpus 8 perf-domains 2\n"
              "wakeup-cost workload frozen:8 policy 1 rep 1 samples 20 lost 0\n")
        _, _, runs, calib, _ = W.read_platform(os.path.join(self.d, "f"))
        self.assertEqual(calib[("frozen:8", 1, 1)], (48, 0.0))
        self.assertEqual(runs[("frozen:8", 1, 1)]["select_task_rq_fair"][:2], [4952, 4953])
        self.assertNotIn("sched_clock", runs[("frozen:8", 1, 1)])

    def test_percentile_nearest_rank(self):
        xs = list(range(1, 101))
        self.assertEqual(W.percentile(xs, 50), 50)
        self.assertEqual(W.percentile(xs, 99), 99)
        self.assertEqual(W.percentile([7], 99), 7)
        with self.assertRaises(ValueError):
            W.percentile([], 50)

    def test_fits(self):
        a, b = W.fit_linear([8, 16, 64], [100 + 3 * 8, 100 + 3 * 16, 100 + 3 * 64])
        self.assertAlmostEqual(a, 100)
        self.assertAlmostEqual(b, 3)
        self.assertAlmostEqual(W.fit_power([8, 64], [16, 128]), 1.0)
        self.assertAlmostEqual(W.fit_power([8, 64], [64, 4096]), 2.0)
        self.assertIsNone(W.fit_linear([8, 8], [1, 2]))
        self.assertIsNone(W.fit_power([8, 16], [0, 2]))

    def test_report_verdicts(self):
        platform(self.d, "small", 8, {0: 500, 1: 1000, 2: 900})
        platform(self.d, "big", 64, {0: 500, 1: 4000, 2: 6000})
        write(os.path.join(self.d, "small.log"), "run: booting\nrun: done in 17s: x\n")
        self.config("small big")
        text = W.report(self.d)
        self.assertIn("| small | 8 | 2 | periodic:8 | series | 200 | 0 | - | 951 |", text)
        self.assertIn("| small | 8 | 2 | 0.52 | 40 | 17 |", text)
        self.assertIn("- small, periodic:8: series - 6.12 = -100 +-0 instructions per call, "
                      "each run's interquartile mean paired (met", text)
        self.assertIn("- big, periodic:64: series - 6.12 = +2000 +-0 instructions per call, "
                      "each run's interquartile mean paired (MISSED", text)
        self.assertIn("| select_task_rq_fair | periodic | 6.12 | 8: 1051, 64: 4051 |", text)

    def test_interquartile_mean(self):
        # A tick's quantization: calls half at 0, half at 16; the median
        # takes one side (0 here), the mean of the middle half says 8.
        self.assertEqual(W.percentile([0] * 5 + [16] * 5, 50), 0)
        self.assertEqual(W.interquartile_mean([0, 0, 0, 0, 16, 16, 16, 16]), 8)
        self.assertEqual(W.interquartile_mean([1, 2, 3, 1000]), 2.5)
        self.assertEqual(W.interquartile_mean([7]), 7)

    def test_traced_verdict_on_midmeans_frozen_on_means(self):
        # The series' median path is 16 cheaper than 6.12's, but one call
        # in ten searches at 3000: its mean is higher, its median lower.
        for w in ("hackbench:2", "frozen:8"):
            for r in (1, 2, 3):
                for p, costs in ((1, [1000] * 10), (2, [984] * 9 + [3000 + r])):
                    # Either way the timing's own cost is 48 a call.
                    if w.startswith("frozen"):
                        lines = ["sched_clock 48 0"]
                    else:
                        lines = ["lab_trace_empty 48 0", "lab_trace_nested 96 1"]
                    lines += [f"select_task_rq_fair {c + 48} 0" for c in costs]
                    name = w.replace(":", "-")
                    write(os.path.join(self.d, "v", "wakeup-cost", f"{name}-p{p}-r{r}.txt"),
                          "\n".join(lines) + "\n")
        write(os.path.join(self.d, "v", "experiment.log"), "wakeup-cost: cpus 8 perf-domains 2\n")
        self.config("v")
        text = W.report(self.d)
        self.assertIn("- v, hackbench:2: series - 6.12 = -16 +-0 instructions per call, "
                      "each run's interquartile mean paired (met", text)
        self.assertIn("- v, frozen:8: series - 6.12 = +186 +-", text)
        self.assertIn("each run's mean paired (MISSED", text)

    def test_frozen_calls_that_did_not_search(self):
        for p, costs in ((0, [300] * 4), (1, [5000, 5000, 400, 400]), (2, [6000] * 4)):
            lines = [f"select_task_rq_fair {c + 48} 0\nsched_clock 48 0" for c in costs]
            write(os.path.join(self.d, "f", "wakeup-cost", f"frozen-8-p{p}-r1.txt"),
                  "\n".join(lines) + "\n")
        write(os.path.join(self.d, "f", "experiment.log"), "wakeup-cost: cpus 8 perf-domains 2\n")
        self.config("f")
        text = W.report(self.d)
        self.assertIn("| f | 8 | 2 | frozen:8 | 6.12 | 4 | 0 | 2 | 5000 | 400 | 5000 |", text)
        self.assertIn("| f | 8 | 2 | frozen:8 | series | 4 | 0 | 0 | 6000 | 6000 | 6000 | 0.0 | +1000 |", text)
        self.assertIn("| f | 8 | 2 | frozen:8 | none | 4 | 0 | - | 300 |", text)

    def test_frozen_paired_task_by_task(self):
        # Two runs of two tasks, 10 calls each.  The series costs 100
        # less on every task but one, where 6.12 did not search (under
        # 3 x none's 300): that task is left out for both policies.
        costs = {1: [(5000, 5000), (6000, 400)], 2: [(4900, 4900), (5900, 5000)]}
        log = ["wakeup-cost: cpus 8 perf-domains 2"]
        for r in (1, 2):
            log += [f"wakeup-cost: frozen run {r} task {10 * r + 1} policies 0 1 2",
                    f"wakeup-cost: frozen run {r} task {10 * r + 2} policies 2 1 0"]
            for p in (0, 1, 2):
                tasks = [(300, 300)] if p == 0 else [costs[p][r - 1]]
                lines = [f"select_task_rq_fair {c + 48} 0\nsched_clock 48 0"
                         for c in tasks[0] for _ in range(10)]
                write(os.path.join(self.d, "t", "wakeup-cost", f"frozen-8-p{p}-r{r}.txt"),
                      "\n".join(lines) + "\n")
        write(os.path.join(self.d, "t", "experiment.log"), "\n".join(log) + "\n")
        self.config("t")
        text = W.report(self.d)
        self.assertIn("- t, frozen:8: series - 6.12 = -100 +-0 instructions per call, each "
                      "task's mean paired over 3 tasks, 1 left out (one policy did not "
                      "search); by order: 6.12 first -100 +-0 (2), series first -100 (1) (met", text)
        self.assertIn("| t | 8 | 2 | frozen:8 | series | 40 | 0 | 0 |", text)
        log.append("wakeup-cost: frozen run 1 task 13 policies 1 0 2")
        write(os.path.join(self.d, "t", "experiment.log"), "\n".join(log) + "\n")
        with self.assertRaisesRegex(W.CostError, "20 calls are not 3 tasks' equal shares"):
            W.report(self.d)

    def test_task_means_of_the_calls_that_searched(self):
        # Floor 900: task 1 searched in 3 calls of 4 (its mean is theirs),
        # task 2 in 1 of 4 (left out: None).
        xs = [5000, 5000, 5300, 400, 6000, 400, 400, 400]
        self.assertEqual(W.task_means(xs, 2, 900), [5100, None])
        self.assertEqual(W.task_means(xs, 1, None), [stats_mean(xs)])
        with self.assertRaisesRegex(W.CostError, "8 calls are not 3 tasks' equal shares"):
            W.task_means(xs, 3, 900)

    def test_switched_calls_left_out_of_the_mean(self):
        xs = list(range(1000, 1100)) * 10 + [4_000_000]
        kept = W.unswitched(xs)
        self.assertEqual(len(kept), 1000)
        self.assertNotIn(4_000_000, kept)
        self.assertEqual(W.unswitched([0, 0, 5]), [0, 0, 5])

    @unittest.skipUnless(shutil.which("gnuplot"), "no gnuplot")
    def test_plot_of_the_frozen_curve(self):
        for name, cpus in (("small", 8), ("big", 64)):
            for p, cost in ((0, 300), (1, 100 * cpus), (2, 120 * cpus)):
                lines = [f"select_task_rq_fair {cost + 48} 0\nsched_clock 48 0"] * 5
                write(os.path.join(self.d, name, "wakeup-cost", f"frozen-{cpus}-p{p}-r1.txt"),
                      "\n".join(lines) + "\n")
            write(os.path.join(self.d, name, "experiment.log"),
                  f"wakeup-cost: cpus {cpus} perf-domains 2\n")
        self.config("small big")
        text = W.report(self.d)
        self.assertIn("![cost against CPUs](cost-frozen.png)", text)
        self.assertIn("| select_task_rq_fair | frozen | series | 8: 960, 64: 7680 | 0 + 120.0 N | 1.00 |",
                      text)
        self.assertIn("| select_task_rq_fair | frozen | none | 8: 300, 64: 300 | 300 + 0.0 N | 0.00 |",
                      text)
        self.assertTrue(os.path.getsize(os.path.join(self.d, "cost-frozen.png")) > 0)

    def test_lost_events_refused(self):
        platform(self.d, "a", 8, {1: 1000}, lost=3)
        with self.assertRaisesRegex(W.CostError, "lost 3 events"):
            W.read_platform(os.path.join(self.d, "a"))

    def test_bad_inputs(self):
        with self.assertRaisesRegex(W.CostError, "experiment.log: missing"):
            W.read_platform(os.path.join(self.d, "none"))
        platform(self.d, "a", 8, {1: 1000})
        f = os.path.join(self.d, "a", "wakeup-cost", "periodic-8-p1-r1.txt")
        write(f, "select_task_rq_fair 12 0\n")
        with self.assertRaisesRegex(W.CostError, "no lab_trace_empty calls"):
            W.read_platform(os.path.join(self.d, "a"))
        write(f, "select_task_rq_fair twelve\n")
        with self.assertRaisesRegex(W.CostError, r"periodic-8-p1-r1.txt:1: not 'FUNCTION NS K'"):
            W.read_platform(os.path.join(self.d, "a"))

    def test_main(self):
        platform(self.d, "a", 8, {1: 1000, 2: 900})
        self.config("a")
        out, err = io.StringIO(), io.StringIO()
        with redirect_stdout(out), redirect_stderr(err):
            self.assertEqual(W.main([self.d]), 0)
            self.assertEqual(W.main([os.path.join(self.d, "a")]), 1)
        self.assertIn("## select_task_rq_fair(), per call", out.getvalue())
        self.assertTrue(os.path.isfile(os.path.join(self.d, "report.md")))
        self.assertIn("wakeup_cost.py: error:", err.getvalue())


if __name__ == "__main__":
    tap.run(sys.modules[__name__], "lab/analysis/wakeup_cost")
