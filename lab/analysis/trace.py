# SPDX-License-Identifier: GPL-2.0-only
"""The one reader of the lab's traces on the host.

trace-cmd stays the tool that decodes a trace.dat (its layout follows the
guest kernel's event formats); everything after it is here, so that every
analysis sees the same events:

- `report_records` reads the text `trace-cmd report` prints, one Record
  per event line (time, CPU, event name, the rest); `report_stamped`
  adds each line's time as printed, in seconds;
- `extract` keeps what the behaviour tests need of it, in their events
  format, one event per line, times in microseconds:

      mark T TEXT...                        a "behaviour: TEXT" marker
      switch T CPU COMM                     COMM starts running on CPU
      ou T CPU LEVEL SPAN 0|1               sched_overutilized_sd
      eaw T COMM PREV_CPU DST_CPU LEVEL     sched_energy_wakeup

- `read_events` reads that format back, `format_event` writes it.

The events file is what lab/behaviour/run.sh keeps next to each trace: a
re-analysis (run.sh -A, or a unit test) reads it without trace-cmd.
"""

import os
import re
import shutil
import subprocess
from typing import NamedTuple

# A trace-cmd report line: "COMM-PID [CPU] SECONDS: EVENT: BODY".  Searched
# anywhere in the line: the task's name before it may hold anything.
_HEAD = re.compile(r"\[([0-9]+)\] +([0-9]+\.[0-9]+): ([a-z_]+):")

MARKER = "behaviour: "

# Text is read and written byte for byte: a task's name or a marker is
# whatever the guest wrote, not necessarily UTF-8.
ENCODING = "utf-8"
ERRORS = "surrogateescape"


class TraceError(Exception):
    """A trace or an events file that cannot be read: the message names
    the file and the cause."""


class Record(NamedTuple):
    """One event line of `trace-cmd report`."""

    t_us: int
    cpu: int
    event: str
    body: str
    lineno: int = 0

    def field(self, key):
        """The value of KEY=VALUE in the body, "" if it has none."""
        return field(self.body, key)


class Mark(NamedTuple):
    """A trace_marker line the guest wrote, "behaviour: TEXT"."""

    t: int
    text: str

    @property
    def words(self):
        return self.text.split()


class Switch(NamedTuple):
    """COMM starts running on CPU (switches to idle are left out)."""

    t: int
    cpu: int
    comm: str


class Ou(NamedTuple):
    """sched_overutilized_sd: the domain of LEVEL spanning SPAN (a CPU
    list, "0-3,6") flagged (1) or cleared (0), seen from CPU."""

    t: int
    cpu: int
    level: int
    span: str
    overutilized: int


class Eaw(NamedTuple):
    """sched_energy_wakeup: COMM woken on DST_CPU by the energy-aware
    path, from PREV_CPU, at domain LEVEL."""

    t: int
    comm: str
    prev_cpu: int
    dst_cpu: int
    level: int


KINDS = {"mark": Mark, "switch": Switch, "ou": Ou, "eaw": Eaw}


def field(text, key):
    """The value of the first word KEY=VALUE of TEXT, "" if none."""
    prefix = key + "="
    for word in text.split():
        if word.startswith(prefix):
            return word[len(prefix):]
    return ""


# A task in trace-cmd's compact sched_switch and sched_wak* form:
# "name:pid [prio]" (a name may hold colons: "sugov:0").
_COMPACT_TASK = re.compile(r"^(.*):([0-9]+) \[")


def task_of(rec):
    """(comm, pid) of the task a sched_migrate_task or sched_wak* Record
    names, in the raw form (comm= pid=) or trace-cmd's compact one;
    ("", "") if it names none."""
    if rec.field("pid"):
        return rec.field("comm"), rec.field("pid")
    m = _COMPACT_TASK.match(rec.body)
    return (m.group(1), m.group(2)) if m else ("", "")


def us(seconds):
    """trace-cmd's "SECONDS.FRACTION" in whole microseconds, rounded as
    printf's %.0f rounds (the events format has always been so)."""
    return int(f"{float(seconds) * 1000000:.0f}")


class Stamped(NamedTuple):
    """An event line of `trace-cmd report` with its time as the report
    prints it ("SECONDS.FRACTION"), which Record.t_us rounds."""

    seconds: str
    rec: Record


def _report_lines(lines):
    """(seconds, Record, task) for each event line of `trace-cmd report`
    text: TASK is the name of the task the event fired in, without its
    PID; other lines are skipped."""
    for lineno, line in enumerate(lines, 1):
        m = _HEAD.search(line)
        if not m:
            continue
        body = line[m.end():].rstrip("\n").lstrip(" ")
        task = re.sub(r"-[0-9]+$", "", line[:m.start()].strip(), count=1)
        yield m.group(2), Record(us(m.group(2)), int(m.group(1)), m.group(3), body, lineno), task


def report_stamped(lines):
    """The event lines of `trace-cmd report` text as Stampeds, for an
    analysis that computes in the report's seconds (as the shell's awk
    did) rather than in whole microseconds; other lines are skipped."""
    for seconds, rec, _ in _report_lines(lines):
        yield Stamped(seconds, rec)


def report_in_context(lines):
    """The event lines of `trace-cmd report` text as (Record, TASK):
    TASK is the name of the task the event fired in ("migration/3",
    "<idle>"), without its PID."""
    for _, rec, task in _report_lines(lines):
        yield rec, task


def report_records(lines):
    """The event lines of `trace-cmd report` text as Records; other
    lines (its header, CPU buffer notes) are skipped."""
    for stamped in report_stamped(lines):
        yield stamped.rec


def _int_field(rec, key):
    value = rec.field(key)
    try:
        return int(value)
    except ValueError:
        raise TraceError(f"report line {rec.lineno}: {rec.event} without a number {key}= "
                         f"(got '{value}'): not the kernel's event format") from None


def _next_task(body):
    """The task sched_switch switches to: the compact form
    "prev:pid [prio] S ==> next:pid [prio]", or the raw next_comm=."""
    n = body.find("==> ")
    if n < 0:
        return field(body, "next_comm")
    task = re.sub(r" \[-?[0-9]+\] *$", "", body[n + 4:], count=1)
    return re.sub(r":[0-9]+$", "", task, count=1)


def extract(lines, marker=MARKER):
    """The behaviour tests' events in `trace-cmd report` text (see the
    module's docstring), in the report's order."""
    for rec in report_records(lines):
        if rec.event == "sched_switch":
            task = _next_task(rec.body)
            if task not in (f"swapper/{rec.cpu}", "<idle>"):
                yield Switch(rec.t_us, rec.cpu, task)
        elif rec.event == "print":
            n = rec.body.find(marker)
            if n >= 0:
                yield Mark(rec.t_us, rec.body[n + len(marker):])
        elif rec.event == "sched_overutilized_sd":
            yield Ou(rec.t_us, _int_field(rec, "cpu"), _int_field(rec, "level"),
                     rec.field("span"), _int_field(rec, "overutilized"))
        elif rec.event == "sched_energy_wakeup":
            yield Eaw(rec.t_us, rec.field("comm"), _int_field(rec, "prev_cpu"),
                      _int_field(rec, "dst_cpu"), _int_field(rec, "level"))


def report(dat, trace_cmd="trace-cmd"):
    """The lines `trace-cmd report` prints for the trace DAT (a list: the
    command's status is known before anything is analysed)."""
    if not os.path.isfile(dat) or os.path.getsize(dat) == 0:
        raise TraceError(f"no trace at {dat} (the guest did not record it)")
    exe = shutil.which(trace_cmd)
    if exe is None:
        raise TraceError("trace-cmd is not installed on the host")
    res = subprocess.run([exe, "report", "-i", dat], stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, check=False)
    if res.returncode != 0:
        raise TraceError(f"trace-cmd report cannot read {dat}")
    # Lines end at "\n" only, as awk's do: a marker may hold a "\r".
    return res.stdout.decode(ENCODING, ERRORS).split("\n")


def format_event(ev):
    """One line of the events format (no newline)."""
    if isinstance(ev, Mark):
        return f"mark {ev.t} {ev.text}"
    if isinstance(ev, Switch):
        return f"switch {ev.t} {ev.cpu} {ev.comm}"
    if isinstance(ev, Ou):
        return f"ou {ev.t} {ev.cpu} {ev.level} {ev.span} {ev.overutilized}"
    if isinstance(ev, Eaw):
        return f"eaw {ev.t} {ev.comm} {ev.prev_cpu} {ev.dst_cpu} {ev.level}"
    raise TypeError(f"not an event: {ev!r}")


def parse_event(line):
    """An event from one line of the events format; ValueError says what
    is wrong with it."""
    words = line.split()
    kind = words[0]
    if kind not in KINDS:
        raise ValueError(f"unknown event '{kind}' (known: {' '.join(KINDS)})")
    if kind == "mark":
        if len(words) < 3:
            raise ValueError("a mark wants a time and a text")
        return Mark(int(words[1]), line.split(None, 2)[2].rstrip("\n"))
    if kind == "switch":
        if len(words) < 4:
            raise ValueError("a switch wants a time, a CPU and a task")
        # A task's name may hold spaces: the rest of the line.
        return Switch(int(words[1]), int(words[2]), line.split(None, 3)[3].rstrip("\n"))
    if len(words) != 6:
        raise ValueError(f"{kind} wants 5 fields, got {len(words) - 1}")
    if kind == "ou":
        return Ou(int(words[1]), int(words[2]), int(words[3]), words[4], int(words[5]))
    return Eaw(int(words[1]), words[2], int(words[3]), int(words[4]), int(words[5]))


def read_events(path):
    """The events of an events file, in its order ([] for an empty one)."""
    try:
        with open(path, encoding=ENCODING, errors=ERRORS, newline="\n") as f:
            lines = f.readlines()
    except OSError as e:
        raise TraceError(f"cannot read {path}: {e.strerror}") from None
    events = []
    for lineno, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            events.append(parse_event(line))
        except ValueError as e:
            raise TraceError(f"{path}:{lineno}: not an events line ({e}): "
                             f"{line.strip()[:80]}") from None
    return events
