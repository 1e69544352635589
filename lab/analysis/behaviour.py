#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""The behaviour tests' analysis on the host (lab/behaviour/run.sh).

Each run of a test is scored as LISA's eas_behaviour tests score it, from
the trace (extract, by way of analysis.trace) and the profile
lab/behaviour/workloads.sh wrote ("TASK DURATION_US UTIL" per phase, in
order; util 0: not scored):

  extract TRACE.dat
      the events of the trace the analysis reads (analysis.trace's
      format), on stdout; run.sh keeps them as TEST.events
  segments EVENTS RUN_ID PROFILE
      placement over time, as LISA's test_task_placement sees it: each
      task of the profile on the CPU it last ran on (sleeping or not),
      with the util the profile expects of it then.  A task's life starts
      when it first runs under its name; its phases follow from there.
      One line per distinct placement, "DURATION_US CPU:UTIL CPU:UTIL
      ...", durations of identical placements summed, in the order they
      first occur: the input of `emcost score`
  score PLATFILE EVENTS RUN_ID PROFILE RTAPP_LOGDIR
      the energy of that placement against the optimal one on the
      platform's Energy Model (`emcost score`), and the share of late
      activations (rt-app's slack < 0) of the worst task, on one line:
      "ratio R estimated_uj E optimal_uj O late_pct L late_task T
      activations N"
  ou EVENTS RUN_ID PROFILE 'LITTLES' 'BIGS'
      the over-utilization scenario (OverutilizedBigs) of one run, on
      one line "bigs_marked B parent_marked P littles_flagged_pct F
      eaw_pct W little_share_pct S clear_ms C": the bigs' own domain,
      a domain spanning littles and bigs flagged before the load's end
      (0/1); the littles' domain flagged, energy-aware wake-ups per
      activation of the small tasks, their time on the LITTLES, in % of
      the steady window (the profile's second phase, after its first);
      the last flag cleared this long after the heavy tasks' end (-1:
      one still stood at the end)
  verdict SCORES TEST POLICY THRESHOLD_PCT
      run.sh's verdict on a test's scored runs under a policy (0, 1, 2):
      the mean ratio below 1 + THRESHOLD_PCT / 100 and the mean late
      share at most 15%
  summary SCORES TEST
      each policy's runs (mean, sd, RSD of the ratio) and the series
      against 6.12 paired by repetition, with two standard errors

lab/behaviour/{extract,segments,score,ou}.sh run this; their output
formats are run.sh's input, byte for byte.  Errors: one line on stderr
naming the cause, status 1 (2 for a bad command line).
"""

import os
import sys

if not __package__:  # run as a script (see labpath.py)
    import labpath
    labpath.use_lab_path()

import argparse  # noqa: E402  (after the path is set)
import subprocess  # noqa: E402
from typing import NamedTuple  # noqa: E402

from analysis import platform, stats, trace  # noqa: E402
from analysis.trace import Eaw, Mark, Ou, Switch  # noqa: E402

# rt-app's period in the workloads (lab/behaviour/workloads.sh PERIOD_US).
PERIOD_US = 16000
# LISA's test_slack(negative_slack_allowed_pct=15), as run.sh's LATE_PCT_MAX.
LATE_PCT_MAX = 15
POLICIES = {0: "none", 1: "6.12", 2: "series"}


class AnalysisError(Exception):
    """A run that cannot be analysed: the message names the cause."""


class Phase(NamedTuple):
    task: str
    duration_us: int
    util: str  # as written: it is printed back as is


class Profile(NamedTuple):
    """The phases of a test's tasks, in the profile's order."""

    path: str
    phases: list

    @property
    def tasks(self):
        """The tasks, in the order they first appear."""
        return list(dict.fromkeys(p.task for p in self.phases))

    def of(self, task):
        return [p for p in self.phases if p.task == task]


def read_profile(path):
    """A Profile from lab/behaviour/workloads.sh's NAME.profile."""
    if not os.path.isfile(path):
        raise AnalysisError(f"no such file: {path}")
    phases = []
    with open(path, encoding="utf-8") as f:
        for lineno, line in enumerate(f, 1):
            words = line.split()
            if not words:
                continue
            try:
                if len(words) != 3:
                    raise ValueError
                float(words[2])
                phases.append(Phase(words[0], int(words[1]), words[2]))
            except ValueError:
                raise AnalysisError(f"{path}:{lineno}: not 'TASK DURATION_US UTIL': "
                                    f"{line.strip()}") from None
    if not phases:
        raise AnalysisError(f"{path}: an empty profile")
    return Profile(path, phases)


def read_events(path):
    """The events of EVENTS (lab/behaviour/extract.sh's output)."""
    if not os.path.isfile(path):
        raise AnalysisError(f"no such file: {path}")
    try:
        return trace.read_events(path)
    except trace.TraceError as e:
        raise AnalysisError(str(e)) from None


def _is_mark(ev, what, run_id):
    if not isinstance(ev, Mark):
        return False
    w = ev.words
    return len(w) >= 2 and w[0] == what and w[1] == run_id


def segments(events, run_id, profile):
    """Placement over time of the run RUN_ID: [(DURATION_US, ((CPU, UTIL),
    ...)), ...], one entry per distinct placement in the order each first
    occurs, the tasks of a placement in the profile's order, only those
    with a util > 0.

    The run is the window between its markers "begin RUN_ID" and "end
    RUN_ID", in the trace's order.  AnalysisError when the trace has no
    such run or a task of the profile never ran in it."""
    if not events:
        raise AnalysisError(f"an empty trace, no placement of {run_id}")
    tasks = profile.tasks
    known = set(tasks)
    changes = []  # (T, KIND, TASK, VALUE): every change of a CPU or a util
    start, cpu = {}, {}
    inwin = done = False
    wend = None
    for ev in events:
        if _is_mark(ev, "begin", run_id):
            inwin = True
        elif inwin and _is_mark(ev, "end", run_id):
            inwin, wend, done = False, ev.t, True
        elif inwin and isinstance(ev, Switch) and ev.comm in known:
            start.setdefault(ev.comm, ev.t)
            if cpu.get(ev.comm) != ev.cpu:
                changes.append((ev.t, "cpu", ev.comm, ev.cpu))
                cpu[ev.comm] = ev.cpu
    if not done:
        raise AnalysisError(f"no run {run_id} in the trace")
    missing = [t for t in tasks if t not in start]
    if missing:
        raise AnalysisError(f"task{'s' if len(missing) > 1 else ''} {', '.join(missing)} "
                            f"never ran in {run_id}")
    for task in tasks:
        t = start[task]
        for p in profile.of(task):
            changes.append((t, "util", task, p.util))
            t += p.duration_us
        changes.append((min(t, wend), "util", task, "0"))
    changes.append((wend, "stop", None, None))
    changes.sort(key=lambda c: c[0])  # stable: ties keep the order above

    total = {}
    cur_cpu, cur_util = {}, {}
    last = None
    for t, kind, task, value in changes:
        if last is not None and t > last:
            placed = tuple((cur_cpu[k], cur_util[k]) for k in tasks
                           if k in cur_cpu and float(cur_util.get(k, "0")) > 0)
            if placed:
                total[placed] = total.get(placed, 0) + t - last
        last = t
        if kind == "cpu":
            cur_cpu[task] = value
        elif kind == "util":
            cur_util[task] = value
        else:
            break
    return [(dur, placed) for placed, dur in total.items()]


def segments_of(events_path, run_id, profile_path):
    """segments() of the files; errors name the events file."""
    profile = read_profile(profile_path)
    events = read_events(events_path)
    try:
        return segments(events, run_id, profile)
    except AnalysisError as e:
        raise AnalysisError(f"{events_path}: {e}") from None


def format_segments(segs):
    """`emcost score`'s input: "DURATION_US CPU:UTIL ..." per line."""
    return "".join(f"{dur}{''.join(f' {c}:{u}' for c, u in placed)}\n" for dur, placed in segs)


class Late(NamedTuple):
    pct: float
    task: str
    activations: int


def late(logdir):
    """The share of late activations (rt-app 1.0's log: column 8 is the
    slack, us) of the task that has the most, over every *.log under
    LOGDIR; ties go to the first task by name."""
    logs = []
    if os.path.isdir(logdir):
        for root, _, files in os.walk(logdir):
            logs += [os.path.join(root, f) for f in files if f.endswith(".log")]
    if not logs:
        raise AnalysisError(f"no rt-app logs in {logdir}")
    n, nlate = {}, {}
    for path in sorted(logs):
        task = os.path.basename(path)[:-len(".log")]
        with open(path, encoding="utf-8", errors="replace") as f:
            for lineno, line in enumerate(f, 1):
                words = line.split()
                if not words or words[0].startswith("#"):
                    continue
                try:
                    slack = float(words[7])
                except (IndexError, ValueError):
                    raise AnalysisError(f"{path}:{lineno}: no slack (column 8) in an rt-app "
                                        f"log line: {line.strip()}") from None
                n[task] = n.get(task, 0) + 1
                nlate[task] = nlate.get(task, 0) + (slack < 0)
    if not n:
        raise AnalysisError(f"no activation in the rt-app logs in {logdir}")
    worst = None
    for task in sorted(n):
        pct = 100 * nlate[task] / n[task]
        if worst is None or pct > worst.pct:
            worst = Late(pct, task, 0)
    return worst._replace(activations=sum(n.values()))


def emcost_path():
    return os.environ.get("EMCOST") or os.path.join(platform.tools_bin(), "emcost")


def score(plat, events_path, run_id, profile_path, logdir, emcost=None):
    """LISA's two scores of one run: {"ratio", "estimated_uj",
    "optimal_uj"} as emcost prints them, and Late."""
    try:
        platfile = platform.platform_file(plat)
    except platform.PlatformError as e:
        raise AnalysisError(str(e)) from None
    emcost = emcost or emcost_path()
    if not os.access(emcost, os.X_OK):
        raise AnalysisError(f"{emcost} missing: run make tools")
    # A run missing from the trace is an error, never a score on no
    # placement at all.
    segs = segments_of(events_path, run_id, profile_path)
    if not segs:
        raise AnalysisError(f"{events_path}: no placement of {run_id}: "
                            "its tasks never ran with a util")
    res = subprocess.run([emcost, "score", platfile], input=format_segments(segs),
                         capture_output=True, text=True, check=False)
    if res.returncode != 0:
        why = (res.stderr.strip().splitlines() or ["no message"])[0]
        raise AnalysisError(f"cannot score {run_id}: {why}")
    worst = late(logdir)
    energy = {}
    for line in res.stdout.splitlines():
        words = line.split()
        if len(words) >= 2:
            energy[words[0]] = words[1]
    if "ratio" not in energy:
        raise AnalysisError(f"emcost score printed no ratio for {run_id}")
    return energy, worst


def format_score(energy, worst):
    return (f"ratio {energy['ratio']} estimated_uj {energy.get('estimated_uj', '')} "
            f"optimal_uj {energy.get('optimal_uj', '')} late_pct {worst.pct:.1f} "
            f"late_task {worst.task} activations {worst.activations}")


def cpulist(text):
    """A CPU list ("0,3-5") as a set of CPU ids."""
    cpus = set()
    for part in filter(None, text.split(",")):
        a, _, b = part.partition("-")
        try:
            cpus.update(range(int(a), int(b or a) + 1))
        except ValueError:
            raise AnalysisError(f"not a CPU list: '{text}'") from None
    return cpus


def ou(events, run_id, profile, littles, bigs, period_us=PERIOD_US):
    """The over-utilization scenario of one run (workload
    OverutilizedBigs: a never-sleeping task pinned to each big CPU, small
    periodic tasks free to go anywhere), as a dict:

      bigs_marked          the bigs' own domain was flagged overutilized
                           before the load's end (0/1)
      parent_marked        a domain spanning littles and bigs was (0/1)
      littles_flagged_pct  share of the steady window (the small tasks'
                           scored phase) during which the littles' domain
                           was flagged
      eaw_pct              sched_energy_wakeup events of the small tasks
                           in the steady window per activation, in percent
      little_share_pct     share of the small tasks' time (where they
                           last ran) on little CPUs, over their scored
                           phases (segments)
      clear_ms             from the load's end (the last of the heavy
                           tasks' last switch-outs: the load is gone) to
                           the last flag clearing after it; 0 if every
                           flag was down by then, -1 if one still stood
                           at the end

    The steady window starts the profile's first phase (the small tasks'
    unscored one) after the run's start and lasts its second."""
    if len(profile.phases) < 2:
        raise AnalysisError(f"{profile.path}: the scenario wants an unscored and a scored phase")
    skip, steady = profile.phases[0].duration_us, profile.phases[1].duration_us
    if steady <= 0:
        raise AnalysisError(f"{profile.path}: a steady phase of {steady} us")
    nsmall = len(profile.tasks)
    littles, bigs = set(littles), set(bigs)

    on = done = False
    w0 = w1 = lastt = tl = cleared = None
    cur, hend, state = {}, {}, {}
    lflag = flagged = eaw = 0
    marked = {"little": 0, "big": 0, "parent": 0}

    def account(t):
        """Time the littles' domain has been flagged, up to T, within the
        window."""
        nonlocal flagged, lastt
        a, b = max(lastt, w0), min(t, w1)
        if lflag > 0 and b > a:
            flagged += b - a
        lastt = t

    for ev in events:
        if _is_mark(ev, "begin", run_id):
            w0 = ev.t + skip
            w1 = w0 + steady
            lastt, on = ev.t, True
        elif on and _is_mark(ev, "load-end", run_id):
            tl = ev.t
        elif on and isinstance(ev, Switch):
            if cur.get(ev.cpu, "").startswith("heavy"):
                hend[cur[ev.cpu]] = ev.t
            cur[ev.cpu] = ev.comm
        elif on and _is_mark(ev, "end", run_id):
            account(ev.t)
            on, done = False, True
        elif on and isinstance(ev, Ou):
            span = cpulist(ev.span)
            key = (ev.level, ev.span)
            kind = "little" if span <= littles else "big" if span <= bigs else "parent"
            account(ev.t)
            was = state.get(key, 0)
            if kind == "little":
                lflag += (ev.overutilized == 1 and not was) - (ev.overutilized == 0 and was)
            if ev.overutilized == 1 and tl is None:
                marked[kind] = 1
            if was and ev.overutilized == 0:
                cleared = ev.t
            state[key] = ev.overutilized
        elif on and isinstance(ev, Eaw):
            if ev.comm.startswith("small") and w0 <= ev.t < w1:
                eaw += 1
    if not done or tl is None:
        raise AnalysisError(f"no complete run {run_id} in the trace")

    segs = segments(events, run_id, profile)
    little = every = 0
    for dur, placed in segs:
        for c, _ in placed:
            every += dur
            if c in littles:
                little += dur
    lend = max([0] + list(hend.values()))
    clear = (cleared - lend) / 1000 if cleared is not None and cleared > lend else 0
    if any(state.values()):
        clear = -1
    return {
        "bigs_marked": marked["big"],
        "parent_marked": marked["parent"],
        "littles_flagged_pct": 100 * flagged / steady,
        "eaw_pct": 100 * eaw / (nsmall * steady / period_us),
        "little_share_pct": 100 * little / every if every else 0,
        "clear_ms": clear,
    }


def format_ou(v):
    return (f"bigs_marked {v['bigs_marked']} parent_marked {v['parent_marked']} "
            f"littles_flagged_pct {v['littles_flagged_pct']:.1f} eaw_pct {v['eaw_pct']:.0f} "
            f"little_share_pct {v['little_share_pct']:.1f} clear_ms {v['clear_ms']:.1f}")


class Scored(NamedTuple):
    """A run of run.sh's scores file; RATIO and LATE_PCT None when it
    could not be scored."""

    test: str
    policy: int
    rep: int
    ratio: float
    late_pct: float


def read_scores(path):
    """The runs of run.sh's scores file: "RUN_ID ratio R ..." when
    scored, "RUN_ID unscored: WHY" when not (the over-utilization
    scenario's lines are skipped)."""
    runs = []
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.readlines()
    except OSError as e:
        raise AnalysisError(f"cannot read {path}: {e.strerror}") from None
    for line in lines:
        w = line.split()
        test, _, rest = w[0].rpartition("-p") if w else ("", "", "")
        pol, _, rep = rest.partition("-r")
        if not (test and pol.isdigit() and rep.isdigit()):
            continue
        if len(w) >= 9 and w[1] == "ratio" and w[7] == "late_pct":
            runs.append(Scored(test, int(pol), int(rep), float(w[2]), float(w[8])))
        elif len(w) >= 2 and w[1] == "unscored:":
            runs.append(Scored(test, int(pol), int(rep), None, None))
    return runs


def verdict(runs, test, policy, threshold_pct, late_max=LATE_PCT_MAX):
    """run.sh's verdict on TEST under POLICY, its table's verdict and
    result: "PASS|FAIL ratio M (limit L), late X% (limit Y%)" over the
    scored runs, FAIL as soon as one run could not be scored."""
    mine = [r for r in runs if r.test == test and r.policy == policy and r.ratio is not None]
    if not mine:
        return "FAIL no run scored"
    m = stats.mean(r.ratio for r in mine)
    lm = stats.mean(r.late_pct for r in mine)
    limit = 1 + threshold_pct / 100
    ok = m < limit and lm <= late_max
    ok = ok and not any(r.test == test and r.policy == policy and r.ratio is None for r in runs)
    return (f"{'PASS' if ok else 'FAIL'} ratio {m:.3f} (limit {limit:.2f}), "
            f"late {lm:.1f}% (limit {late_max}%)")


def summary(runs, test):
    """Lines on TEST's ratios: per policy, mean, sd and RSD over its runs;
    then the series against 6.12, paired by repetition."""
    out = []
    by = {}
    for r in runs:
        if r.test == test and r.ratio is not None:
            by.setdefault(r.policy, {})[r.rep] = r.ratio
    if not by:
        raise AnalysisError(f"no scored run of {test}")
    for p in sorted(by):
        xs = [by[p][k] for k in sorted(by[p])]
        rsd = stats.rsd_pct(xs)
        out.append(f"{test} policy {POLICIES.get(p, p)} runs {len(xs)} ratio_mean "
                   f"{stats.mean(xs):.4f} ratio_sd {stats.sd(xs):.4f} ratio_rsd_pct "
                   f"{'-' if rsd is None else f'{rsd:.1f}'}")
    if 1 in by and 2 in by and set(by[1]) & set(by[2]):
        d = stats.paired(by[2], by[1])
        err = "-" if d.two_se is None else f"{d.two_se:.4f}"
        out.append(f"{test} series_vs_6.12 ratio_diff {d.mean:+.4f} two_se {err} pairs {d.n}")
    return out


def _command_doc(name):
    """NAME's paragraph of the module's docstring: the help of one command."""
    lines = __doc__.splitlines()
    start = next(i for i, ln in enumerate(lines) if ln.startswith(f"  {name} "))
    end = start + 1
    while end < len(lines) and lines[end].startswith("      "):
        end += 1
    return "\n".join(ln[2:] for ln in lines[start:end])


def _parser():
    p = argparse.ArgumentParser(prog="behaviour.py", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True, metavar="COMMAND")

    def command(name, summary_line, *operands):
        s = sub.add_parser(name, help=summary_line, description=_command_doc(name),
                           formatter_class=argparse.RawDescriptionHelpFormatter)
        for op in operands:
            s.add_argument(op.lower().replace(".", "_"), metavar=op)
        return s

    command("extract", "a trace.dat's events", "TRACE.dat")
    command("segments", "placement over time of a run", "EVENTS", "RUN_ID", "PROFILE")
    command("score", "energy ratio and late activations of a run",
            "PLATFILE", "EVENTS", "RUN_ID", "PROFILE", "RTAPP_LOGDIR")
    command("ou", "the over-utilization scenario of a run",
            "EVENTS", "RUN_ID", "PROFILE", "LITTLES", "BIGS")
    s = command("verdict", "run.sh's verdict on a test under a policy", "SCORES", "TEST")
    s.add_argument("policy", metavar="POLICY", type=int, choices=sorted(POLICIES))
    s.add_argument("threshold", metavar="THRESHOLD_PCT", type=float)
    command("summary", "spread of a test's ratios, series vs 6.12", "SCORES", "TEST")
    return p


def _cpus(text, what):
    try:
        return [int(c) for c in text.split()]
    except ValueError:
        raise AnalysisError(f"{what} wants CPU ids separated by spaces, got '{text}'") from None


def main(argv=None):
    args = _parser().parse_args(argv)
    out = sys.stdout
    try:
        if args.cmd == "extract":
            try:
                lines = trace.report(args.trace_dat)
                text = "".join(trace.format_event(ev) + "\n" for ev in trace.extract(lines))
            except trace.TraceError as e:
                raise AnalysisError(str(e)) from None
            if hasattr(out, "buffer"):
                out.flush()
                out.buffer.write(text.encode(trace.ENCODING, trace.ERRORS))
            else:
                out.write(text)
        elif args.cmd == "segments":
            out.write(format_segments(segments_of(args.events, args.run_id, args.profile)))
        elif args.cmd == "score":
            out.write(format_score(*score(args.platfile, args.events, args.run_id, args.profile,
                                          args.rtapp_logdir)) + "\n")
        elif args.cmd == "ou":
            littles, bigs = _cpus(args.littles, "LITTLES"), _cpus(args.bigs, "BIGS")
            profile = read_profile(args.profile)
            out.write(format_ou(ou(read_events(args.events), args.run_id, profile,
                                   littles, bigs)) + "\n")
        elif args.cmd == "verdict":
            out.write(verdict(read_scores(args.scores), args.test, args.policy,
                              args.threshold) + "\n")
        elif args.cmd == "summary":
            out.write("".join(line + "\n" for line in summary(read_scores(args.scores), args.test)))
    except AnalysisError as e:
        print(f"behaviour.py {args.cmd}: error: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BrokenPipeError:
        # A reader that stopped early (| head): no traceback, and none
        # again when Python flushes stdout on its way out.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(141)
