#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Unit tests of lab/analysis/bench.py (the report of `make bench`, which
lab/bench-report.sh runs), run by tests/host/analysis.sh; one line per
test, "ok - NAME" or "not ok - NAME".

The report was shell, awk and jq until bench.py replaced it, and its
files must not change with the port: tests/host/data/bench-report/expected
holds what the shell version wrote (report.md, verdict.json, bounds,
plot data) for the juno-r0 half of a real run (bench-report/juno, from
results/bench-20261204-142742, its config's platforms cut to juno-r0 and
its consoles to their "Linux version" line) and for the synthetic runs
tests/host/rfc-report.sh builds from tests/host/data/rfc-sample (old
lines: the Energy Model's meter; new ones: the board's, with policy b),
and since the port one line more, the hackbench comparison paired per
repetition (expected/juno's report.md).  The other tests check the tables, the paired comparison, the targets and
verdict.json on inputs small enough to check by hand."""

import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

import tap  # noqa: E402  (tests/host, first on the path)
from contextlib import redirect_stderr, redirect_stdout
from types import SimpleNamespace

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
LAB_TOP = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(LAB_TOP, "lab"))
from analysis import bench as B  # noqa: E402  (after the path is set)

DATA = os.path.join(HERE, "data", "bench-report")
EXPECTED = os.path.join(DATA, "expected")
SAMPLE_LOG = os.path.join(HERE, "data", "rfc-sample", "juno-r0-su4.16", "experiment.log")
TOOLS = os.path.join(LAB_TOP, "build", "tools")
BENCH = os.path.join(LAB_TOP, "lab", "analysis", "bench.py")
WRAPPER = os.path.join(LAB_TOP, "lab", "bench-report.sh")
need_tools = unittest.skipUnless(
    all(os.access(os.path.join(TOOLS, t), os.X_OK) for t in ("emcost", "platgen"))
    and shutil.which("gnuplot"), "no build/tools/emcost or platgen (make tools), or no gnuplot")
OUTPUTS = ("report.md", "verdict.json", "bounds-juno-r0.txt", "energy-juno-r0.dat")


def read(path):
    with open(path, "rb") as f:
        return f.read()


def bench_dir(dest, kind):
    """A directory as lab/bench writes it: the recorded juno run, or the
    synthetic old or new one tests/host/rfc-report.sh builds."""
    if kind == "juno":
        shutil.copytree(os.path.join(DATA, "juno"), dest)
        return dest
    os.makedirs(os.path.join(dest, "juno-r0-energy"))
    os.makedirs(os.path.join(dest, "juno-r0-hackbench"))
    with open(os.path.join(dest, "config"), "w") as f:
        f.write("command=test\nplatforms=juno-r0\nn=10 50\nduration=5\niter=3\nhb_loops=20\nhb_iter=1\ndate=now\n")
    lines = read(SAMPLE_LOG).decode().splitlines(True)
    if kind == "old":
        lines = [re.sub(r" su .*", "", ln.rstrip("\n")) + "\n" for ln in lines if " policy b " not in ln]
    with open(os.path.join(dest, "juno-r0-energy", "experiment.log"), "w") as f:
        f.write("".join(lines))
    with open(os.path.join(dest, "juno-r0-hackbench", "experiment.log"), "w") as f:
        for p in ("b", "0", "1", "2"):
            if kind == "new":
                f.write(f"bench-hackbench g 1 policy {p} rep 1 time_s 0.2 su 4.16\n")
            elif p != "b":
                f.write(f"bench-hackbench g 1 policy {p} rep 1 time_s 0.2\n")
    return dest


class Tmp:
    """A temporary directory, removed afterwards."""

    def __enter__(self):
        self.path = tempfile.mkdtemp(prefix="bench-report-test.")
        return self.path

    def __exit__(self, *exc):
        shutil.rmtree(self.path)


def run_main(argv):
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        rc = B.main(argv)
    return rc, err.getvalue()


def priced(cap=None, idle_all=0.0, top_all=0.0, mincost=0.0):
    """What energy_table needs of a platform, without platgen: CPU 0
    little (capacity 512), CPU 1 big (1024)."""
    cap = cap or {"0": 512, "1": 1024}
    return SimpleNamespace(cap=cap, bigcap=max(cap.values()), idle_all=idle_all, top_all=top_all,
                           mincost=mincost)


def eline(n, p, rep, total_uj, window_us=5000000, cpus="cpu0:0,cpu1:0"):
    return (f"bench-energy n {n} policy {p} rep {rep} window_us {window_us} total_uj {total_uj} "
            f"domains_uj {total_uj} cpus {cpus}")


class Equivalence(unittest.TestCase):
    """The reports of a recorded run and of two synthetic ones, byte for
    byte as in data/bench-report/expected (first what the shell version
    wrote; since, its files changed only on purpose, in the commits that
    changed the format)."""

    def check(self, kind):
        with Tmp() as tmp:
            d = bench_dir(os.path.join(tmp, kind), kind)
            res = subprocess.run([WRAPPER, d], capture_output=True, check=False)
            self.assertEqual(res.returncode, 0, res.stderr.decode())
            for name in OUTPUTS:
                with self.subTest(file=name):
                    self.assertEqual(read(os.path.join(d, name)).decode(),
                                     read(os.path.join(EXPECTED, kind, name)).decode())
            self.assertEqual(res.stdout, read(os.path.join(d, "report.md")), "the report printed")
            self.assertGreater(os.path.getsize(os.path.join(d, "energy-juno-r0.png")), 0, "the plot")

    @need_tools
    def test_recorded_run(self):
        self.check("juno")

    @need_tools
    def test_old_lines_energy_model_meter(self):
        self.check("old")

    @need_tools
    def test_new_lines_board_meter_and_policy_b(self):
        self.check("new")


class EnergyTable(unittest.TestCase):
    def test_mean_rsd_runs_window_and_big_share(self):
        energy = [eline(10, 0, 1, 1000000, 5000000, "cpu0:250000,cpu1:750000"),
                  eline(10, 0, 2, 3000000, 5200000, "cpu0:1500000,cpu1:1500000")]
        rows, _ = B.energy_table(priced(), ["10 - "], energy, 5.0, True)
        self.assertEqual(len(rows), 1)
        # mean 2 J, sd sqrt(2) J: RSD 70.71%; 2 runs; window 5.1 s; big
        # (CPU 1) 75% then 50%.
        self.assertEqual(rows[0][:6], ["10", "2.0000", "70.71", "2", "5.1000", "62.5"])
        self.assertEqual(rows[0][6:16], ["-"] * 10, "policies 1 and 2 missing")
        self.assertEqual(rows[0][16:], ["-", "-", "-", "-"], "no optimum, no pair")

    def test_policy_b_bounds_only(self):
        energy = [eline(10, "b", 1, 1000000), eline(10, 0, 1, 2000000)]
        rows, bounds = B.energy_table(priced(), ["10 - "], energy, 5.0, True)
        self.assertEqual(rows[0][1], "2.0000", "policy b left out of the table")
        self.assertEqual([b.split()[4] for b in bounds], ["b", "0"], "a bound per run, b's included")

    def test_bounds(self):
        # Every CPU idle over the 5 s: 1000 uW x 5 s = 5000 uJ; the work,
        # 1 task: 312 activations of 800 us at capacity 1024, at 0.5 uW
        # per unit of capacity: 127.8 uJ.  Every CPU at its top: 100000 uJ.
        rows, bounds = B.energy_table(priced(idle_all=1000.0, top_all=20000.0, mincost=0.5),
                                      [], [eline(1, 0, 3, 500000)], 5.0, False)
        self.assertEqual(bounds, ["bound n 1 policy 0 rep 3 total_uj 500000 low_uj 5128 "
                                  "high_uj 100000 domains_uj 500000\n"])

    def test_optimum_priced_on_the_meters_model(self):
        energy = [eline(10, p, 1, 1000000, 6000000) for p in (0, 1, 2)]
        # Board: its power over the mean window, 100000 uW x 6 s.
        rows, _ = B.energy_table(priced(idle_all=1000.0), ["10 100000 little@450MHz"], energy, 5.0, True)
        self.assertEqual(rows[0][16:18], ["0.6000", "little@450MHz"])
        # Energy Model: over the run's 5 s, then every CPU idle for 1 s.
        rows, _ = B.energy_table(priced(idle_all=1000.0), ["10 100000 little@450MHz"], energy, 5.0, False)
        self.assertEqual(rows[0][16], "0.5010")


class Paired(unittest.TestCase):
    def test_series_against_612_per_repetition(self):
        # rep 1: +10%, rep 2: -10%, rep 3: +30% (mean +10%, sd 20%, 2 SE
        # 2 x 20 / sqrt(3) = 23.1); rep 4 has no 6.12 run: not a pair.
        energy = []
        for rep, (eas, series) in enumerate([(100, 110), (100, 90), (100, 130), (None, 50)], 1):
            if eas:
                energy.append(eline(20, 1, rep, eas * 10000))
            energy.append(eline(20, 2, rep, series * 10000))
        rows, _ = B.energy_table(priced(), [], energy, 5.0, True)
        self.assertEqual(rows[0][18:], ["+10.0", "23.1"])

    def test_one_pair_no_spread(self):
        energy = [eline(20, 1, 1, 1000000), eline(20, 2, 1, 950000)]
        rows, _ = B.energy_table(priced(), [], energy, 5.0, True)
        self.assertEqual(rows[0][18:], ["-5.0", "-"])
        text, _ = B.energy_section("juno-r0", rows)
        self.assertIn("-5.00% (paired -5.0% (one pair))", text)
        self.assertNotIn("+-0.0", text)


class Variants(unittest.TestCase):
    def test_each_variant_against_series_and_612(self):
        # rep 1: 6.12 100, series 90, 2m 99 (+10% vs series, -1% vs
        # 6.12); rep 2: 100, 100, 100 (0, 0): mean +5.0 +-10.0, -0.5
        # +-1.0.  The variants not run get a row of dashes.
        energy = []
        for rep, (eas, series, m) in enumerate([(100, 90, 99), (100, 100, 100)], 1):
            energy += [eline(20, 1, rep, eas * 10000), eline(20, 2, rep, series * 10000),
                       eline(20, "2m", rep, m * 10000), eline(20, 0, rep, 1)]
        text = B.variants_section("juno-r0", energy, ["2m", "2r"])
        self.assertIn("| 20 | series | 0.9500 | 7.44% |  | -5.0% +-10.0 |\n", text)
        self.assertIn("| 20 | no margin (NO_ENERGY_MARGIN) | 0.9950 | 0.71% | +5.0% +-10.0 | -0.5% +-1.0 |\n", text)
        self.assertIn("| 20 | root domain's tipping point (NO_ENERGY_SD_FLAG) | - | - | - | - |\n", text)
        self.assertNotIn("6.12's search", text, "only the variants asked for")


def wline(n, p, rep, loops):
    return eline(n, p, rep, 1000000) + (" su 6.12 clusters_uj - cluster_on_ms - cluster_busy_ms -"
                                        f" opp_ms - run_us 800 period_us 16000 loops {loops} late 0")


class Work(unittest.TestCase):
    def test_equal_work_a_table_and_no_warning(self):
        # 1250 and 1240 loops: 0.8% apart, within the tolerance.
        text = B.work_section("juno-r0", [wline(10, 0, 1, 1250), wline(10, 1, 1, 1240),
                                          wline(10, 2, 1, 1250), wline(10, 2, 2, 1250)])
        self.assertIn("| 10 | 1250 | 1240 | 1250 | -0.8% |\n", text)
        self.assertNotIn("Unequal work", text)

    def test_unequal_work_names_the_policy_that_did_less(self):
        text = B.work_section("juno-r0", [wline(20, 0, 1, 2500), wline(20, 1, 1, 2400),
                                          wline(20, 2, 1, 2500), wline(20, "2m", 1, 10)])
        self.assertIn("**Unequal work** (more than 1% apart), energy not comparable there: "
                      "N=20: 6.12 EAS -4.0%.", text)
        self.assertIn("| 20 | 2500 | 2400 | 2500 | -4.0% |", text, "variants are not counted")

    def test_lines_without_the_field_no_section(self):
        self.assertEqual(B.work_section("juno-r0", [eline(10, 0, 1, 1), eline(10, 2, 1, 1)]), "")


def row(n, e0, e1, e2, opt, pair=("-", "-")):
    """An etab row: N, per policy mean, RSD, runs, window, big share."""
    cells = [str(n)]
    for e in (e0, e1, e2):
        cells += [e, "1.00", "3", "5.0100", "50.0"] if e != "-" else ["-"] * 5
    return cells + [opt, "little@450MHz", *pair]


class Targets(unittest.TestCase):
    def test_table_and_targets_met(self):
        text, targets = B.energy_section("juno-r0", [row(10, "1.0000", "0.7000", "0.6000", "0.5800",
                                                          ("-14.3", "2.0"))])
        self.assertIn("| 10 | 1.0000 | 1.00% | 0.7000 (-30.00%) | 1.00% | 0.6000 (-40.00%) | 1.00% "
                      "| -14.29% (paired -14.3% +-2.0) | 0.5800 | 1.21 | 1.03 |\n", text)
        self.assertIn("| 10 | 50.0 | 50.0 | 50.0 | little@450MHz | 5.0100 |\n", text)
        self.assertEqual(targets, [
            "- juno-r0, series energy <= 6.12 EAS at every N: **met**; N=10: -14.3%\n",
            "- juno-r0, series savings against none at least the seed's: **met**; N=10: -40.0% vs seed -33.4%\n",
            "- juno-r0, series energy <= 1.05 x the optimum: **met**; series / optimum N=10: 1.03\n"])

    def test_targets_missed_with_evidence(self):
        _, targets = B.energy_section("juno-r0", [row(10, "1.0000", "0.7000", "0.7700", "0.5000", ("+10.0", "3.0")),
                                                  row(50, "1.0000", "-", "0.9000", "-")])
        self.assertEqual(targets, [
            "- juno-r0, series energy <= 6.12 EAS at every N: **missed**; above at N=10: +10.0% "
            "(paired +10.0% +-3.0) N=50 (missing)\n",
            "- juno-r0, series savings against none at least the seed's: **missed**; N=10: -23.0% "
            "vs seed -33.4% (10.4 points short; optimum -50.0%)\n",
            "- juno-r0, series energy <= 1.05 x the optimum: **missed**; series / optimum above at N=10: 1.54\n"])

    def test_seed_target_only_on_juno(self):
        _, targets = B.energy_section("hikey960", [row(10, "1.0000", "0.7000", "0.6000", "-")])
        self.assertEqual(len(targets), 2)
        self.assertIn("**missed**; series / optimum above at N=10 (no optimum)", targets[1])

    def test_hackbench(self):
        lines = [f"bench-hackbench g {g} policy {p} rep 1 time_s {t}"
                 for g, p, t in ((1, 0, 0.2), (1, 1, 0.21), (1, 2, 0.203), (2, 0, 0.4), (2, 2, 0.5))]
        text, target = B.hackbench_section("juno-r0", lines)
        self.assertIn("| 1 | 40 | 0.200 | 0.00% | 0.210 (+5.00%) | 0.00% | 0.203 (+1.50%) | 0.00% | -3.33% |\n", text)
        self.assertIn("| 2 | 80 | 0.400 | 0.00% | 0.000 (-100.00%) | - | 0.500 (+25.00%) | 0.00% | - |\n", text)
        self.assertEqual(target, "- juno-r0, series hackbench time against none at most +1%: **missed**; "
                                 "above at G=1: +1.5% G=2: +25.0%\n")
        _, target = B.hackbench_section("juno-r0", [])
        self.assertIn("**missed**; above at no hackbench run", target)

    def test_hackbench_paired_per_repetition(self):
        # Series 2% and 4% slower than none in its two repetitions: +3.0 +-2.0.
        lines = [f"bench-hackbench g 1 policy {p} rep {r} time_s {t}"
                 for p, r, t in ((0, 1, 1.0), (2, 1, 1.02), (0, 2, 2.0), (2, 2, 2.08), (1, 1, 1.0))]
        text, _ = B.hackbench_section("juno-r0", lines)
        self.assertIn("+- two standard errors: G=1 +3.0% +-2.0.\n", text)
        text, _ = B.hackbench_section("juno-r0", lines[:2])
        self.assertNotIn("paired per repetition", text, "one repetition has no error bar")

    def test_hackbench_energy_paired_against_none(self):
        # None 2.0 and 4.0 J, the series 10% and 20% less: -15.0 +-10.0.
        lines = [f"bench-hackbench g 1 policy {p} rep {r} time_s 1.0 su 6.12 total_uj {uj}"
                 for p, r, uj in ((0, 1, 2000000), (2, 1, 1800000), (0, 2, 4000000), (2, 2, 3200000))]
        text, _ = B.hackbench_section("juno-r0", lines)
        self.assertIn("Energy of the runs on the meter, J (none / 6.12 EAS / series), and each EAS "
                      "policy against none, paired per repetition, +- two standard errors: "
                      "G=1: 3.000 / - / 2.500, series -15.0% +-10.0.\n", text)
        old = [ln.split(" total_uj")[0] for ln in lines]
        text, _ = B.hackbench_section("juno-r0", old)
        self.assertNotIn("Energy of the runs", text, "runs logged before the meter's field")

    @staticmethod
    def paired_lines(g, ratios):
        """Hackbench lines of group count G: none takes 1 s in every
        repetition, the series RATIO s."""
        return [f"bench-hackbench g {g} policy {p} rep {r} time_s {t}"
                for r, ratio in enumerate(ratios, 1) for p, t in ((0, 1.0), (2, ratio))]

    def test_hackbench_target_decided_by_the_error_bar(self):
        within = self.paired_lines(1, (0.996, 1.0, 1.006))       # +0.1 +-0.6: within +1%
        across = self.paired_lines(2, (0.98, 1.02, 1.06))        # +2.0 +-4.6: across +1%
        above = self.paired_lines(4, (1.04, 1.05, 1.06))         # +5.0 +-1.2: above +1%
        _, target = B.hackbench_section("juno-r0", within)
        self.assertEqual(target, "- juno-r0, series hackbench time against none at most +1%: **met**; "
                                 "G=1: +0.1% +-0.6\n")
        _, target = B.hackbench_section("juno-r0", within + across)
        self.assertEqual(target, "- juno-r0, series hackbench time against none at most +1%: "
                                 "**not resolved**; error bar across +1% at G=2: +2.0% +-4.6; "
                                 "within at G=1: +0.1% +-0.6\n")
        _, target = B.hackbench_section("juno-r0", within + across + above)
        self.assertEqual(target, "- juno-r0, series hackbench time against none at most +1%: **missed**; "
                                 "above at G=4: +5.0% +-1.2; error bar across +1% at G=2: +2.0% +-4.6; "
                                 "within at G=1: +0.1% +-0.6\n")


class Verdict(unittest.TestCase):
    def test_each_target_met_or_missed_with_evidence(self):
        doc = json.loads(B.verdict([
            "- juno-r0, series energy <= 6.12 EAS at every N: **met**; N=10: -1.0%\n",
            "- juno-r0, series energy <= 1.05 x the optimum: **missed**; series / optimum above at N=10: 1.44\n",
            "- hikey960, series hackbench time against none at most +1%: **met**;\n"]))
        self.assertEqual(doc["met"], 2)
        self.assertEqual(doc["missed"], 1)
        self.assertEqual(doc["unresolved"], 0)
        self.assertEqual(doc["targets"][1], {"met": False, "resolved": True,
                                             "target": "juno-r0, series energy <= 1.05 x the optimum",
                                             "evidence": "series / optimum above at N=10: 1.44"})
        self.assertEqual(doc["targets"][2]["evidence"], "")

    def test_not_resolved_is_neither_met_nor_missed(self):
        doc = json.loads(B.verdict([
            "- juno-r0, series hackbench time against none at most +1%: **not resolved**; "
            "error bar across +1% at G=1: +2.0% +-5.1\n"]))
        self.assertEqual((doc["met"], doc["missed"], doc["unresolved"]), (0, 0, 1))
        self.assertEqual(doc["targets"][0]["resolved"], False)
        self.assertEqual(doc["targets"][0]["evidence"], "error bar across +1% at G=1: +2.0% +-5.1")

    def test_json_as_jq_printed_it(self):
        self.assertEqual(B.verdict([]),
                         '{\n  "met": 0,\n  "missed": 0,\n  "unresolved": 0,\n  "targets": []\n}\n')


class AwkNumbers(unittest.TestCase):
    """mawk's conversions, which the report's digits depend on."""

    def test_numbers(self):
        self.assertEqual(B.num("-"), 0.0)
        self.assertEqual(B.num("12.5MHz"), 12.5)
        self.assertEqual(B.awk_str(450.0), "450")
        self.assertEqual(B.awk_str(1843.2), "1843.2")
        self.assertEqual(B.awk_str(3e9), "3e+09")
        self.assertEqual(B.awk_str(0.0099460214), "0.00994602")
        self.assertEqual(B.div(1.0, 0.0), float("inf"))


class Errors(unittest.TestCase):
    def test_not_a_bench_directory(self):
        with Tmp() as tmp:
            rc, err = run_main([tmp])
        self.assertEqual(rc, 1)
        self.assertIn(f"{tmp}/config missing", err)
        self.assertRegex(err, r"^[^\n]*: error: .*/config missing: not a directory lab/bench wrote\n\Z")

    def test_usage(self):
        rc, err = run_main([])
        self.assertEqual(rc, 1)
        self.assertRegex(err, r"^[^\n]*: error: usage: lab/bench-report.sh DIR")

    @need_tools
    def test_unknown_platform(self):
        with Tmp() as tmp:
            with open(os.path.join(tmp, "config"), "w") as f:
                f.write("platforms=nosuch\n")
            res = subprocess.run([WRAPPER, tmp], capture_output=True, text=True, check=False)
        self.assertEqual(res.returncode, 1)
        self.assertRegex(res.stderr, r"^bench.py: error: no platform 'nosuch' \(known: .*juno-r0.*\)\n\Z")

    @need_tools
    def test_energy_boot_that_did_not_complete(self):
        """A platform whose energy boot left no log (a timeout): the
        report says so and keeps its hackbench, rather than failing on
        an empty plot."""
        with Tmp() as tmp:
            d = bench_dir(os.path.join(tmp, "juno"), "juno")
            os.remove(os.path.join(d, "juno-r0-energy", "experiment.log"))
            res = subprocess.run([WRAPPER, d], capture_output=True, text=True, check=False)
            self.assertEqual(res.returncode, 0, res.stderr)
            report = read(os.path.join(d, "report.md")).decode()
        self.assertIn("No energy run of juno-r0 completed: see juno-r0-energy.log.", report)
        self.assertIn("## juno-r0: hackbench time (s)", report)

    def test_module_style(self):
        with open(BENCH, encoding="utf-8") as f:
            head = f.read().splitlines()
        self.assertEqual(head[:2], ["#!/usr/bin/python3", "# SPDX-License-Identifier: GPL-2.0-only"])
        self.assertTrue(os.access(BENCH, os.X_OK))


if __name__ == "__main__":
    tap.run(sys.modules[__name__], "lab/analysis/bench.py")
