#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Where the tasks of one name ran, from a trace (lab/trace-placement.sh).

From a trace-cmd trace with sched_switch (lab/run -t), read by way of
analysis.trace: per CPU, the time the tasks named COMM ran and how many of
them ran there; with the series' sched_overutilized_sd events, the share
of the trace each sched domain spent overutilized.  Evidence for a
placement decision (e.g. a benchmark target missed), shorter than the raw
trace.

Usage: placement.py TRACE.DAT [COMM]
       placement.py --report FILE [COMM]

COMM defaults to small, the name of the benchmark's rt-app tasks.
--report reads the text `trace-cmd report` printed (FILE, or - for
stdin) instead of running trace-cmd on a trace.dat.

The output is the shell version's, byte for byte: times are computed in
the report's seconds in floating point, in the order its awk computed
them, and the domains are listed in the order mawk's `for (k in a)`
walked them (see _mawk_order).  A task is the first word after "==>" of
a sched_switch, "NAME:PID", split at its colons as the awk split it.
"""

import os
import sys

if not __package__:  # run as a script (see labpath.py)
    import labpath
    labpath.use_lab_path()

import argparse  # noqa: E402  (after the path is set)
import re  # noqa: E402
import shutil  # noqa: E402

from analysis import cli, trace  # noqa: E402

USAGE = "usage: lab/trace-placement.sh TRACE.DAT [COMM] | --report FILE [COMM]"
DEFAULT_COMM = "small"
# The shell version listed CPUs 0 to 63.
MAX_CPUS = 64

# awk's default field separators.
_AWK_WS = re.compile(r"[ \t\n]+")
# A string awk takes for a number when it compares one.
_AWK_NUMBER = re.compile(r"[ \t\n]*[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?[ \t\n]*")


class PlacementError(Exception):
    """A trace that cannot be analysed: the message says why."""


class _Parser(argparse.ArgumentParser):
    """A bad command line: one line and status 1, as the shell version."""

    def error(self, message):
        print(f"{self.prog}: error: {message}; {USAGE}", file=sys.stderr)
        sys.exit(1)


def _awk_words(text):
    return [w for w in _AWK_WS.split(text) if w]


def _awk_is_one(value):
    """awk's `value == 1` for a field: numeric if the field looks like a
    number, else a comparison of strings."""
    if _AWK_NUMBER.fullmatch(value):
        return float(value) == 1
    return value == "1"


def _fnv1(text):
    """mawk's hash of an array subscript (hash2: 32-bit FNV-1)."""
    h = 2166136261
    for b in text.encode(trace.ENCODING, trace.ERRORS):
        h = ((h ^ b) * 16777619) & 0xFFFFFFFF
    return h


def _mawk_order(last_use):
    """The subscripts of a mawk array in the order `for (k in a)` walks
    them: its hash table's lists in order, each list most recently used
    first (a lookup moves its node to the front); the table starts at 64
    lists and doubles past 12 nodes a list.  LAST_USE: the subscript and
    when it was last looked up.  WHINY_USERS set: sorted, as mawk does."""
    keys = list(last_use)
    if "WHINY_USERS" in os.environ:
        return sorted(keys, key=lambda k: k.encode(trace.ENCODING, trace.ERRORS))
    hmask = 63
    while len(keys) > (hmask + 1) * 12:
        hmask = hmask * 2 + 1
    return sorted(keys, key=lambda k: (_fnv1(k) & hmask, -last_use[k]))


def analyse(lines, comm=DEFAULT_COMM):
    """The report of the `trace-cmd report` text LINES, as a list of
    lines (no newline)."""
    first = last = None
    cur, start, run, tasks, seen, cpus = {}, {}, {}, {}, set(), set()
    # sched_overutilized_sd: state, since, time overutilized, last use
    # per "level L span S"; L, S, O persist across events, as awk's did.
    state, since, ou, used = {}, {}, {}, {}
    level = span = o = ""
    for n, (seconds, rec) in enumerate(trace.report_stamped(lines)):
        ts = float(seconds)
        if rec.event == "sched_switch":
            if first is None:
                first = ts
            last = ts
            cpu = rec.cpu
            at = rec.body.find("==>")
            words = _awk_words(rec.body[at + 3:] if at >= 0 else rec.body)
            task = words[0] if words else ""
            if cur.get(cpu, "") != "":
                f = cur[cpu].split(":")
                if f[0] == comm:
                    run[cpu] = run.get(cpu, 0.0) + (ts - start[cpu])
                    pid = f[1] if len(f) > 1 else ""
                    if (cpu, pid) not in seen:
                        seen.add((cpu, pid))
                        tasks[cpu] = tasks.get(cpu, 0) + 1
            cur[cpu] = task
            start[cpu] = ts
            cpus.add(cpu)
        elif rec.event == "sched_overutilized_sd":
            for word in _awk_words(rec.body):
                kv = word.split("=")
                value = kv[1] if len(kv) > 1 else ""
                if kv[0] == "level":
                    level = value
                elif kv[0] == "span":
                    span = value
                elif kv[0] == "overutilized":
                    o = value
            k = f"level {level} span {span}"
            used[k] = n
            if _awk_is_one(state.get(k, "")):
                ou[k] = ou.get(k, 0.0) + (ts - since[k])
            state[k] = o
            since[k] = ts
    if first is None:
        raise PlacementError("no sched_switch event in the trace")
    span_s = last - first
    if span_s == 0:
        raise PlacementError("the trace's sched_switch events span no time")
    out = [f"trace {span_s:.3f} s; tasks named {comm}:"]
    for c in range(MAX_CPUS):
        if c in cpus:
            r = run.get(c, 0.0)
            out.append(f"cpu {c} ran {1000 * r:.1f} ms ({100 * r / span_s:.1f}% of the trace), "
                       f"{tasks.get(c, 0)} tasks")
    # The flag is shared by the domain's CPUs: the last event of a span holds.
    for k in _mawk_order(used):
        if _awk_is_one(state[k]):
            ou[k] = ou.get(k, 0.0) + (last - since[k])
        out.append(f"sched domain {k} overutilized {100 * ou.get(k, 0.0) / span_s:.1f}% of the trace")
    return out


def main(argv=None):
    prog = os.path.basename(sys.argv[0]) or "placement.py"
    ap = _Parser(
        prog=prog,
        description="Where the tasks of one name ran, from a trace-cmd trace with sched_switch "
                    "(lab/run -t): per CPU the time they ran and how many of them ran there; "
                    "with sched_overutilized_sd events, the share of the trace each sched "
                    "domain spent overutilized.")
    ap.add_argument("operands", metavar="TRACE.DAT [COMM]", nargs="*",
                    help=f"the trace (trace-cmd reads it) and the tasks' name (default: "
                         f"{DEFAULT_COMM}, the benchmark's rt-app tasks)")
    ap.add_argument("--report", metavar="FILE",
                    help="read the text of `trace-cmd report` from FILE (- for stdin) instead "
                         "of a trace: then the only operand is COMM")
    args = ap.parse_args(argv)
    ops = args.operands
    if args.report is not None:
        if len(ops) > 1:
            ap.error(f"unexpected argument '{ops[1]}'")
        dat, comm = None, (ops + [""])[0] or DEFAULT_COMM
    elif not ops:
        ap.error("no trace given")
    elif len(ops) > 2:
        ap.error(f"unexpected argument '{ops[2]}'")
    else:
        dat, comm = ops[0], (ops + ["", ""])[1] or DEFAULT_COMM
    try:
        if dat is None:
            lines = cli.read_report(args.report)
        elif not os.path.isfile(dat):
            raise PlacementError(f"no trace at {dat}")
        elif shutil.which("trace-cmd") is None:
            raise PlacementError("trace-cmd is not installed on the host")
        else:
            try:
                lines = trace.report(dat)
            except trace.TraceError:
                raise PlacementError(f"trace-cmd cannot read {dat}") from None
        text = "".join(ln + "\n" for ln in analyse(lines, comm))
    except (PlacementError, trace.TraceError) as e:
        print(f"{prog}: error: {e}", file=sys.stderr)
        return 1
    sys.stdout.flush()
    sys.stdout.buffer.write(text.encode(trace.ENCODING, trace.ERRORS))
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BrokenPipeError:
        # A reader that stopped early (| head): no traceback.
        sys.exit(1)
