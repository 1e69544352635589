#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Unit tests of lab/analysis (the host-side analysis in Python), run by
tests/host/analysis.sh; one line per test, "ok - NAME" or "not ok - NAME".

The behaviour tests' analysis was shell and awk until lab/analysis
replaced it: on the runs recorded in tests/host/data (behaviour-gs101: a
real run, with what the shell made of it; behaviour-ou and behaviour-run:
synthetic), the Python must give the same events, placements, scores and
verdicts, and the same errors for a run it cannot score."""

import io
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

import tap  # noqa: E402  (tests/host, first on the path)
from contextlib import redirect_stderr, redirect_stdout

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
LAB_TOP = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(LAB_TOP, "lab"))
from analysis import behaviour as B  # noqa: E402  (after the path is set)
from analysis import platform as P  # noqa: E402
from analysis import stats  # noqa: E402
from analysis import trace as T  # noqa: E402

DATA = os.path.join(HERE, "data")
GS = os.path.join(DATA, "behaviour-gs101")
OU = os.path.join(DATA, "behaviour-ou")
RUN = os.path.join(DATA, "behaviour-run")
TOOLS = os.path.join(LAB_TOP, "build", "tools")
EMCOST = os.path.join(TOOLS, "emcost")
PLATGEN = os.path.join(TOOLS, "platgen")
PYTHON = "/usr/bin/python3"
need_emcost = unittest.skipUnless(os.access(EMCOST, os.X_OK), "no build/tools/emcost (make tools)")
need_platgen = unittest.skipUnless(os.access(PLATGEN, os.X_OK), "no build/tools/platgen (make tools)")


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def lines_of(path):
    return read(path).splitlines()


def profile(text):
    """A Profile from "TASK DURATION UTIL" lines."""
    phases = [B.Phase(t, int(d), u) for t, d, u in (ln.split() for ln in text.strip().splitlines())]
    return B.Profile("<test>", phases)


class Tmp:
    """A temporary directory, removed afterwards."""

    def __enter__(self):
        self.path = tempfile.mkdtemp(prefix="analysis-test.")
        return self.path

    def __exit__(self, *exc):
        shutil.rmtree(self.path)


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return path


def fake_trace_cmd(bindir, report_path, status=0):
    """A trace-cmd that prints a recorded report (trace-cmd stays the tool
    that decodes trace.dat: the tests have no .dat)."""
    write(os.path.join(bindir, "trace-cmd"), f"#!/bin/sh\ncat '{report_path}'\nexit {status}\n")
    os.chmod(os.path.join(bindir, "trace-cmd"), 0o755)


def run(argv, env_path=None):
    env = dict(os.environ)
    if env_path:
        env["PATH"] = env_path + os.pathsep + env["PATH"]
    return subprocess.run(argv, capture_output=True, text=True, env=env, check=False)


class TestTrace(unittest.TestCase):
    """analysis.trace: trace-cmd report text -> events, the events format."""

    REPORT = [
        ("compact switch",
         "          <idle>-0     [001]     1.435871: sched_switch:         swapper/1:0 [120] R ==> small0:492 [120]",
         ["switch 1435871 1 small0"]),
        ("a switch to idle is left out",
         "          small2-494   [003]     1.435773: sched_switch:         small2:494 [120] S ==> swapper/3:0 [120]",
         []),
        ("a task name with a colon keeps it, the pid goes",
         "          <idle>-0     [001]     1.433596: sched_switch:         swapper/1:0 [120] R ==> sugov:0:65 [-1]",
         ["switch 1433596 1 sugov:0"]),
        ("raw switch (next_comm=)",
         "  sh-472 [002] 10.000001: sched_switch: prev_comm=sh prev_pid=472 prev_prio=120 prev_state=S "
         "next_comm=small1 next_pid=493 next_prio=120",
         ["switch 10000001 2 small1"]),
        ("raw switch to <idle> is left out",
         "  sh-472 [002] 10.000001: sched_switch: prev_comm=sh prev_pid=472 next_comm=<idle> next_pid=0",
         []),
        ("behaviour marker",
         "              sh-472   [007]     1.433490: print:                tracing_mark_write: behaviour: begin ThreeSmallTasks-p0-r1",
         ["mark 1433490 begin ThreeSmallTasks-p0-r1"]),
        ("another marker is left out",
         "  sh-472 [007] 1.5: print: tracing_mark_write: hello",
         []),
        ("sched_overutilized_sd",
         "          small2-494   [003]     1.790032: sched_overutilized_sd: cpu=3 level=1 span=0-7 overutilized=1",
         ["ou 1790032 3 1 0-7 1"]),
        ("sched_energy_wakeup",
         "          small0-508   [002]     4.060993: sched_energy_wakeup:  comm=small2 pid=510 prev_cpu=4 "
         "dst_cpu=6 level=1 candidates=3 prev_energy=272625 best_energy=238283",
         ["eaw 4060993 small2 4 6 1"]),
        ("nanoseconds round to the microsecond",
         "  sh-1 [000] 12.345678901: print: tracing_mark_write: behaviour: end X",
         ["mark 12345679 end X"]),
        ("other events and lines are left out",
         "cpus=8\nCPU 3 is empty\n  sh-1 [000] 1.000000: sched_wakeup: comm=a pid=2 prio=120 target_cpu=001",
         []),
    ]

    def test_report_lines(self):
        for name, text, want in self.REPORT:
            with self.subTest(name):
                got = [T.format_event(ev) for ev in T.extract(text.splitlines())]
                self.assertEqual(got, want)

    def test_report_records(self):
        rec = next(T.report_records(["x-1 [005] 2.000001: sched_foo: a=1 bb=2 a=3"]))
        self.assertEqual(rec, T.Record(2000001, 5, "sched_foo", "a=1 bb=2 a=3", 1))
        self.assertEqual((rec.field("a"), rec.field("bb"), rec.field("b"), rec.field("c")), ("1", "2", "", ""))

    def test_report_wrong_format(self):
        bad = ["x-1 [003] 1.0: sched_overutilized_sd: cpu=3 span=0-7 overutilized=1"]
        with self.assertRaisesRegex(T.TraceError, "report line 1: sched_overutilized_sd without a number level="):
            list(T.extract(bad))

    def test_recorded_report(self):
        """The recorded report gives the events the shell extract.sh gave."""
        with open(os.path.join(GS, "report.txt"), encoding="utf-8") as f:
            got = "".join(T.format_event(ev) + "\n" for ev in T.extract(f))
        self.assertEqual(got, read(os.path.join(GS, "report.events")))

    def test_extract_command(self):
        """lab/behaviour/extract.sh, as run.sh calls it, on a trace-cmd that
        prints the recorded report."""
        with Tmp() as tmp:
            dat = write(os.path.join(tmp, "t.dat"), "not empty")
            fake_trace_cmd(os.path.join(tmp, "bin"), os.path.join(GS, "report.txt"))
            res = run([os.path.join(LAB_TOP, "lab/behaviour/extract.sh"), dat], os.path.join(tmp, "bin"))
            self.assertEqual((res.returncode, res.stderr), (0, ""))
            self.assertEqual(res.stdout, read(os.path.join(GS, "report.events")))

    def test_extract_errors(self):
        with Tmp() as tmp:
            empty = write(os.path.join(tmp, "empty.dat"), "")
            dat = write(os.path.join(tmp, "t.dat"), "x")
            fake_trace_cmd(os.path.join(tmp, "bin"), "/dev/null", status=1)
            cases = [
                ("no trace", empty, "trace-cmd", "no trace at .*empty.dat \\(the guest did not record it\\)"),
                ("no such trace", os.path.join(tmp, "nosuch"), "trace-cmd", "no trace at"),
                ("no trace-cmd", dat, "no-such-trace-cmd", "trace-cmd is not installed on the host"),
                ("trace-cmd fails", dat, os.path.join(tmp, "bin", "trace-cmd"), "trace-cmd report cannot read .*t.dat"),
            ]
            for name, path, exe, msg in cases:
                with self.subTest(name), self.assertRaisesRegex(T.TraceError, msg):
                    T.report(path, trace_cmd=exe)

    def test_events_round_trip(self):
        for name in ("report.events", "ThreeSmallTasks.events"):
            with self.subTest(name):
                path = os.path.join(GS, name)
                got = "".join(T.format_event(ev) + "\n" for ev in T.read_events(path))
                self.assertEqual(got, read(path))
        evs = T.read_events(os.path.join(GS, "report.events"))
        kinds = {k: sum(isinstance(e, c) for e in evs) for k, c in T.KINDS.items()}
        self.assertEqual(kinds, {"mark": 3, "switch": 290, "ou": 2, "eaw": 5})

    def test_events_errors(self):
        cases = [
            ("unknown kind", "wakeup 1 2 x\n", "1: not an events line \\(unknown event 'wakeup'"),
            ("short switch", "mark 1 begin X\nswitch 5 1\n", "2: not an events line \\(a switch wants"),
            ("ou fields", "ou 1 2 3 0-3\n", "1: not an events line \\(ou wants 5 fields, got 4\\)"),
            ("time", "switch 1.5 1 a\n", "1: not an events line \\(invalid literal"),
        ]
        with Tmp() as tmp:
            for name, text, msg in cases:
                with self.subTest(name), self.assertRaisesRegex(T.TraceError, "events:" + msg):
                    T.read_events(write(os.path.join(tmp, "events"), text))
            self.assertEqual(T.read_events(write(os.path.join(tmp, "events"), "\n")), [])
            with self.assertRaisesRegex(T.TraceError, "cannot read .*nosuch"):
                T.read_events(os.path.join(tmp, "nosuch"))


class TestStats(unittest.TestCase):
    """analysis.stats."""

    def test_values(self):
        cases = [
            # xs, mean, sd, rsd %
            ([2.0], 2.0, 0.0, 0.0),
            ([1, 2, 3], 2.0, 1.0, 50.0),
            ([2, 4, 4, 4, 5, 5, 7, 9], 5.0, 2.138089935299395, 42.7617987059879),
            ([-1, 1], 0.0, 1.4142135623730951, None),
        ]
        for xs, m, sd, rsd in cases:
            with self.subTest(xs=xs):
                self.assertEqual(stats.mean(xs), m)
                self.assertAlmostEqual(stats.sd(xs), sd, places=12)
                if rsd is None:
                    self.assertIsNone(stats.rsd_pct(xs))
                else:
                    self.assertAlmostEqual(stats.rsd_pct(xs), rsd, places=10)

    def test_mean_sums_in_order(self):
        """As awk sums: the verdicts print the digits run.sh printed."""
        xs = [1.0519, 1.0577]
        self.assertEqual(stats.mean(xs), (0.0 + 1.0519 + 1.0577) / 2)

    def test_paired(self):
        a = {1: 110.0, 2: 90.0, 3: 100.0, 4: 7.0}
        b = {1: 100.0, 2: 100.0, 3: 100.0}
        d = stats.paired(a, b)
        self.assertEqual((d.mean, d.n), (0.0, 3))
        self.assertAlmostEqual(d.two_se, 2 * 10.0 / 3 ** 0.5)
        r = stats.paired(a, b, relative=True)
        self.assertAlmostEqual(r.mean, 0.0)
        self.assertAlmostEqual(r.two_se, 2 * 10.0 / 3 ** 0.5)
        one = stats.paired({1: 2.0}, {1: 1.0}, relative=True)
        self.assertEqual((one.mean, one.two_se, one.n), (100.0, None, 1))

    def test_errors(self):
        for f, args, msg in [
            (stats.mean, ([],), "no values"),
            (stats.sd, ([],), "no values"),
            (stats.paired, ({1: 1.0}, {2: 1.0}), "no repetition in common"),
            (stats.paired, ({1: 1.0}, {1: 0.0}, True), "against 0"),
        ]:
            with self.subTest(f.__name__, args=args), self.assertRaisesRegex(ValueError, msg):
                f(*args)


MODEL = """\
platform tiny nr_cpus 3 nr_clusters 1 nr_domains 2 em 1 asym 1 board 0
cluster 0 cpus 0,1,2 nr_cpus 3
cpu 0 domain little capacity 400 cluster 0
cpu 1 domain little capacity 400 cluster 0
cpu 2 domain big capacity 1024 cluster 0
domain little index 0 cpus 0,1 nr_cpus 2 first_cpu 0 core a53 dmips_mhz 100 capacity 400 top_khz 1000000 nr_opps 2 latency_ns 1 em 1 idle_power_uw -
opp little index 0 khz 500000 uv 800000 capacity 200 power_uw 100
opp little index 1 khz 1000000 uv 900000 capacity 400 power_uw 300
domain big index 1 cpus 2 nr_cpus 1 first_cpu 2 core a72 dmips_mhz 256 capacity 1024 top_khz 1000000 nr_opps 1 latency_ns 1 em 0 idle_power_uw -
opp big index 0 khz 1000000 uv 900000 capacity 1024 power_uw -
"""


class TestPlatform(unittest.TestCase):
    """analysis.platform: `platgen model` read in one place."""

    def test_parse_model(self):
        m = P.parse_model(MODEL)
        self.assertEqual((m.name, m.nr_cpus, m.values["em"], m.values["board"]), ("tiny", 3, 1, 0))
        self.assertEqual((m.littles(), m.bigs()), ([0, 1], [2]))
        self.assertEqual(m.clusters, [P.Cluster(0, (0, 1, 2))])
        self.assertEqual(m.cpus[2], P.Cpu(2, "big", 1024, 0))
        little, big = m.domains["little"], m.domains["big"]
        self.assertEqual((little.cpus, little.capacity, little.em, big.em), ((0, 1), 400, True, False))
        self.assertEqual([(o.khz, o.capacity, o.power_uw) for o in little.opps],
                         [(500000, 200, 100), (1000000, 400, 300)])
        self.assertIsNone(big.opps[0].power_uw)
        self.assertIsNone(little.values["idle_power_uw"])

    def test_parse_errors(self):
        cases = [
            ("odd words", "platform x nr_cpus\n", "line 1: not KIND ID KEY VALUE"),
            ("unknown record", "platform x nr_cpus 1\nwidget 0 a 1\n", "line 2: unknown record 'widget'"),
            ("missing key", "platform x nr_cpus 1\ncpu 0 domain d cluster 0\n", "line 2: cpu 0 lacks or garbles 'capacity'"),
            ("no platform line", "cpu 0 domain d capacity 1 cluster 0\n", "no platform line"),
            ("no CPU", "platform x nr_cpus 0\n", "no CPU"),
        ]
        for name, text, msg in cases:
            with self.subTest(name), self.assertRaisesRegex(P.PlatformError, msg):
                P.parse_model(text)

    @need_platgen
    def test_model_of_the_lab_platforms(self):
        """Littles and bigs as lab/behaviour/workloads.sh finds them (the
        recorded run's platform.env: LITTLES='0 1 2 3' BIGS='6 7')."""
        cases = [
            ("gs101", 8, [0, 1, 2, 3], [6, 7], ["little", "mid", "big"]),
            ("juno-r0", 6, [0, 3, 4, 5], [1, 2], ["little", "big"]),
            ("hikey960", 8, [0, 1, 2, 3], [4, 5, 6, 7], ["little", "big"]),
        ]
        for name, n, littles, bigs, domains in cases:
            with self.subTest(name):
                m = P.model(name)
                self.assertEqual((m.name, m.nr_cpus, m.littles(), m.bigs(), list(m.domains)),
                                 (name, n, littles, bigs, domains))
                for d in m.domains.values():
                    self.assertEqual(d.opps[-1].capacity, d.capacity, "top OPP at the CPU's capacity")
        juno = P.model(os.path.join(LAB_TOP, "lab/platforms/juno-r0.plat"))
        self.assertEqual([o.capacity for o in juno.domains["little"].opps], [236, 301, 367, 406, 446])
        self.assertEqual((juno.nodes, {c.node for c in juno.cpus}), ([], {0}), "no numa-node line: one node, 0")

    @need_platgen
    def test_model_of_numa_nodes(self):
        """numa-ring8's node records and each CPU's node."""
        m = P.model("numa-ring8")
        self.assertEqual(m.values["nr_nodes"], 4)
        self.assertEqual(m.nodes[0], P.Node(0, (0, 1), 128, (10, 20, 30, 20)))
        self.assertEqual([n.distance for n in m.nodes[1:]],
                         [(20, 10, 20, 30), (30, 20, 10, 20), (20, 30, 20, 10)])
        self.assertEqual([c.node for c in m.cpus], [0, 0, 1, 1, 2, 2, 3, 3])
        self.assertEqual((m.littles(), m.bigs()), ([2, 3, 6, 7], [0, 1, 4, 5]))

    def test_errors(self):
        with self.assertRaisesRegex(P.PlatformError, "no platform 'nosuch' \\(known: .*gs101"):
            P.platform_file("nosuch")
        with self.assertRaisesRegex(P.PlatformError, "/nosuch/platgen missing: run make tools"):
            P.model("gs101", platgen="/nosuch/platgen")
        with Tmp() as tmp:
            bad = write(os.path.join(tmp, "bad.plat"), "not a platform\n")
            if os.access(PLATGEN, os.X_OK):
                with self.assertRaisesRegex(P.PlatformError, "invalid platform description .*bad.plat: "):
                    P.model(bad)


class TestSegments(unittest.TestCase):
    """behaviour.segments: LISA's placement over time."""

    TWO = "small-0 1000000 100\nsmall-1 1000000 100\n"
    CASES = [
        ("the recorded synthetic run (behaviour-run)",
         "mark 0 begin R\nswitch 100 1 small-0\nswitch 200 2 small-1\nmark 1000100 end R\n", TWO,
         ["100 1:100", "999900 1:100 2:100"]),
        ("a task that moves; where it last ran counts while it sleeps",
         "mark 0 begin R\nswitch 10 0 a\nswitch 20 3 other\nswitch 50 2 a\nswitch 80 0 a\nmark 100 end R\n",
         "a 1000 50\n", ["60 0:50", "30 2:50"]),
        ("identical placements are summed, in the order they first occur",
         "mark 0 begin R\nswitch 0 1 a\nswitch 10 2 a\nswitch 30 1 a\nmark 100 end R\n",
         "a 1000 7\n", ["80 1:7", "20 2:7"]),
        ("phases: util 0 is not scored, a phase past the end is cut",
         "mark 0 begin R\nswitch 5 1 a\nswitch 6 2 b\nmark 100 end R\n",
         "a 20 0\na 30 40\na 1000 60\nb 50 10\n",
         ["19 2:10", "30 1:40 2:10", "1 1:60 2:10", "44 1:60"]),
        ("only the run's window; the run's other tasks are not the profile's",
         "switch 1 4 a\nmark 10 begin R\nmark 11 begin S\nswitch 20 3 a\nmark 30 end S\nswitch 40 5 b\n"
         "mark 60 end R\nswitch 70 1 a\n", "a 1000 9\n", ["40 3:9"]),
        ("a task's life starts when it first runs: a phase ending before the end",
         "mark 0 begin R\nswitch 50 1 a\nmark 500 end R\n", "a 100 5\n", ["100 1:5"]),
    ]

    def test_cases(self):
        with Tmp() as tmp:
            for name, events, prof, want in self.CASES:
                with self.subTest(name):
                    evs = T.read_events(write(os.path.join(tmp, "events"), events))
                    got = B.format_segments(B.segments(evs, "R", profile(prof))).splitlines()
                    self.assertEqual(got, want)

    def test_recorded(self):
        """The recorded gs101 runs: the placements segments.sh gave (it
        printed them in awk's hash order: compared sorted)."""
        prof = B.read_profile(os.path.join(GS, "ThreeSmallTasks.profile"))
        for rep, events in [("p0-r1", "report.events"), ("p1-r2", "ThreeSmallTasks.events"),
                            ("p2-r1", "ThreeSmallTasks.events")]:
            with self.subTest(rep):
                evs = T.read_events(os.path.join(GS, events))
                got = B.format_segments(B.segments(evs, f"ThreeSmallTasks-{rep}", prof)).splitlines()
                want = lines_of(os.path.join(GS, "expected", f"segments-{rep}"))
                self.assertEqual(sorted(got), sorted(want))
                self.assertEqual(len(got), len(set(p for _, p in B.segments(evs, f"ThreeSmallTasks-{rep}", prof))))

    def test_errors(self):
        evs = T.read_events(os.path.join(GS, "report.events"))
        prof = B.read_profile(os.path.join(GS, "ThreeSmallTasks.profile"))
        only0 = [e for e in evs if not (isinstance(e, T.Switch) and e.comm in ("small1", "small2"))]
        cases = [
            ("a run the trace lacks", evs, "NoSuch-p2-r1", "no run NoSuch-p2-r1 in the trace"),
            ("a run cut short (no end marker)", evs, "ThreeSmallTasks-p2-r1",
             "no run ThreeSmallTasks-p2-r1 in the trace"),
            ("tasks that never ran", only0, "ThreeSmallTasks-p0-r1",
             "tasks small1, small2 never ran in ThreeSmallTasks-p0-r1"),
            ("an empty trace", [], "ThreeSmallTasks-p0-r1", "an empty trace, no placement of ThreeSmallTasks-p0-r1"),
        ]
        for name, events, rid, msg in cases:
            with self.subTest(name), self.assertRaisesRegex(B.AnalysisError, msg):
                B.segments(events, rid, prof)

    def test_profile_errors(self):
        with Tmp() as tmp:
            cases = [
                ("empty", "\n", "an empty profile"),
                ("two words", "a 100\n", ":1: not 'TASK DURATION_US UTIL': a 100"),
                ("a duration that is not a number", "a 100 5\na 1.5 5\n", ":2: not 'TASK"),
                ("a util that is not a number", "a 100 x\n", ":1: not 'TASK"),
            ]
            for name, text, msg in cases:
                with self.subTest(name), self.assertRaisesRegex(B.AnalysisError, msg):
                    B.read_profile(write(os.path.join(tmp, "profile"), text))
            with self.assertRaisesRegex(B.AnalysisError, "no such file: .*nosuch"):
                B.read_profile(os.path.join(tmp, "nosuch"))
        p = B.read_profile(os.path.join(GS, "ThreeSmallTasks.profile"))
        self.assertEqual((p.tasks, p.of("small1")), (["small0", "small1", "small2"],
                                                     [B.Phase("small1", 992000, "72")]))


class TestScore(unittest.TestCase):
    """behaviour.score and late: the verdict behind every behaviour test."""

    @need_emcost
    def test_recorded(self):
        """The recorded gs101 runs score as score.sh scored them."""
        for line in lines_of(os.path.join(GS, "expected", "scores")):
            rid, want = line.split(" ", 1)
            with self.subTest(rid):
                got = B.format_score(*B.score("gs101", os.path.join(GS, "ThreeSmallTasks.events"), rid,
                                              os.path.join(GS, "ThreeSmallTasks.profile"),
                                              os.path.join(GS, "rtapp", rid)))
                self.assertEqual(got, want)

    @need_emcost
    def test_synthetic(self):
        """tests/host/data/behaviour-run: two util-100 tasks on Juno r0's
        bigs, one of three activations late."""
        energy, worst = B.score("juno-r0", os.path.join(RUN, "events"), "ThreeSmallTasks-p2-r1",
                                os.path.join(RUN, "profile"), os.path.join(RUN, "rtapp"))
        self.assertGreater(float(energy["ratio"]), 1.0)
        self.assertEqual(worst, B.Late(50.0, "small-0", 3))

    @need_emcost
    def test_errors(self):
        with Tmp() as tmp:
            empty = write(os.path.join(tmp, "empty"), "")
            one = write(os.path.join(tmp, "one"), "".join(
                ln + "\n" for ln in lines_of(os.path.join(RUN, "events")) if "small-1" not in ln))
            zero = write(os.path.join(tmp, "zero"), "small-0 1000000 0\nsmall-1 1000000 0\n")
            ev, prof, logs = os.path.join(RUN, "events"), os.path.join(RUN, "profile"), os.path.join(RUN, "rtapp")
            rid = "ThreeSmallTasks-p2-r1"
            cases = [
                # the messages tests/host/behaviour-score.sh expects, and more
                ("a run missing from the trace", ("juno-r0", ev, "NoSuch-p2-r1", prof, logs),
                 "events: no run NoSuch-p2-r1 in the trace"),
                ("an empty trace", ("juno-r0", empty, rid, prof, logs), f"no placement of {rid}"),
                ("a task that never ran", ("juno-r0", one, rid, prof, logs), "task small-1 never ran"),
                ("no rt-app logs", ("juno-r0", ev, rid, prof, tmp), f"no rt-app logs in {tmp}"),
                ("no util", ("juno-r0", ev, rid, zero, logs), f"no placement of {rid}: its tasks never ran with a util"),
                ("an unknown platform", ("nosuch", ev, rid, prof, logs), "no platform 'nosuch'"),
                ("no events file", ("juno-r0", os.path.join(tmp, "nosuch"), rid, prof, logs), "no such file: .*nosuch"),
            ]
            for name, args, msg in cases:
                with self.subTest(name), self.assertRaisesRegex(B.AnalysisError, msg):
                    B.score(*args)
            with self.assertRaisesRegex(B.AnalysisError, "/nosuch/emcost missing: run make tools"):
                B.score("juno-r0", ev, rid, prof, logs, emcost="/nosuch/emcost")
            # emcost refuses a CPU the platform lacks: its message, named.
            nine = write(os.path.join(tmp, "nine"), "mark 0 begin R\nswitch 1 9 small-0\nswitch 2 1 small-1\nmark 9 end R\n")
            with self.assertRaisesRegex(B.AnalysisError, "cannot score R: emcost: .*no such CPU"):
                B.score("juno-r0", nine, "R", prof, logs)

    HEADER = "# idx perf run period start end rel_st slack c_duration c_period wu_lat\n"

    def test_late(self):
        row = "0 100 800 16000 0 800 0 {} 800 16000 0\n"
        cases = [
            ("the worst task", {"a.log": [5, -1, 3, 4], "b.log": [-2, 1]}, B.Late(50.0, "b", 6)),
            ("a tie goes to the first by name", {"z.log": [1], "m.log": [2], "sub/k.log": [3]}, B.Late(0.0, "k", 3)),
            ("a log without activations is no task", {"a.log": [-1, 1, 1, 1], "e.log": []}, B.Late(25.0, "a", 4)),
            ("not a .log", {"a.log": [1], "a.txt": [-1]}, B.Late(0.0, "a", 1)),
        ]
        for name, logs, want in cases:
            with self.subTest(name), Tmp() as tmp:
                for f, slacks in logs.items():
                    write(os.path.join(tmp, f), self.HEADER + "".join(row.format(s) for s in slacks))
                self.assertEqual(B.late(tmp), want)
        with Tmp() as tmp:
            with self.assertRaisesRegex(B.AnalysisError, f"no rt-app logs in {tmp}"):
                B.late(tmp)
            write(os.path.join(tmp, "a.log"), self.HEADER)
            with self.assertRaisesRegex(B.AnalysisError, "no activation in the rt-app logs"):
                B.late(tmp)
            write(os.path.join(tmp, "a.log"), self.HEADER + "0 100 800 16000\n")
            with self.assertRaisesRegex(B.AnalysisError, "a.log:2: no slack \\(column 8\\)"):
                B.late(tmp)
        self.assertEqual(B.late(os.path.join(GS, "rtapp", "ThreeSmallTasks-p1-r2")),
                         B.Late(0.0, "ThreeSmallTasks-small0-0", 186))


class TestOu(unittest.TestCase):
    """behaviour.ou: the over-utilization scenario (tests/host/data/behaviour-ou)."""

    def setUp(self):
        self.events = T.read_events(os.path.join(OU, "events"))
        self.profile = B.read_profile(os.path.join(OU, "profile"))

    def test_recorded(self):
        """The synthetic runs measure as ou.sh measured them."""
        for line in lines_of(os.path.join(OU, "expected")):
            rid, want = line.split(" ", 1)
            with self.subTest(rid):
                got = B.ou(self.events, rid, self.profile, [0, 1, 2, 3], [4, 5, 6, 7])
                self.assertEqual(B.format_ou(got), want)

    def test_values(self):
        v = B.ou(self.events, "OverutilizedBigs-p2-r1", self.profile, [0, 1, 2, 3], [4, 5, 6, 7])
        self.assertEqual(v["littles_flagged_pct"], 100 * 50000 / 1500000)
        self.assertEqual(v["clear_ms"], 200.0)
        # Other CPU sets: the littles' domain is then a "parent" one.
        w = B.ou(self.events, "OverutilizedBigs-p2-r1", self.profile, [0, 1], [4, 5, 6, 7])
        self.assertEqual((w["parent_marked"], w["littles_flagged_pct"]), (1, 0.0))

    def test_errors(self):
        cases = [
            ("no load-end marker", "OverutilizedBigs-p2-r3", self.profile, "no complete run OverutilizedBigs-p2-r3"),
            ("a run the trace lacks", "NoSuch", self.profile, "no complete run NoSuch in the trace"),
            ("a task that never ran", "OverutilizedBigs-p2-r1",
             profile("small0 1500000 0\nsmall0 1500000 72\nsmall9 1 1"), "task small9 never ran"),
            ("one phase", "OverutilizedBigs-p2-r1", profile("small0 1500000 0"), "an unscored and a scored phase"),
        ]
        for name, rid, prof, msg in cases:
            with self.subTest(name), self.assertRaisesRegex(B.AnalysisError, msg):
                B.ou(self.events, rid, prof, [0, 1, 2, 3], [4, 5, 6, 7])

    def test_cpulist(self):
        for text, want in [("0-3", {0, 1, 2, 3}), ("0,3-5", {0, 3, 4, 5}), ("7", {7}), ("", set())]:
            with self.subTest(text):
                self.assertEqual(B.cpulist(text), want)
        with self.assertRaisesRegex(B.AnalysisError, "not a CPU list: 'a-3'"):
            B.cpulist("a-3")


class TestVerdict(unittest.TestCase):
    """behaviour.verdict on run.sh's recorded scores: run.sh's verdicts."""

    def test_recorded(self):
        thresholds = {"ThreeSmallTasks": 20}
        for scores, verdicts in [("scores-all", "verdicts"), ("scores-r6", "verdicts-r6")]:
            runs = B.read_scores(os.path.join(GS, "expected", scores))
            for row in lines_of(os.path.join(GS, "expected", verdicts)):
                _, test, policy, v, result, _ = row.split("\t")
                if test not in thresholds:
                    continue
                with self.subTest(scores, policy=policy):
                    pol = {n: p for p, n in B.POLICIES.items()}[policy]
                    self.assertEqual(B.verdict(runs, test, pol, thresholds[test]), f"{v} {result}")

    def test_read_scores(self):
        runs = B.read_scores(os.path.join(GS, "expected", "scores-r6"))
        self.assertEqual(len(runs), 18)
        self.assertEqual(runs[0], B.Scored("ThreeSmallTasks", 0, 1, 1.0519, 0.0))
        self.assertEqual(runs[2], B.Scored("ThreeSmallTasks", 0, 3, None, None))

    def test_rules(self):
        def r(p, rep, ratio, late_pct):
            return B.Scored("T", p, rep, ratio, late_pct)
        cases = [
            ("below the limit", [r(2, 1, 1.04, 0), r(2, 2, 1.05, 20)], 5, "PASS ratio 1.045 (limit 1.05), late 10.0% (limit 15%)"),
            ("at the limit fails", [r(2, 1, 1.05, 0)], 5, "FAIL ratio 1.050 (limit 1.05), late 0.0% (limit 15%)"),
            ("too late", [r(2, 1, 1.0, 16)], 5, "FAIL ratio 1.000 (limit 1.05), late 16.0% (limit 15%)"),
            ("late at the limit passes", [r(2, 1, 1.0, 15)], 5, "PASS ratio 1.000 (limit 1.05), late 15.0% (limit 15%)"),
            ("an unscored run fails", [r(2, 1, 1.0, 0), r(2, 2, None, None)], 5,
             "FAIL ratio 1.000 (limit 1.05), late 0.0% (limit 15%)"),
            ("no run", [r(1, 1, 1.0, 0)], 5, "FAIL no run scored"),
        ]
        for name, runs, thr, want in cases:
            with self.subTest(name):
                self.assertEqual(B.verdict(runs, "T", 2, thr), want)

    def test_summary(self):
        runs = B.read_scores(os.path.join(GS, "expected", "scores-all"))
        got = B.summary(runs, "ThreeSmallTasks")
        self.assertEqual(got[0], "ThreeSmallTasks policy none runs 2 ratio_mean 1.0548 ratio_sd 0.0041 ratio_rsd_pct 0.4")
        self.assertEqual(got[-1], "ThreeSmallTasks series_vs_6.12 ratio_diff -0.1421 two_se 0.2515 pairs 2")
        with self.assertRaisesRegex(B.AnalysisError, "no scored run of Nope"):
            B.summary(runs, "Nope")


class TestCommands(unittest.TestCase):
    """lab/behaviour/*.sh, run.sh's commands: outputs and errors."""

    SH = os.path.join(LAB_TOP, "lab", "behaviour")

    def test_segments_and_ou(self):
        prof = os.path.join(GS, "ThreeSmallTasks.profile")
        res = run([os.path.join(self.SH, "segments.sh"), os.path.join(GS, "ThreeSmallTasks.events"),
                   "ThreeSmallTasks-p1-r2", prof])
        self.assertEqual((res.returncode, res.stderr), (0, ""))
        self.assertEqual(sorted(res.stdout.splitlines()), lines_of(os.path.join(GS, "expected", "segments-p1-r2")))
        res = run([os.path.join(self.SH, "ou.sh"), os.path.join(OU, "events"), "OverutilizedBigs-p2-r2",
                   os.path.join(OU, "profile"), "0 1 2 3", "4 5 6 7"])
        self.assertEqual((res.returncode, res.stdout), (0, lines_of(os.path.join(OU, "expected"))[2].split(" ", 1)[1] + "\n"))

    @need_emcost
    def test_score(self):
        line = lines_of(os.path.join(GS, "expected", "scores"))[0]
        rid, want = line.split(" ", 1)
        res = run([os.path.join(self.SH, "score.sh"), "gs101", os.path.join(GS, "ThreeSmallTasks.events"), rid,
                   os.path.join(GS, "ThreeSmallTasks.profile"), os.path.join(GS, "rtapp", rid)])
        self.assertEqual((res.returncode, res.stdout, res.stderr), (0, want + "\n", ""))

    def test_errors(self):
        """One line naming the cause, status 1; a bad command line, 2."""
        cases = [
            (["segments.sh", os.path.join(RUN, "events"), "NoSuch", os.path.join(RUN, "profile")], 1,
             "behaviour.py segments: error: .*events: no run NoSuch in the trace\n"),
            (["ou.sh", os.path.join(OU, "events"), "OverutilizedBigs-p2-r3", os.path.join(OU, "profile"), "0 1", "x"], 1,
             "behaviour.py ou: error: BIGS wants CPU ids separated by spaces, got 'x'\n"),
            (["extract.sh", "/nonexistent.dat"], 1,
             "behaviour.py extract: error: no trace at /nonexistent.dat \\(the guest did not record it\\)\n"),
            (["segments.sh", "a", "b"], 2, "usage: behaviour.py segments"),
        ]
        for argv, status, msg in cases:
            with self.subTest(argv[0], status=status):
                res = run([os.path.join(self.SH, argv[0])] + argv[1:])
                self.assertEqual((res.returncode, res.stdout), (status, ""))
                self.assertRegex(res.stderr, "^" + msg)
                if status == 1:
                    self.assertEqual(res.stderr.count("\n"), 1, "one line")

    def test_main(self):
        """behaviour.main in-process: verdict and summary, and --help."""
        out = io.StringIO()
        with redirect_stdout(out):
            rc = B.main(["verdict", os.path.join(GS, "expected", "scores-all"), "ThreeSmallTasks", "2", "20"])
        self.assertEqual((rc, out.getvalue()), (0, "PASS ratio 1.021 (limit 1.20), late 0.0% (limit 15%)\n"))
        out, err = io.StringIO(), io.StringIO()
        with redirect_stdout(out), redirect_stderr(err):
            rc = B.main(["summary", os.path.join(GS, "expected", "nosuch"), "T"])
        self.assertEqual(rc, 1)
        self.assertRegex(err.getvalue(), "^behaviour.py summary: error: cannot read .*nosuch")
        for cmd in ("extract", "segments", "score", "ou", "verdict", "summary"):
            with self.subTest(cmd):
                res = run([PYTHON, os.path.join(LAB_TOP, "lab", "analysis", "behaviour.py"), cmd, "--help"])
                self.assertEqual(res.returncode, 0)
                self.assertIn(f"usage: behaviour.py {cmd}", res.stdout)

    def test_module_headers(self):
        """Every module: SPDX on line 2 after #!/usr/bin/python3 where
        executable (on line 1 otherwise), a docstring saying why."""
        d = os.path.join(LAB_TOP, "lab", "analysis")
        for name in sorted(f for f in os.listdir(d) if f.endswith(".py")):
            with self.subTest(name):
                path = os.path.join(d, name)
                head = read(path).splitlines()
                spdx = "# SPDX-License-Identifier: GPL-2.0-only"
                if os.access(path, os.X_OK):
                    self.assertEqual(head[:2], ["#!/usr/bin/python3", spdx])
                else:
                    self.assertEqual(head[0], spdx)
                self.assertTrue(any(ln.startswith('"""') for ln in head[:4]), "a module docstring")


if __name__ == "__main__":
    tap.run(sys.modules[__name__], "lab/analysis")
