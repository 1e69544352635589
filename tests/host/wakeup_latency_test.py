#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Unit tests of lab/analysis/wakeup_latency.py (lab/trace-wakeup-latency.sh),
run by tests/host/analysis.sh; one line per test, "ok - NAME" or "not ok -
NAME".  Synthetic `trace-cmd report` text of wake-ups of known latency."""

import io
import os
import subprocess
import sys
import unittest
from contextlib import redirect_stderr, redirect_stdout

import tap  # noqa: E402  (tests/host, first on the path)

LAB_TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(LAB_TOP, "lab"))
from analysis import stats  # noqa: E402  (after the path is set)
from analysis import wakeup_latency as W  # noqa: E402

WRAPPER = os.path.join(LAB_TOP, "lab", "trace-wakeup-latency.sh")


def ev(t, cpu, event, body, task="hackbench-7"):
    return f"{task:>20} [{cpu:03d}] {t:12.6f}: {event}: {body}"


def waking(t, cpu, pid, target, comm="hackbench"):
    """sched_waking, raw form (as trace-cmd prints it)."""
    return ev(t, cpu, "sched_waking", f"comm={comm} pid={pid} prio=120 target_cpu={target:03d}")


def wakeup(t, cpu, pid, target, comm="hackbench"):
    """sched_wakeup, trace-cmd's compact form."""
    return ev(t, cpu, "sched_wakeup", f"{comm}:{pid} [120] CPU:{target:03d}")


class TestWakeupLatency(unittest.TestCase):
    def test_where_it_lands(self):
        """A sched_wakeup on the waker's CPU is a direct enqueue, one on
        another CPU a wake-up queued to it; each is timed from its own
        task's sched_waking."""
        lines = [waking(1.000000, 0, 10, 3), waking(1.000002, 0, 11, 0),
                 wakeup(1.000005, 0, 11, 0), wakeup(1.000900, 3, 10, 3)]
        lat = W.latencies(lines)
        self.assertEqual(lat["on the waker's CPU"], [3])
        self.assertEqual(lat["queued to another CPU"], [900])

    def test_unpaired_and_other_tasks(self):
        """A sched_wakeup without a sched_waking before it is not counted,
        nor, with COMM, another task's; a name may hold colons."""
        lines = [wakeup(1.0, 2, 20, 2), waking(1.1, 0, 21, 1, comm="sugov:0"),
                 wakeup(1.2, 1, 21, 1, comm="sugov:0"), waking(1.3, 0, 22, 0),
                 wakeup(1.300010, 0, 22, 0)]
        self.assertEqual(W.latencies(lines, "hackbench"),
                         {"on the waker's CPU": [10], "queued to another CPU": []})
        self.assertEqual(W.latencies(lines)["queued to another CPU"], [100000])

    def test_percentiles(self):
        """Nearest rank: the median of 1..10 is 5, its p90 9, its p99 10."""
        v = list(range(1, 11))
        self.assertEqual([stats.percentile(v, q) for q in (50, 90, 99)], [5, 9, 10])
        lines = []
        for i in range(1, 11):
            lines += [waking(i, 0, 30 + i, 1), wakeup(i + i * 1e-6, 1, 30 + i, 1)]
        out = W.analyse(lines)
        self.assertIn("| queued to another CPU | 10 | 5 | 9 | 10 | 10 |", out)
        self.assertIn("| on the waker's CPU | 0 | - | - | - | - |", out)

    def test_cli(self):
        """No wake-up: status 1 and one message; a bad command line: 2;
        --help: usage on stdout, status 0."""
        res = subprocess.run(["sh", WRAPPER, "--report", "-", "hackbench"],
                             input=waking(1.0, 0, 1, 1) + "\n", capture_output=True, text=True,
                             check=False)
        self.assertEqual(res.returncode, 1)
        self.assertIn("no wake-up of hackbench", res.stderr)
        res = subprocess.run(["sh", WRAPPER, "--report", "-"],
                             input="\n".join([waking(1.0, 0, 1, 1), wakeup(1.000004, 1, 1, 1)]),
                             capture_output=True, text=True, check=False)
        self.assertEqual(res.returncode, 0, res.stderr)
        self.assertIn("| queued to another CPU | 1 | 4 | 4 | 4 | 4 |", res.stdout)
        for argv in ([], ["a", "b", "c"], ["--report", "-", "a", "b"]):
            res = subprocess.run(["sh", WRAPPER] + argv, capture_output=True, text=True,
                                 check=False)
            self.assertEqual(res.returncode, 2, argv)
        out = io.StringIO()
        with redirect_stdout(out), redirect_stderr(io.StringIO()):
            with self.assertRaises(SystemExit) as cm:
                W.main(["--help"])
        self.assertEqual(cm.exception.code, 0)
        self.assertIn("--report", out.getvalue())


if __name__ == "__main__":
    tap.run(sys.modules[__name__], "lab/analysis/wakeup_latency")
