#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Unit tests of lab/analysis/migrations.py (lab/trace-migrations.sh), run
by tests/host/analysis.sh; one line per test, "ok - NAME" or "not ok -
NAME".  Synthetic `trace-cmd report` text of known moves: each case
checks one rule of the classification or of the flags' bookkeeping."""

import io
import os
import subprocess
import sys
import tempfile
import unittest
from contextlib import redirect_stderr, redirect_stdout

import tap  # noqa: E402  (tests/host, first on the path)

LAB_TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(LAB_TOP, "lab"))
from analysis import migrations as M  # noqa: E402  (after the path is set)

WRAPPER = os.path.join(LAB_TOP, "lab", "trace-migrations.sh")
# Juno r0's CPUs: 0 and 3-5 little, 1-2 big.
JUNO = [446, 1024, 1024, 446, 446, 446]


def ev(t, cpu, event, body, task="<idle>-0"):
    return f"{task:>20} [{cpu:03d}] {t:12.6f}: {event}: {body}"


def migrate(t, cpu, pid, orig, dest, task="<idle>-0", comm="small"):
    return ev(t, cpu, "sched_migrate_task",
              f"comm={comm} pid={pid} prio=120 orig_cpu={orig} dest_cpu={dest}", task)


def wakeup(t, cpu, pid, target, comm="small", compact=False):
    """sched_wakeup in the raw form, or trace-cmd's compact one."""
    if compact:
        return ev(t, cpu, "sched_wakeup", f"{comm}:{pid} [120] CPU:{target:03d}")
    return ev(t, cpu, "sched_wakeup", f"comm={comm} pid={pid} prio=120 target_cpu={target:03d}")


def waking(t, cpu, pid, target, comm="small"):
    return ev(t, cpu, "sched_waking", f"comm={comm} pid={pid} prio=120 target_cpu={target:03d}")


def switch(t, cpu, prev, nxt, raw=False):
    """sched_switch in trace-cmd's compact form, or the raw one."""
    if raw:
        (pc, pp), (nc, np) = prev.rsplit(":", 1), nxt.rsplit(":", 1)
        return ev(t, cpu, "sched_switch", f"prev_comm={pc} prev_pid={pp} prev_prio=120 "
                                          f"prev_state=S ==> next_comm={nc} next_pid={np} next_prio=120")
    return ev(t, cpu, "sched_switch", f"{prev} [120] S ==> {nxt} [120]")


def flag(t, cpu, level, span, on):
    return ev(t, cpu, "sched_overutilized_sd",
              f"cpu={cpu} level={level} span={span} overutilized={int(on)}")


def root_flag(t, cpu, span, on):
    return ev(t, cpu, "sched_overutilized_rd", f"span={span} overutilized={int(on)}")


def rows(lines, caps=JUNO, comm="small"):
    """The moves table as {(from, to, cause): [moves, flagged...]}."""
    out = M.analyse(lines, caps, comm)
    table = {}
    for line in out:
        cells = [c.strip() for c in line.strip("|").split("|")]
        if len(cells) >= 5 and cells[3].isdigit():
            table[tuple(cells[:3])] = [int(cells[3])] + [int(c) for c in cells[5:]]
    return table, out


class TestMigrations(unittest.TestCase):
    def test_stopper_is_active_balance(self):
        """A move in the stopper of the CPU it leaves is the active
        balance's; the stopper's CPU pulling a task as it goes idle (its
        newidle balance, the stopper still current) is a balance."""
        t, _ = rows([migrate(1.0, 3, 7, 3, 1, task="migration/3-32"),
                     switch(1.00001, 1, "swapper/1:0", "small:7"), wakeup(1.1, 2, 9, 2),
                     migrate(1.2, 3, 8, 2, 3, task="migration/3-32"),
                     switch(1.20001, 3, "migration/3:32", "small:8")])
        self.assertEqual(t, {("little", "big", "active balance"): [1],
                             ("big", "little", "balance"): [1]})

    def test_wakeup_follows_move(self):
        """The task's sched_wakeup next after the move: the wake-up moved it."""
        t, _ = rows([migrate(1.0, 1, 7, 1, 4), wakeup(1.0001, 1, 7, 4),
                     switch(1.0002, 4, "swapper/4:0", "small:7")])
        self.assertEqual(t, {("big", "little", "wake-up"): [1]})

    def test_wakeup_compact_form(self):
        """trace-cmd's compact sched_wakeup ("name:pid [prio] CPU:n"), a
        name with colons among them, is read as the raw one."""
        t, _ = rows([migrate(1.0, 1, 7, 1, 4), wakeup(1.00005, 5, 53, 5, comm="sugov:0", compact=True),
                     wakeup(1.0001, 4, 7, 4, compact=True), migrate(2.0, 1, 8, 1, 4),
                     wakeup(2.0001, 4, 8, 4, comm="small:x", compact=True),
                     switch(2.0002, 4, "swapper/4:0", "small:8")])
        self.assertEqual(t, {("big", "little", "wake-up"): [1], ("big", "little", "balance"): [1]})

    def test_switch_first_is_balance(self):
        """A queued task pulled, next seen switched in: the balance moved it."""
        t, _ = rows([migrate(1.0, 4, 7, 1, 4), switch(1.001, 4, "swapper/4:0", "small:7"),
                     wakeup(1.02, 4, 7, 4)])
        self.assertEqual(t, {("big", "little", "balance"): [1]})

    def test_no_wakeup_events(self):
        """Without sched_wakeup, or without sched_switch to settle a pull
        before the next wake-up, a move is not told apart."""
        t, _ = rows([migrate(1.0, 1, 7, 1, 4), migrate(2.0, 4, 7, 4, 1, task="migration/4-9")])
        self.assertEqual(t, {("big", "little", "wake-up or balance"): [1],
                             ("little", "big", "active balance"): [1]})
        t, _ = rows([migrate(1.0, 4, 7, 1, 4), wakeup(1.5, 4, 7, 4)])
        self.assertEqual(t, {("big", "little", "wake-up or balance"): [1]})

    def test_raw_switch(self):
        """The raw sched_switch (prev_pid=, next_pid=) settles a pull too."""
        t, _ = rows([migrate(1.0, 4, 7, 1, 4), switch(1.001, 4, "swapper/4:0", "small:7", raw=True),
                     wakeup(1.02, 4, 7, 4)])
        self.assertEqual(t, {("big", "little", "balance"): [1]})

    def test_waking_decides(self):
        """With sched_waking, a move between the task's sched_waking and
        sched_wakeup is the wake-up's, any other a balance: a sleeping
        task pulled before it was dequeued (DELAY_DEQUEUE) and then woken
        where it is, with no switch between, is a balance."""
        t, _ = rows([switch(0.9, 1, "small:7", "swapper/1:0"), migrate(1.0, 0, 7, 1, 2),
                     waking(1.005, 2, 7, 2), wakeup(1.0051, 2, 7, 2),
                     waking(2.0, 2, 7, 2), migrate(2.00001, 2, 7, 2, 4), wakeup(2.0001, 4, 7, 4),
                     switch(2.0002, 4, "swapper/4:0", "small:7")])
        self.assertEqual(t, {("big", "big", "balance"): [1], ("big", "little", "wake-up"): [1]})

    def test_other_tasks_and_stays_ignored(self):
        """Another name's moves, and a move to the same CPU, are not counted."""
        t, _ = rows([migrate(1.0, 1, 8, 1, 4, comm="sh"), migrate(1.1, 1, 7, 1, 1),
                     wakeup(1.2, 1, 7, 1), migrate(1.3, 1, 7, 1, 2), wakeup(1.3001, 1, 7, 2),
                     switch(1.3002, 2, "swapper/2:0", "small:7")])
        self.assertEqual(t, {("big", "big", "wake-up"): [1]})

    def test_flagged_at_the_move(self):
        """Each move counts the domains flagged at its time, and only them."""
        lines = [flag(0.0, 0, 1, "0-5", False), flag(0.5, 1, 0, "1-2", True),
                 flag(1.0, 3, 1, "0-5", True), migrate(1.5, 1, 7, 1, 4), wakeup(1.5001, 1, 7, 4),
                 flag(2.0, 1, 0, "1-2", False), migrate(2.5, 4, 7, 4, 1, task="migration/4-9"),
                 switch(2.50001, 1, "swapper/1:0", "small:7"), flag(4.0, 1, 1, "0-5", False)]
        t, out = rows(lines)
        # Columns in level order: L0 1-2, then L1 0-5.
        self.assertIn("| from | to | cause | moves | per s | L0 1-2 flagged | L1 0-5 flagged |", out)
        self.assertEqual(t, {("big", "little", "wake-up"): [1, 1, 1],
                             ("little", "big", "active balance"): [1, 0, 1]})

    def test_flag_shares(self):
        """A domain's share of the trace and its changes; a flag still set
        at the end counts to the end, a repeated value is not a change."""
        lines = [flag(0.0, 0, 1, "0-5", False), flag(1.0, 0, 1, "0-5", True),
                 flag(1.5, 0, 1, "0-5", True), flag(3.0, 0, 1, "0-5", False),
                 flag(3.0, 1, 0, "1-2", True), migrate(4.0, 1, 7, 1, 2)]
        _, out = rows(lines)
        self.assertIn("| L1 0-5 | 50 | 2 | 0.5 |", out)
        self.assertIn("| L0 1-2 | 25 | 1 | 0.2 |", out)

    def test_root_domain_flag(self):
        """The root domain's flag, written at every root balance, counts
        like a sched domain's and comes after them."""
        lines = [root_flag(0.0, 0, "0-5", False), flag(0.0, 1, 0, "1-2", False),
                 root_flag(1.0, 3, "0-5", True), root_flag(1.5, 1, "0-5", True),
                 migrate(2.0, 1, 7, 1, 4), wakeup(2.0001, 1, 7, 4),
                 root_flag(3.0, 1, "0-5", False), flag(3.5, 1, 0, "1-2", True),
                 migrate(4.0, 4, 7, 4, 1, task="migration/4-9"),
                 switch(4.00001, 1, "swapper/1:0", "small:7")]
        t, out = rows(lines)
        self.assertIn("| from | to | cause | moves | per s | L0 1-2 flagged | root 0-5 flagged |", out)
        self.assertEqual(t, {("big", "little", "wake-up"): [1, 0, 1],
                             ("little", "big", "active balance"): [1, 1, 0]})
        self.assertIn("| root 0-5 | 50 | 2 | 0.5 |", out)

    def test_three_classes(self):
        """Three capacities are little, mid and big."""
        self.assertEqual(M.class_names([160, 498, 1024, 160]), {160: "little", 498: "mid", 1024: "big"})
        self.assertEqual(M.class_names([100, 200, 300, 400]), {100: "100", 200: "200", 300: "300", 400: "400"})

    def test_errors(self):
        """Input that cannot be analysed is one error naming the cause."""
        with self.assertRaisesRegex(M.MigrationsError, "no sched_migrate_task"):
            M.analyse([wakeup(1.0, 1, 7, 1)], JUNO)
        with self.assertRaisesRegex(M.MigrationsError, "no event"):
            M.analyse(["not a trace"], JUNO)
        with self.assertRaisesRegex(M.MigrationsError, "CPU 9 in the trace"):
            M.analyse([migrate(1.0, 1, 7, 1, 9)], JUNO)
        with self.assertRaisesRegex(M.MigrationsError, "every CPU"):
            M.read_capacities(["cpu0.capacity 446", "cpu2.capacity 1024"])
        self.assertEqual(M.read_capacities(["cpu1.capacity 1024\n", "cpu0.capacity 446\n", "x 1"]),
                         [446, 1024])

    def test_command_line(self):
        """The wrapper on a results directory and on report text; a bad
        command line is status 2, unreadable input status 1 with one line."""
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, "facts.txt"), "w", encoding="utf-8") as f:
                f.write("".join(f"cpu{i}.capacity {c}\n" for i, c in enumerate(JUNO)))
            report = "\n".join([migrate(1.0, 1, 7, 1, 4), wakeup(1.0001, 1, 7, 4),
                                switch(1.0002, 4, "swapper/4:0", "small:7")]) + "\n"
            res = subprocess.run(["sh", WRAPPER, "--report", "-", "--capacity",
                                  ",".join(map(str, JUNO))], input=report, capture_output=True,
                                 text=True, check=False)
            self.assertEqual((res.returncode, res.stderr), (0, ""))
            self.assertIn("| big | little | wake-up | 1 |", res.stdout)
            res = subprocess.run(["sh", WRAPPER, d], capture_output=True, text=True, check=False)
            self.assertEqual((res.returncode, res.stdout), (1, ""))
            self.assertIn("no trace at", res.stderr)
            self.assertEqual(res.stderr.count("\n"), 1)
        for argv in (["--report", "-"], [], ["a", "b", "c"]):
            res = subprocess.run(["sh", WRAPPER] + argv, capture_output=True, text=True, check=False)
            self.assertEqual(res.returncode, 2, argv)
        res = subprocess.run(["sh", WRAPPER, "--report", "-", "--capacity", "a,b"],
                             input="", capture_output=True, text=True, check=False)
        self.assertEqual(res.returncode, 1)
        self.assertIn("not a list of numbers", res.stderr)
        out = io.StringIO()
        with redirect_stdout(out), redirect_stderr(io.StringIO()):
            with self.assertRaises(SystemExit) as cm:
                M.main(["--help"])
        self.assertEqual(cm.exception.code, 0)
        self.assertIn("--capacity", out.getvalue())


if __name__ == "__main__":
    tap.run(sys.modules[__name__], "lab/analysis/migrations")
