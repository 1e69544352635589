#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""How long a wake-up takes to land, by where it lands
(lab/trace-wakeup-latency.sh).

From a traced run with sched_waking and sched_wakeup (lab/run -e
sched:sched_waking,sched:sched_wakeup): for each wake-up of a task named
COMM (any task without COMM), the time from its sched_waking, which fires
on the waker's CPU before the CPU is chosen, to its sched_wakeup, which
fires where the task is enqueued:

- "on the waker's CPU": sched_wakeup fired on the CPU that ran
  sched_waking, which enqueued the task itself (on its own runqueue or,
  under the remote runqueue's lock, on another);
- "queued to another CPU": sched_wakeup fired on another CPU, the one the
  wake-up was queued to (ttwu_queue_wakelist(): rq->ttwu_pending is set
  from the queueing until that CPU enqueues the task, after its IPI and
  its way out of idle).

The second is the window in which the target looks idle but has a task
in flight, which 6.12's idle_cpu() and the series' energy-aware search
both read.  Per kind: the count, median, 90th and 99th percentiles and
the largest, in microseconds of the trace's clock (guest time).

Usage: wakeup_latency.py DIR [COMM]
       wakeup_latency.py --report FILE [COMM]

--report reads the text `trace-cmd report` printed (FILE, or - for stdin)
instead of DIR/trace.dat.  Exit status: 0 with the table on stdout; 1 with
one message when the input cannot be read or holds no wake-up.
"""

import os
import sys

if not __package__:  # run as a script (see labpath.py)
    import labpath
    labpath.use_lab_path()

from analysis import cli, stats, trace  # noqa: E402  (after the path is set)

KINDS = ("on the waker's CPU", "queued to another CPU")


class WakeupLatencyError(Exception):
    """Input that cannot be analysed: the message says why."""


def latencies(lines, comm=""):
    """{kind: [microseconds]} of the wake-ups in `trace-cmd report` text;
    a sched_wakeup without a sched_waking before it is not counted."""
    waking = {}
    out = {k: [] for k in KINDS}
    for rec in trace.report_records(lines):
        if rec.event not in ("sched_waking", "sched_wakeup"):
            continue
        name, pid = trace.task_of(rec)
        if not pid or (comm and name != comm):
            continue
        if rec.event == "sched_waking":
            waking[pid] = rec
            continue
        start = waking.pop(pid, None)
        if start is not None:
            out[KINDS[rec.cpu != start.cpu]].append(rec.t_us - start.t_us)
    return out


def analyse(lines, comm=""):
    """The report's lines: one table row per kind of wake-up."""
    lat = latencies(lines, comm)
    if not any(lat.values()):
        who = f"of {comm} " if comm else ""
        raise WakeupLatencyError(f"no wake-up {who}with both sched_waking and sched_wakeup "
                                 "in the trace")
    out = [f"Wake-ups{' of ' + comm if comm else ''}, sched_waking to sched_wakeup (us):", "",
           "| lands | wake-ups | median | p90 | p99 | max |", "|---|---|---|---|---|---|"]
    for kind in KINDS:
        v = sorted(lat[kind])
        if v:
            q = [stats.percentile(v, pct) for pct in (50, 90, 99)]
            out.append(f"| {kind} | {len(v)} | {q[0]} | {q[1]} | {q[2]} | {v[-1]} |")
        else:
            out.append(f"| {kind} | 0 | - | - | - | - |")
    return out


def main(argv=None):
    prog = os.path.basename(sys.argv[0]) or "wakeup_latency.py"
    ap = cli.run_dir_parser(
        prog,
        "How long wake-ups take to land, on the waker's CPU or queued to another, from a "
        "traced run (lab/run -e sched:sched_waking,sched:sched_wakeup).",
        "the run's results directory (its trace.dat) and the tasks' name (default: every "
        "task)",
        "read the text of `trace-cmd report` from FILE (- for stdin): then the only operand "
        "is COMM")
    args = ap.parse_args(argv)
    run_dir, comm = cli.run_dir_operands(ap, args, "")

    def text():
        lines = cli.run_dir_report(args.report, run_dir, WakeupLatencyError,
                                   "run the experiment with lab/run -e "
                                   "sched:sched_waking,sched:sched_wakeup")
        return "".join(ln + "\n" for ln in analyse(lines, comm))

    return cli.print_or_fail(prog, text, (WakeupLatencyError, trace.TraceError))


if __name__ == "__main__":
    sys.exit(main())
