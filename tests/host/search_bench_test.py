#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Unit tests of lab/analysis/search_bench.py (lab/search-bench's report), on
synthetic consoles of the KUnit suite sched_energy_bench whose costs are
known: the empty batch subtracted per wake-up, the joint fit recovering the
terms it was built from, the shapes and the target count, and one message
naming the cause for each bad input."""

import io
import os
import sys
import tempfile
import unittest
from contextlib import redirect_stderr, redirect_stdout

import tap  # noqa: E402  (tests/host, first on the path)

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lab"))
from analysis import search_bench as S  # noqa: E402

EMPTY = 1328  # an empty batch, as the suite measured one


def cost(policy, n, p, s):
    """The true cost per wake-up of the synthetic consoles."""
    if policy == "6.12":
        return 400 + 150 * n + 140 * p + 12 * p * s + 0.5 * p * n
    return 900 + 90 * n + 130 * p + 16 * p * s + 0.25 * p * n


def console(d, result="ok", agree=True, points=None, states=True):
    """A console of the suite: POINTS [(N, P, S)] (default N = 8..64, P = 1..N,
    S = 10), and S = 1..64 at N = 64, P = 8 when STATES."""
    if points is None:
        points = [(n, p, 10) for n in (8, 16, 32, 64) for p in (1, 2, 4, 8, 16, 32, 64) if p <= n]
    lines = ["[    0.100000]     # Subtest: sched_energy_bench"]
    if agree:
        lines.append("[    0.120000]     # choices_agree: agree: 176 landscapes, "
                     "6.12's choice adds more energy than the least in 3")
    cases = [("search_cost_cpus", pt) for pt in points]
    if states:
        cases += [("search_cost_states", (64, 8, s)) for s in (1, 2, 4, 8, 16, 32, 64)]
    for case, (n, p, s) in cases:
        w = max(32, 8192 // n)
        for pol in ("6.12", "series"):
            lo = EMPTY + round(cost(pol, n, p, s) * w)
            lines.append(f"[    0.200000]     # {case}: cost N={n} P={p} S={s} policy={pol} "
                         f"wakeups={w} min={lo} median={lo + 16} empty={EMPTY} cpu=3")
    lines += ["[    1.000000] # sched_energy_bench: pass:3 fail:0 skip:0 total:3",
              f"[    1.000001] {result} 1 sched_energy_bench"]
    with open(os.path.join(d, "console.log"), "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")


class SearchBench(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)
        self.d = self.tmp.name

    def test_empty_batch_subtracted_per_wakeup(self):
        console(self.d)
        points, agree, totals, result = S.read_console(os.path.join(self.d, "console.log"))
        pt = points[("search_cost_cpus", 8, 1, 10, "6.12")]
        lo, med = S.per_wakeup(pt)
        self.assertAlmostEqual(lo, cost("6.12", 8, 1, 10), delta=0.01)
        self.assertAlmostEqual(med - lo, 16 / 1024)
        self.assertEqual(agree, (176, 3))
        self.assertEqual(totals, (3, 0, 0))
        self.assertEqual(result, "ok")

    def test_joint_fit_recovers_the_terms(self):
        rows = [(n, p, s, cost("series", n, p, s))
                for n in (8, 64, 512) for p in (1, 8, n) for s in (1, 10, 64)]
        (a, b, c, d, e), r2 = S.fit_joint(rows)
        for got, want in zip((a, b, c, d, e), (900, 90, 130, 16, 0.25)):
            self.assertAlmostEqual(got, want, places=6)
        self.assertAlmostEqual(r2, 1.0)
        self.assertIsNone(S.fit_joint(rows[:3]))

    def test_solve(self):
        self.assertEqual(S.solve([[2.0, 0.0], [0.0, 4.0]], [2.0, 8.0]), [1.0, 2.0])
        self.assertIsNone(S.solve([[1.0, 2.0], [2.0, 4.0]], [1.0, 2.0]))

    def test_report(self):
        console(self.d)
        text, passed = S.report(self.d)
        self.assertTrue(passed)
        self.assertIn("KUnit suite sched_energy_bench: passed (pass 3, fail 0, skip 0).", text)
        self.assertIn("6.12's choice adds more than the least in 3 of them.", text)
        # N = 64 in one perf domain: 6.12 400 + 9600 + 140 + 120 + 32,
        # the series 900 + 5760 + 130 + 160 + 16.
        self.assertIn("| one perf domain | 64 | 1 | 10292 | 6966 | -32.3 |", text)
        self.assertIn("| clusters of 8 | 64 | 8 |", text)
        self.assertIn("| one perf domain per CPU | 64 | 64 |", text)
        self.assertIn("| series | 900 | 90.0 | 130.0 | 16.00 | 0.250 | 1.0000 |", text)
        # The series is above 6.12 at 8 CPUs only, where its constant weighs.
        total = 22 + 7
        below = sum(cost("series", n, p, s) <= cost("6.12", n, p, s)
                    for n, p, s in [(n, p, 10) for n in (8, 16, 32, 64)
                                    for p in (1, 2, 4, 8, 16, 32, 64) if p <= n]
                    + [(64, 8, s) for s in (1, 2, 4, 8, 16, 32, 64)])
        self.assertIn(f"met on {below} of {total} landscapes", text)

    def test_failed_suite(self):
        console(self.d, result="not ok")
        out, err = io.StringIO(), io.StringIO()
        with redirect_stdout(out), redirect_stderr(err):
            self.assertEqual(S.main([self.d]), 1)
        self.assertIn("sched_energy_bench: FAILED", out.getvalue())
        self.assertIn("the KUnit suite sched_energy_bench failed", err.getvalue())

    def test_bad_inputs(self):
        with self.assertRaisesRegex(S.BenchError, "no console.log"):
            S.report(self.d)
        with open(os.path.join(self.d, "console.log"), "w", encoding="utf-8") as f:
            f.write("[    0.1] Booting Linux\n")
        with self.assertRaisesRegex(S.BenchError, "no result of the KUnit suite"):
            S.report(self.d)
        console(self.d, points=[], states=False)
        with self.assertRaisesRegex(S.BenchError, "printed no cost line"):
            S.report(self.d)

    def test_main_reads_the_boot_directory(self):
        os.makedirs(os.path.join(self.d, "boot"))
        console(os.path.join(self.d, "boot"))
        with open(os.path.join(self.d, "config"), "w", encoding="utf-8") as f:
            f.write("command=lab/search-bench -m 64 -p juno-r0\ndate=D\nlab_commit=C\n")
        out = io.StringIO()
        with redirect_stdout(out):
            self.assertEqual(S.main([self.d]), 0)
        self.assertIn("Command: `lab/search-bench -m 64 -p juno-r0`; D; lab C.", out.getvalue())
        self.assertTrue(os.path.isfile(os.path.join(self.d, "report.md")))
        self.assertTrue(os.path.isfile(os.path.join(self.d, "search-cost.png")))


if __name__ == "__main__":
    tap.run(sys.modules[__name__], "lab/analysis/search_bench")
