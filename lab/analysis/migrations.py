#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""How the tasks of one name moved between CPU classes, and why
(lab/trace-migrations.sh).

From a traced run (lab/run -t, or -e with sched_migrate_task,
sched_switch and sched_wakeup, better with sched_waking; with
sched_overutilized_sd for the flags): every move of a task named COMM from
one CPU to another, by the classes of the two CPUs (their capacity, from
the run's facts.txt) and by its cause:

- "active balance": the move ran in the migration/N stopper of the CPU it
  left, which is how the load balancer pushes a running task (a misfit
  task, above all); a stopper's CPU pulling a task after it (its
  newidle balance) is a balance;
- "wake-up": with sched_waking in the trace, the move came between the
  task's sched_waking and its sched_wakeup, so the wake-up's CPU
  selection moved it; without it, the task's sched_wakeup is the next
  event naming it after the move (which also takes a balance that pulled
  a sleeping task not yet dequeued, 6.12's DELAY_DEQUEUE, for a
  wake-up);
- "balance": any other move, a queued task pulled by a load balance;
- "wake-up or balance": the trace has no sched_wakeup and sched_switch to
  tell them apart.

With sched_overutilized_sd events (the series' per-domain tipping point,
recorded whatever the policy) and sched_overutilized_rd (the root
domain's flag, which gates 6.12's EAS), each row also counts the moves
made while each flag was set, and a second table gives each flag's share
of the whole trace and how often it changed.  A sched domain is
"L<level> <span>", the root domain "root <span>"; a flag counts as clear
until its first event.

Usage: migrations.py DIR [COMM]
       migrations.py --report FILE --capacity LIST [COMM]

COMM defaults to small, the name of the benchmark's rt-app tasks.
--report reads the text `trace-cmd report` printed (FILE, or - for stdin)
instead of DIR/trace.dat, and --capacity gives each CPU's capacity in CPU
order (comma separated) instead of DIR/facts.txt.  Exit status: 0 with the
tables on stdout; 1 with one message when the input cannot be read.
"""

import os
import re
import sys
from collections import Counter, defaultdict

if not __package__:  # run as a script (see labpath.py)
    import labpath
    labpath.use_lab_path()

from analysis import cli, trace  # noqa: E402  (after the path is set)

DEFAULT_COMM = "small"
STOPPER = "migration/"
# The pids in trace-cmd's compact sched_switch form, "name:pid [prio]"
# (a name may hold colons: "sugov:0"); trace.task_of() reads the others.
_SWITCH_PID = re.compile(r":([0-9]+) \[")
CLASS_NAMES = {2: ("little", "big"), 3: ("little", "mid", "big")}


class MigrationsError(Exception):
    """Input that cannot be analysed: the message says why."""


def class_names(capacities):
    """{capacity: name}: little and big for two classes, little, mid and
    big for three, else the capacity itself."""
    caps = sorted(set(capacities))
    names = CLASS_NAMES.get(len(caps), tuple(str(c) for c in caps))
    return dict(zip(caps, names))


def read_capacities(facts):
    """Each CPU's capacity from the lines of a run's facts.txt
    ("cpuN.capacity C"), in CPU order."""
    caps = {}
    for line in facts:
        m = re.match(r"cpu([0-9]+)\.capacity ([0-9]+)$", line.strip())
        if m:
            caps[int(m.group(1))] = int(m.group(2))
    if not caps or sorted(caps) != list(range(len(caps))):
        raise MigrationsError("no cpuN.capacity for every CPU in facts.txt")
    return [caps[c] for c in range(len(caps))]


def _switch_pids(rec):
    """The pids a sched_switch names, compact form or raw."""
    raw = [rec.field("prev_pid"), rec.field("next_pid")]
    return [p for p in raw if p] or _SWITCH_PID.findall(rec.body)


def _domain(rec):
    if rec.event == "sched_overutilized_rd":
        return f"root {rec.field('span')}"
    return f"L{rec.field('level')} {rec.field('span')}"


def _domain_order(domain):
    """Sched domains by level, then the root domain."""
    kind = domain.split()[0]
    return (int(kind[1:]) if kind.startswith("L") else 1 << 30, domain)


class _Moves:
    """The moves seen so far, and the flags at each."""

    def __init__(self, capacities, has_wakeups, has_waking):
        self.caps = capacities
        self.names = class_names(capacities)
        self.has_wakeups = has_wakeups
        self.has_waking = has_waking
        self.waking = set()                # pids between sched_waking and sched_wakeup
        self.rows = Counter()              # (from, to, cause) -> moves
        self.flagged = defaultdict(Counter)  # (from, to, cause) -> domain -> moves
        self.pending = {}                  # pid -> (row key, domains flagged)

    def cls(self, cpu):
        if cpu >= len(self.caps):
            raise MigrationsError(f"CPU {cpu} in the trace, capacities known for "
                                  f"{len(self.caps)} CPUs")
        return self.names[self.caps[cpu]]

    def add(self, key, domains):
        self.rows[key] += 1
        for d in domains:
            self.flagged[key][d] += 1

    def move(self, rec, task, flagged):
        pid = rec.field("pid")
        orig, dest = int(rec.field("orig_cpu")), int(rec.field("dest_cpu"))
        self.resolve(pid, woken=False)
        if orig == dest:
            return
        pair = (self.cls(orig), self.cls(dest))
        if task.startswith(STOPPER) and rec.cpu == orig:
            self.add(pair + ("active balance",), flagged)
        elif self.has_waking:
            self.add(pair + ("wake-up" if pid in self.waking else "balance",), flagged)
        elif not self.has_wakeups:
            self.add(pair + ("wake-up or balance",), flagged)
        else:
            self.pending[pid] = (pair, flagged)

    def resolve(self, pid, woken):
        """PID's pending move, if any, was a wake-up's if WOKEN."""
        if pid in self.pending:
            pair, flagged = self.pending.pop(pid)
            self.add(pair + ("wake-up" if woken else "balance",), flagged)


def analyse(lines, capacities, comm=DEFAULT_COMM):
    """The tables, as lines of text, for the report LINES."""
    events = list(trace.report_in_context(lines))
    if not events:
        raise MigrationsError("no event in the trace")
    kinds = {rec.event for rec, _ in events}
    if "sched_migrate_task" not in kinds:
        raise MigrationsError("no sched_migrate_task event in the trace")
    moves = _Moves(capacities, {"sched_wakeup", "sched_switch"} <= kinds, "sched_waking" in kinds)
    flags, since, share, changes = {}, {}, Counter(), Counter()
    pids = set()
    for rec, task in events:
        if rec.event in ("sched_overutilized_sd", "sched_overutilized_rd"):
            d, on = _domain(rec), rec.field("overutilized") == "1"
            if on != flags.get(d, False):
                changes[d] += 1
                if on:
                    since[d] = rec.t_us
                else:
                    share[d] += rec.t_us - since[d]
            flags[d] = on
        elif rec.event == "sched_migrate_task" and rec.field("comm") == comm:
            pids.add(rec.field("pid"))
            moves.move(rec, task, [d for d, on in flags.items() if on])
        elif rec.event == "sched_waking":
            name, pid = trace.task_of(rec)
            if name == comm:
                moves.waking.add(pid)
        elif rec.event == "sched_wakeup":
            name, pid = trace.task_of(rec)
            if name == comm:
                moves.waking.discard(pid)
                moves.resolve(pid, woken=True)
        elif rec.event == "sched_switch":
            for pid in _switch_pids(rec):
                moves.waking.discard(pid)
                moves.resolve(pid, woken=False)
    for pid in list(moves.pending):
        moves.resolve(pid, woken=False)
    t0, t1 = events[0][0].t_us, events[-1][0].t_us
    span_s = max(t1 - t0, 1) / 1e6
    for d, on in flags.items():
        if on:
            share[d] += t1 - since[d]
    domains = sorted(changes, key=_domain_order)
    out = [f"Moves of the tasks named {comm} ({len(pids)} tasks moved) over {span_s:.2f} s "
           f"of trace, by the classes of the two CPUs and the cause"
           + ("; \"D flagged\": of them, those made while domain D was "
              "overutilized." if domains else "."), ""]
    head = ["from", "to", "cause", "moves", "per s"] + [f"{d} flagged" for d in domains]
    out.append("| " + " | ".join(head) + " |")
    out.append("|" + "---|" * len(head))
    for key, n in sorted(moves.rows.items(), key=lambda kv: (-kv[1], kv[0])):
        cells = list(key) + [str(n), f"{n / span_s:.1f}"]
        cells += [str(moves.flagged[key][d]) for d in domains]
        out.append("| " + " | ".join(cells) + " |")
    if not moves.rows:
        out.append("| - | - | no move | 0 | 0.0 |" + " |" * len(domains))
    if domains:
        out += ["", "Each domain's flag (sched_overutilized_sd, sched_overutilized_rd): its "
                "share of the whole trace and its changes.", "",
                "| domain | flagged % | changes | per s |", "|---|---|---|---|"]
        for d in domains:
            out.append(f"| {d} | {100 * share[d] / (t1 - t0 or 1):.0f} | {changes[d]} | "
                       f"{changes[d] / span_s:.1f} |")
    return out


def main(argv=None):
    prog = os.path.basename(sys.argv[0]) or "migrations.py"
    ap = cli.run_dir_parser(
        prog,
        "How the tasks of one name moved between CPU classes and why (active balance, "
        "wake-up, balance), with the sched domains flagged at each move, from a traced run "
        "(lab/run -t).",
        "the run's results directory (its trace.dat and facts.txt) and the tasks' name "
        f"(default: {DEFAULT_COMM}, the benchmark's rt-app tasks)",
        "read the text of `trace-cmd report` from FILE (- for stdin): then --capacity is "
        "needed and the only operand is COMM")
    ap.add_argument("--capacity", metavar="LIST",
                    help="each CPU's capacity in CPU order, comma separated")
    args = ap.parse_args(argv)
    if args.report is not None and args.capacity is None:
        ap.error("--report needs --capacity")
    run_dir, comm = cli.run_dir_operands(ap, args, DEFAULT_COMM)

    def text():
        if args.capacity is not None:
            try:
                caps = [int(c) for c in args.capacity.split(",")]
            except ValueError:
                raise MigrationsError(f"--capacity '{args.capacity}': not a list of numbers") from None
        else:
            try:
                with open(os.path.join(run_dir, "facts.txt"), encoding="utf-8") as f:
                    caps = read_capacities(f)
            except OSError as e:
                raise MigrationsError(f"cannot read {run_dir}/facts.txt: {e.strerror}") from None
        lines = cli.run_dir_report(args.report, run_dir, MigrationsError,
                                   "run the experiment with lab/run -t")
        return "".join(ln + "\n" for ln in analyse(lines, caps, comm))

    return cli.print_or_fail(prog, text, (MigrationsError, trace.TraceError))

if __name__ == "__main__":
    sys.exit(main())
