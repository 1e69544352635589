#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Unit tests of lab/analysis/placement.py (lab/trace-placement.sh), run
by tests/host/analysis.sh; one line per test, "ok - NAME" or "not ok -
NAME".

trace-placement.sh was `trace-cmd report` and awk until placement.py
replaced it; tests/host/data/trace-placement holds what the awk printed
(see its README): on an excerpt of a real trace's report, on a synthetic
one with many sched domains (mawk's order of them), and on the full
traces of results/trace*/ (checked where those traces and trace-cmd are
on the host).  The Python must print the same, byte for byte."""

import io
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

import tap  # noqa: E402  (tests/host, first on the path)
from contextlib import redirect_stderr, redirect_stdout

LAB_TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(LAB_TOP, "lab"))
from analysis import placement as PL  # noqa: E402  (after the path is set)
from analysis import trace as T  # noqa: E402

DATA = os.path.join(LAB_TOP, "tests", "host", "data", "trace-placement")
WRAPPER = os.path.join(LAB_TOP, "lab", "trace-placement.sh")
RUNS = ("trace-n10-p1", "trace-n10-p2", "trace-n10-pb", "trace416-n20-p1", "trace416-n20-p2",
        "trace416-n20-pb", "trace416-n30-p1", "trace416-n30-p2")


def read(path):
    with open(path, "rb") as f:
        return f.read().decode(T.ENCODING, T.ERRORS)


def lines_of(path):
    return read(path).split("\n")


def run(argv, stdin=None, env_path=None):
    env = dict(os.environ)
    env.pop("WHINY_USERS", None)
    if env_path:
        env["PATH"] = env_path + os.pathsep + env["PATH"]
    return subprocess.run(argv, input=stdin, capture_output=True, text=True, env=env, check=False)


def text(out_lines):
    return "".join(ln + "\n" for ln in out_lines)


class TestPlacement(unittest.TestCase):
    """placement.py against what the awk of trace-placement.sh printed."""

    def setUp(self):
        os.environ.pop("WHINY_USERS", None)

    def test_excerpt(self):
        """An excerpt of a real report (results/trace-n10-pb), the
        benchmark's tasks and rt-app."""
        report = lines_of(os.path.join(DATA, "report.txt"))
        self.assertEqual(text(PL.analyse(report)), read(os.path.join(DATA, "expected-small.txt")))
        self.assertEqual(text(PL.analyse(report, "rt-app")), read(os.path.join(DATA, "expected-rt-app.txt")))

    def test_synthetic_domains(self):
        """Many sched domains, several in one list of mawk's hash table:
        listed in mawk's order, each one's share as the awk summed it."""
        report = lines_of(os.path.join(DATA, "synthetic-report.txt"))
        got = text(PL.analyse(report))
        self.assertEqual(got, read(os.path.join(DATA, "synthetic-expected.txt")))
        self.assertGreater(got.count("sched domain"), 64)

    def test_mawk_order(self):
        """`for (k in a)` as mawk 1.3.4 walks it (recorded with mawk)."""
        self.assertEqual(PL._mawk_order({"a": 0, "b": 1, "c": 2}), ["c", "b", "a"])
        self.assertEqual(PL._mawk_order({"level 0 span 0,3-5": 0, "level 1 span 0-5": 1,
                                         "level 0 span 1-2": 2}),
                         ["level 0 span 1-2", "level 0 span 0,3-5", "level 1 span 0-5"])
        os.environ["WHINY_USERS"] = "1"
        try:
            self.assertEqual(PL._mawk_order({"b": 0, "c": 1, "a": 2}), ["a", "b", "c"])
        finally:
            del os.environ["WHINY_USERS"]

    def test_wrapper_report(self):
        """lab/trace-placement.sh --report FILE [COMM], and - for stdin:
        the same bytes, status 0, nothing on stderr."""
        report = os.path.join(DATA, "report.txt")
        cases = [([report], None, "expected-small.txt"),
                 ([report, "rt-app"], None, "expected-rt-app.txt"),
                 (["-", ""], read(report), "expected-small.txt"),
                 (["-"], read(os.path.join(DATA, "synthetic-report.txt")), "synthetic-expected.txt")]
        for args, stdin, expected in cases:
            with self.subTest(expected, args=args[1:], stdin=stdin is not None):
                res = run(["sh", WRAPPER, "--report"] + args, stdin=stdin)
                self.assertEqual((res.returncode, res.stderr), (0, ""))
                self.assertEqual(res.stdout, read(os.path.join(DATA, expected)))

    def test_wrapper_trace(self):
        """lab/trace-placement.sh TRACE.DAT [COMM]: trace-cmd's report of
        it (a trace-cmd that prints the recorded excerpt)."""
        with tempfile.TemporaryDirectory() as tmp:
            tc = os.path.join(tmp, "trace-cmd")
            with open(tc, "w", encoding="utf-8") as f:
                f.write(f"#!/bin/sh\ncat '{os.path.join(DATA, 'report.txt')}'\n")
            os.chmod(tc, 0o755)
            dat = os.path.join(tmp, "trace.dat")
            with open(dat, "w", encoding="utf-8") as f:
                f.write("not read: the fake trace-cmd prints the excerpt\n")
            res = run(["sh", WRAPPER, dat, "rt-app"], env_path=tmp)
            self.assertEqual((res.returncode, res.stderr), (0, ""))
            self.assertEqual(res.stdout, read(os.path.join(DATA, "expected-rt-app.txt")))
            with open(tc, "w", encoding="utf-8") as f:
                f.write("#!/bin/sh\necho 'trace-cmd: bad file' >&2\nexit 1\n")
            res = run(["sh", WRAPPER, dat], env_path=tmp)
            self.assertEqual((res.returncode, res.stdout), (1, ""))
            self.assertEqual(res.stderr, f"placement.py: error: trace-cmd cannot read {dat}\n")

    def test_recorded_runs(self):
        """The full traces of results/trace*/ where they are, with the
        host's trace-cmd: what the awk printed on each."""
        if shutil.which("trace-cmd") is None:
            self.skipTest("trace-cmd is not installed")
        found = [r for r in RUNS if os.path.isfile(os.path.join(LAB_TOP, "results", r, "trace.dat"))]
        if not found:
            self.skipTest("no results/trace*/trace.dat on this host")
        for r in found:
            with self.subTest(r):
                res = run(["sh", WRAPPER, os.path.join(LAB_TOP, "results", r, "trace.dat")])
                self.assertEqual((res.returncode, res.stderr), (0, ""))
                self.assertEqual(res.stdout, read(os.path.join(DATA, f"run-{r}.txt")))

    def test_awk_details(self):
        """What the awk did with odd lines, kept: a task is the first word
        after "==>" split at ":" (small:1:5 is small, pid 1); a domain's
        fields persist from the event before; other events are skipped;
        the flag still raised at the end counts up to the last switch."""
        report = [
            "cpus=2",
            "  x-1 [000] 1.000000: sched_switch: a:1 [120] S ==> small:1:5 [120]",
            "  x-1 [001] 1.000000: sched_overutilized_sd: cpu=1 level=0 span=0-1 overutilized=1",
            "  x-1 [001] 1.250000: sched_wakeup: small:7 [120] CPU:001",
            "  x-1 [001] 1.250000: sched_switch: a:1 [120] S ==> small:7 [120]",
            "  x-1 [000] 1.500000: sched_switch: small:1:5 [120] S ==> swapper/0:0 [120]",
            "  x-1 [001] 1.500000: sched_overutilized_sd: cpu=1 overutilized=0",
            "  x-1 [001] 1.600000: sched_overutilized_sd: cpu=1 level=1 span=0-1 overutilized=1",
            "  x-1 [001] 2.000000: sched_switch: small:7 [120] R ==> small:8 [120]",
        ]
        self.assertEqual(PL.analyse(report), [
            "trace 1.000 s; tasks named small:",
            "cpu 0 ran 500.0 ms (50.0% of the trace), 1 tasks",
            "cpu 1 ran 750.0 ms (75.0% of the trace), 1 tasks",
            "sched domain level 0 span 0-1 overutilized 50.0% of the trace",
            "sched domain level 1 span 0-1 overutilized 40.0% of the trace",
        ])

    def test_stamped(self):
        """analysis.trace.report_stamped: the time as printed, and the
        Record report_records gives."""
        lines = ["cpus=6", "x-1 [005] 2.000001234: sched_foo: a=1", "junk"]
        got = list(T.report_stamped(lines))
        self.assertEqual(got, [T.Stamped("2.000001234", T.Record(2000001, 5, "sched_foo", "a=1", 2))])
        self.assertEqual([s.rec for s in got], list(T.report_records(lines)))

    def test_errors(self):
        """One line on stderr, status 1, nothing on stdout, as the shell
        version (its messages named the script)."""
        cases = [
            (["--report", "-"], "cpus=2\n", "placement.py: error: no sched_switch event in the trace\n"),
            (["/nonexistent.dat"], None, "placement.py: error: no trace at /nonexistent.dat\n"),
            (["--report", "/nonexistent"], None,
             "placement.py: error: cannot read /nonexistent: No such file or directory\n"),
            ([], None, "placement.py: error: no trace given; usage: "),
            (["a", "b", "c"], None, "placement.py: error: unexpected argument 'c'; usage: "),
            (["--report", "-", "b", "c"], None, "placement.py: error: unexpected argument 'c'; usage: "),
            (["-Z"], None, "placement.py: error: unrecognized arguments: -Z; usage: "),
        ]
        for argv, stdin, msg in cases:
            with self.subTest(argv=argv):
                res = run(["sh", WRAPPER] + argv, stdin=stdin)
                self.assertEqual((res.returncode, res.stdout), (1, ""))
                self.assertTrue(res.stderr.startswith(msg), res.stderr)
                self.assertEqual(res.stderr.count("\n"), 1, "one line")

    def test_main(self):
        """placement.main in-process, and --help."""
        out, err = io.StringIO(), io.StringIO()
        with redirect_stdout(out), redirect_stderr(err):
            with self.assertRaises(SystemExit) as cm:
                PL.main(["--help"])
        self.assertEqual(cm.exception.code, 0)
        self.assertIn("--report FILE", out.getvalue())
        res = run(["sh", WRAPPER, "-h"])
        self.assertEqual((res.returncode, res.stderr), (0, ""))
        self.assertIn("TRACE.DAT", res.stdout)


if __name__ == "__main__":
    tap.run(sys.modules[__name__], "lab/analysis/placement")
