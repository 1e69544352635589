#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Unit tests of lab/analysis/threshold.py (lab/threshold's report), on
synthetic runs on Juno r0 (CPUs 1 and 2 its big ones) whose figures are
known: the paired comparisons and the verdicts they give, runs in two
modes told from spread, the share of the energy above the class, the
periods ended late, the optimum, and one message naming the cause for
each bad input."""

import io
import json
import os
import sys
import tempfile
import unittest
from contextlib import redirect_stderr, redirect_stdout

import tap  # noqa: E402  (tests/host, first on the path)

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lab"))
from analysis import threshold as T  # noqa: E402

SCENARIO = "juno-r0 little 446 4 76 4 5296 16000"


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def run_line(policy, rep, joules, big_share=0.5, n=4, run_us=5296, period_us=16000,
             late=None):
    """A bench-energy line: JOULES in all, BIG_SHARE of the CPUs' energy
    on CPU 1 (a big CPU), the rest on CPU 0 (a little one); LATE, if
    given, (periods ended late, periods)."""
    uj = int(joules * 1e6)
    big = int(uj * big_share)
    return (f"bench-energy n {n} policy {policy} rep {rep} window_us 5000000 total_uj {uj} "
            f"domains_uj {uj} cpus cpu0:{uj - big},cpu1:{big} su 6.12 clusters_uj - "
            f"cluster_on_ms - cluster_busy_ms - opp_ms - run_us {run_us} period_us {period_us}"
            + ("" if late is None else f" loops {late[1]} late {late[0]}"))


class Threshold(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)
        self.d = self.tmp.name
        write(os.path.join(self.d, "config"),
              "command=lab/threshold -p juno-r0\nplatforms=juno-r0\npolicies=0,1,2\n"
              "duration=5\nreps=5\ndate=2026-12-05T00:00:00Z\n")
        write(os.path.join(self.d, "scenarios"), SCENARIO + "\n")

    def log(self, runs):
        """RUNS {policy: [J per rep]}."""
        lines = [run_line(p, r + 1, j) for p, js in runs.items() for r, j in enumerate(js)]
        write(os.path.join(self.d, "juno-r0", "experiment.log"), "\n".join(lines) + "\n")

    def report(self):
        text, js = T.report(self.d)
        return text, js

    def test_series_above_none_misses(self):
        none = [1.00, 1.02, 0.98, 1.01, 0.99]
        self.log({"0": none, "1": none, "2": [x * 1.10 for x in none]})
        text, js = self.report()
        row = js["scenarios"][0]
        self.assertAlmostEqual(row["series_vs_none"]["mean_pct"], 10.0, places=6)
        self.assertAlmostEqual(row["series_vs_none"]["two_se"], 0.0, places=6)
        verdict = {t["target"]: t for t in js["targets"]}
        self.assertFalse(verdict["series <= none"]["met"])
        self.assertFalse(verdict["series <= 6.12"]["met"])
        self.assertTrue(verdict["series runs do not split"]["met"])
        self.assertIn("series <= none in every scenario: **missed** (1 of 1)", text)

    def test_difference_within_error_bar_meets(self):
        self.log({"0": [1.0, 1.0, 1.0, 1.0, 1.0], "1": [1.0] * 5,
                  "2": [1.05, 0.95, 1.04, 0.97, 1.01]})
        _, js = self.report()
        verdict = {t["target"]: t for t in js["targets"]}
        self.assertTrue(verdict["series <= none"]["met"])
        self.assertTrue(verdict["series <= 6.12"]["met"])

    def test_two_pairs_are_not_judged(self):
        self.log({"0": [1.0, 1.0], "1": [1.0, 1.0], "2": [1.2, 1.21]})
        text, js = self.report()
        self.assertAlmostEqual(js["scenarios"][0]["series_vs_none"]["mean_pct"], 20.5, places=6)
        verdict = {t["target"]: t for t in js["targets"]}
        self.assertTrue(verdict["series <= none"]["met"])

    def test_two_modes_are_told_from_spread(self):
        self.assertIsNotNone(T.split([3.42, 4.78, 4.83, 4.84, 4.85]))
        self.assertIsNotNone(T.split([1.0, 1.01, 1.02, 1.5, 1.51]))
        self.assertIsNone(T.split([1.00, 1.02, 1.04, 1.06, 1.08]))
        self.assertIsNone(T.split([1.00, 1.03, 1.06, 1.09, 1.12]), "even spread, no mode")
        self.assertIsNone(T.split([1.0, 1.5]), "two runs make no modes")

    def test_split_series_misses_with_its_runs(self):
        self.log({"0": [1.0] * 5, "1": [1.0] * 5, "2": [0.8, 1.2, 1.21, 1.19, 1.2]})
        text, js = self.report()
        verdict = {t["target"]: t for t in js["targets"]}
        self.assertFalse(verdict["series runs do not split"]["met"])
        self.assertIn("series runs in two modes", text)
        self.assertIn("0.800 | 1.190 1.200 1.200 1.210", text)

    def test_share_above_the_class(self):
        lines = [run_line("0", r, 1.0, big_share=0.25) for r in (1, 2)]
        lines += [run_line("1", r, 1.0, big_share=1.0) for r in (1, 2)]
        lines += [run_line("2", r, 1.0, big_share=0.0) for r in (1, 2)]
        write(os.path.join(self.d, "juno-r0", "experiment.log"), "\n".join(lines) + "\n")
        text, js = self.report()
        pol = js["scenarios"][0]["policies"]
        self.assertAlmostEqual(pol["none"]["above_class_pct"], 25.0, places=3)
        self.assertAlmostEqual(pol["6.12"]["above_class_pct"], 100.0, places=3)
        self.assertAlmostEqual(pol["series"]["above_class_pct"], 0.0, places=3)
        self.assertIn("| 25/100/0 |", text)

    def test_late_periods_over_all_runs(self):
        lines = [run_line("0", 1, 1.0, late=(0, 1000)), run_line("0", 2, 1.0, late=(0, 1000))]
        lines += [run_line("1", 1, 1.0, late=(30, 1000)), run_line("1", 2, 1.0, late=(10, 1000))]
        lines += [run_line("2", r, 1.0) for r in (1, 2)]  # an older log: not counted
        write(os.path.join(self.d, "juno-r0", "experiment.log"), "\n".join(lines) + "\n")
        text, js = self.report()
        pol = js["scenarios"][0]["policies"]
        self.assertEqual(pol["none"]["late_pct"], 0.0)
        self.assertAlmostEqual(pol["6.12"]["late_pct"], 2.0, places=6)
        self.assertIsNone(pol["series"]["late_pct"])
        self.assertIn("| 0.0/2.0/- |", text)

    def test_optimum_priced_for_the_scenario(self):
        self.log({"0": [1.0] * 3, "1": [1.0] * 3, "2": [1.0] * 3})
        _, js = self.report()
        opt = js["scenarios"][0]["optimum_j"]
        # Four tasks of util 339 on four little CPUs: under 1 W for 5 s.
        self.assertIsNotNone(opt)
        self.assertGreater(opt, 0.1)
        self.assertLess(opt, 5.0)
        self.assertIn("little", js["scenarios"][0]["optimum_opps"])

    def test_other_scenarios_in_the_log_are_left_out(self):
        lines = [run_line(p, 1, 1.0) for p in "012"]
        lines.append(run_line("2", 2, 9.0, n=10, run_us=800))
        write(os.path.join(self.d, "juno-r0", "experiment.log"), "\n".join(lines) + "\n")
        _, js = self.report()
        self.assertEqual(js["scenarios"][0]["policies"]["series"]["runs_j"], [1.0])

    def test_bad_input_names_the_cause(self):
        write(os.path.join(self.d, "scenarios"), "juno-r0 little 446 4 76\n")
        with self.assertRaisesRegex(T.ThresholdError, "not PLATFORM CLASS"):
            T.report(self.d)
        write(os.path.join(self.d, "scenarios"), SCENARIO + "\n")
        write(os.path.join(self.d, "juno-r0", "experiment.log"),
              "bench-energy n 4 policy 2 rep x window_us 1 total_uj 1\n")
        with self.assertRaisesRegex(T.ThresholdError, "garbled run line"):
            T.report(self.d)
        os.remove(os.path.join(self.d, "scenarios"))
        with self.assertRaisesRegex(T.ThresholdError, "no scenarios file"):
            T.report(self.d)

    def test_failed_boot_is_reported_not_fatal(self):
        text, js = self.report()
        self.assertIn("No run: the boot failed", text)
        self.assertEqual(js["scenarios"], [])

    def test_main(self):
        self.log({"0": [1.0] * 3, "1": [1.0] * 3, "2": [1.0] * 3})
        out, err = io.StringIO(), io.StringIO()
        with redirect_stdout(out), redirect_stderr(err):
            self.assertEqual(T.main([self.d]), 0)
            self.assertEqual(T.main([os.path.join(self.d, "juno-r0")]), 1)
        self.assertIn("## juno-r0", out.getvalue())
        with open(os.path.join(self.d, "report.json"), encoding="utf-8") as f:
            self.assertEqual(len(json.load(f)["scenarios"]), 1)
        self.assertIn("threshold.py: error:", err.getvalue())


if __name__ == "__main__":
    tap.run(sys.modules[__name__], "lab/analysis/threshold")
