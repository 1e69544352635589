#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""What one energy-aware wake-up's search costs on synthetic landscapes of 8
to 1024 CPUs: the report of lab/search-bench.

Reads the console (DIR/boot/console.log, or DIR/console.log of a plain
lab/run) of a boot that ran the KUnit suite sched_energy_bench
(lab patch 0007).  For each landscape (N CPUs in P perf domains of S
performance states) and policy (6.12's find_energy_efficient_cpu() or the
series' search) the suite prints one line,

    cost N=.. P=.. S=.. policy=.. wakeups=W min=.. median=.. empty=.. cpu=..

min and median over seven batches of W wake-ups, empty the min of the
empty batches interleaved with them, all in guest instructions (QEMU's
instruction clock).  The cost of one wake-up is (min - empty) / W; with
interrupts off the batches repeat to the clock's 16-instruction step, and
the report shows the spread (median - min) that says so.

Writes DIR/report.md and prints it: the suite's verdict, the cost per
policy against N for three shapes (one perf domain; DynamIQ clusters of 8;
one perf domain per CPU, the shape of Intel's hybrid EAS), the whole grid,
the sweep of S, linear and log-log fits per shape, a joint least-squares
fit cost = a + b N + c P + d P S + e P N per policy, and a plot (search-cost.png).

Usage: search_bench.py DIR
"""

import os
import re
import sys

if not __package__:  # run as a script (see labpath.py)
    import labpath

    labpath.use_lab_path()

from analysis import cli, plot  # noqa: E402
from analysis.wakeup_cost import fit_linear, fit_power, fmt  # noqa: E402

SUITE = "sched_energy_bench"
POLICIES = ("6.12", "series")
COST = re.compile(r"# (?P<case>search_cost_\w+): cost N=(?P<n>\d+) P=(?P<p>\d+) S=(?P<s>\d+) "
                  r"policy=(?P<policy>\S+) wakeups=(?P<w>\d+) min=(?P<min>\d+) "
                  r"median=(?P<median>\d+) empty=(?P<empty>\d+) cpu=(?P<cpu>-?\d+)")
AGREE = re.compile(r"# choices_agree: agree: (?P<runs>\d+) landscapes, 6\.12's choice adds "
                   r"more energy than the least in (?P<worse>\d+)")
TOTALS = re.compile(r"# " + SUITE + r": pass:(?P<pass>\d+) fail:(?P<fail>\d+) skip:(?P<skip>\d+)")
RESULT = re.compile(r"(?:^|\] )(?P<ok>ok|not ok) \d+ " + SUITE + r"\b")
SHAPES = (("one perf domain", lambda n: 1),
          ("clusters of 8", lambda n: max(1, n // 8)),
          ("one perf domain per CPU", lambda n: n))


class BenchError(Exception):
    """A console that cannot be read as the suite's: the message says why."""


def console_path(d):
    """The console of the boot: DIR/boot/console.log (lab/search-bench) or
    DIR/console.log (a lab/run)."""
    for path in (os.path.join(d, "boot", "console.log"), os.path.join(d, "console.log")):
        if os.path.isfile(path):
            return path
    raise BenchError(f"{d}: no console.log (is it a results directory of lab/search-bench "
                     "or lab/run?)")


def read_console(path):
    """(points, agree, totals, result): points maps (case, N, P, S, policy)
    to the line's numbers; agree is (landscapes, 6.12 worse) or None;
    totals (pass, fail, skip) or None; result "ok", "not ok" or None."""
    points, agree, totals, result = {}, None, None, None
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = COST.search(line)
            if m:
                key = (m["case"], int(m["n"]), int(m["p"]), int(m["s"]), m["policy"])
                points[key] = {k: int(m[k]) for k in ("w", "min", "median", "empty", "cpu")}
                continue
            m = AGREE.search(line)
            if m:
                agree = (int(m["runs"]), int(m["worse"]))
                continue
            m = TOTALS.search(line)
            if m:
                totals = tuple(int(m[k]) for k in ("pass", "fail", "skip"))
                continue
            m = RESULT.search(line.rstrip("\n"))
            if m:
                result = m["ok"]
    return points, agree, totals, result


def per_wakeup(pt):
    """Instructions per wake-up: (min - empty) / W, and the same of the median."""
    return (pt["min"] - pt["empty"]) / pt["w"], (pt["median"] - pt["empty"]) / pt["w"]


def solve(a, b):
    """x of a x = b by Gaussian elimination with partial pivoting; None if
    a is singular."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        piv = max(range(c, n), key=lambda r: abs(m[r][c]))
        if abs(m[piv][c]) < 1e-9:
            return None
        m[c], m[piv] = m[piv], m[c]
        for r in range(n):
            if r != c:
                f = m[r][c] / m[c][c]
                m[r] = [x - f * y for x, y in zip(m[r], m[c])]
    return [m[i][n] / m[i][i] for i in range(n)]


# The joint fit's terms: what each CPU, perf domain, domain state and
# domain-CPU pair (cpumask_and() and the first-bit search over all N bits,
# once per perf domain) costs.
JOINT_TERMS = (("a", lambda n, p, s: 1.0), ("b N", lambda n, p, s: n),
               ("c P", lambda n, p, s: p), ("d P S", lambda n, p, s: p * s),
               ("e P N", lambda n, p, s: p * n))


def fit_joint(rows):
    """Least squares of cost on JOINT_TERMS over rows (N, P, S, cost) by the
    normal equations: (coefficients, R^2), or None with too few distinct
    rows."""
    k = len(JOINT_TERMS)
    xs = [tuple(float(t(n, p, s)) for _, t in JOINT_TERMS) for n, p, s, _ in rows]
    ys = [y for *_, y in rows]
    if len(set(xs)) < k:
        return None
    ata = [[sum(x[i] * x[j] for x in xs) for j in range(k)] for i in range(k)]
    aty = [sum(x[i] * y for x, y in zip(xs, ys)) for i in range(k)]
    coef = solve(ata, aty)
    if coef is None:
        return None
    my = sum(ys) / len(ys)
    ss_tot = sum((y - my) ** 2 for y in ys)
    ss_res = sum((y - sum(c * v for c, v in zip(coef, x))) ** 2 for x, y in zip(xs, ys))
    return coef, (1 - ss_res / ss_tot) if ss_tot else 1.0


def pct(a, b):
    return f"{100.0 * (a - b) / b:+.1f}" if b else "-"


def shape_rows(costs):
    """Per shape: its name and [(N, P, {policy: cost})] in increasing N.
    The N sweep holds the state count fixed (the suite's BENCH_STATES):
    read it from the sweep's own lines."""
    out = []
    sweep = [(n, s) for (case, n, _, s) in costs if case == "search_cost_cpus"]
    ns = sorted({n for n, _ in sweep})
    states = min(s for _, s in sweep) if sweep else 0
    for name, pof in SHAPES:
        rows = []
        for n in ns:
            c = costs.get(("search_cost_cpus", n, pof(n), states))
            if c:
                rows.append((n, pof(n), c))
        out.append((name, rows))
    return out


def draw(d, shapes):
    """search-cost.png: cost per wake-up against N, log-log, per shape and
    policy.  Returns the file name, or None with fewer than two N."""
    if max(len(rows) for _, rows in shapes) < 2:
        return None
    dat = os.path.join(d, "search-cost.dat")
    with open(dat, "w", encoding="utf-8") as f:
        for k, (name, rows) in enumerate(shapes):
            if k:
                f.write("\n\n")
            f.write(f"# {name}\n")
            for n, _, c in rows:
                f.write(f"{n} {c.get('6.12', ['-'])[0]} {c.get('series', ['-'])[0]}\n")
    png = "search-cost.png"
    lines = []
    for k, (name, _) in enumerate(shapes):
        lines.append(f'"{dat}" index {k} using 1:2 with linespoints dt 2 lc {k + 1} '
                     f'title "6.12, {name}"')
        lines.append(f'"{dat}" index {k} using 1:3 with linespoints lc {k + 1} '
                     f'title "series, {name}"')
    script = plot.loglog_cost_header(
        os.path.join(d, png),
        "Energy-aware search per wake-up, synthetic landscapes (KUnit, no per-CPU reads)",
        size="860,600")
    script += f"plot {', '.join(lines)}\n"
    plot.run_gnuplot(script, BenchError)
    return png


def report(d):
    console = console_path(d)
    points, agree, totals, result = read_console(console)
    if result is None:
        raise BenchError(f"{console}: no result of the KUnit suite {SUITE} "
                         "(a kernel without lab patch 0007, or a boot that stopped early?)")
    if not points:
        raise BenchError(f"{console}: {SUITE} printed no cost line "
                         "(it skips without energy_bench_kunit.max_cpus=N and maxcpus=1 on the "
                         "kernel command line)")
    # costs[(case, N, P, S)][policy] = (per wake-up from min, from median)
    costs = {}
    spread = 0.0
    for (case, n, p, s, policy), pt in points.items():
        lo, med = per_wakeup(pt)
        costs.setdefault((case, n, p, s), {})[policy] = (lo, med)
        spread = max(spread, med - lo)

    out = ["# The energy-aware search per wake-up, synthetic landscapes", ""]
    out.append(f"From the console of the KUnit suite {SUITE} (lab patch 0007), "
               f"by lab/analysis/search_bench.py.")
    cfg = os.path.join(d, "config")
    if os.path.isfile(cfg):
        with open(cfg, encoding="utf-8") as f:
            conf = dict(line.rstrip("\n").split("=", 1) for line in f if "=" in line)
        out.append(f"Command: `{conf.get('command', '?')}`; {conf.get('date', '?')}; "
                   f"lab {conf.get('lab_commit', '?')}.")
    out += ["", "Each landscape: N CPUs in P perf domains of N/P CPUs, the domains in gs101's "
            "three capacity classes (160, 498, 1024) in order, S performance states each "
            "(10 unless said), every CPU busy for a random share up to 80% of its capacity, "
            "one in eight boosted to request 60% of it (its runqueue's uclamp_min), "
            "a waking task of utilization 40.  Both searches read the same per-CPU fields "
            "instead of the runqueues, so these are their own instructions: the utilization "
            "reads a booted wake-up adds per CPU and pass are in docs/scale.md.  Cost: "
            "(min of 7 batches - min of the empty batches) / wake-ups per batch, in guest "
            f"instructions; the batches' median is at most {spread:.1f} instructions per "
            "wake-up above their min.", ""]

    verdict = "passed" if result == "ok" else "FAILED"
    t = f" (pass {totals[0]}, fail {totals[1]}, skip {totals[2]})" if totals else ""
    out.append(f"KUnit suite {SUITE}: {verdict}{t}.")
    if agree:
        out.append(f"Checked before timing: on {agree[0]} landscapes of 8 to 256 CPUs the "
                   "series' choice (without its margin) adds the least energy of every CPU "
                   "the task fits, and the port of 6.12's search chooses what 6.12's rule "
                   "(the most spare capacity per perf domain, then the least energy) chooses; "
                   f"6.12's choice adds more than the least in {agree[1]} of them.")
    out.append("")

    shapes = shape_rows(costs)
    out += ["## Cost against CPUs, three shapes", "",
            "| shape | CPUs | perf domains | 6.12 | series | series - 6.12 % |",
            "|---|---|---|---|---|---|"]
    for name, rows in shapes:
        for n, p, c in rows:
            a, b = c.get("6.12"), c.get("series")
            out.append(f"| {name} | {n} | {p} | {fmt(a and a[0])} | {fmt(b and b[0])} | "
                       f"{pct(b[0], a[0]) if a and b else '-'} |")
    out.append("")

    out += ["## Growth in CPUs, per shape (least squares on the rows above)", "",
            "| shape | policy | fit | exponent (log-log) |", "|---|---|---|---|"]
    for name, rows in shapes:
        for pol in POLICIES:
            xs = [n for n, _, c in rows if pol in c]
            ys = [c[pol][0] for n, _, c in rows if pol in c]
            lin = fit_linear(xs, ys)
            e = fit_power(xs, ys)
            out.append(f"| {name} | {pol} | "
                       f"{'-' if lin is None else f'{lin[0]:.0f} + {lin[1]:.1f} N'} | "
                       f"{fmt(e, 2)} |")
    out.append("")

    out += ["## Joint fit over every landscape: cost = a + b N + c P + d P S + e P N", "",
            "b is what each CPU costs, c each perf domain, d each state of each domain "
            "(the scan of its performance states), e each CPU of each domain: both searches "
            "intersect each perf domain's span with the online CPUs and look for its first "
            "CPU over all N bits, as cpumask_and() and for_each_cpu() do over nr_cpu_ids.",
            "", "| policy | a | b (per CPU) | c (per perf domain) | d (per domain and state) "
            "| e (per domain and CPU) | R^2 |", "|---|---|---|---|---|---|---|"]
    for pol in POLICIES:
        rows = [(n, p, s, c[pol][0]) for (case, n, p, s), c in costs.items() if pol in c]
        j = fit_joint(rows)
        if j is None:
            out.append(f"| {pol} | - | - | - | - | - | - |")
            continue
        (a, b, c, dd, e), r2 = j
        out.append(f"| {pol} | {a:.0f} | {b:.1f} | {c:.1f} | {dd:.2f} | {e:.3f} | {r2:.4f} |")
    out.append("")

    out += ["## Every landscape", "",
            "| CPUs | perf domains | states | 6.12 | series | series - 6.12 % |",
            "|---|---|---|---|---|---|"]
    below = total = 0
    for key in sorted(costs, key=lambda k: (k[0] != "search_cost_cpus", k[1], k[2], k[3])):
        _, n, p, s = key
        c = costs[key]
        a, b = c.get("6.12"), c.get("series")
        if a and b:
            total += 1
            below += b[0] <= a[0]
        out.append(f"| {n} | {p} | {s} | {fmt(a and a[0])} | {fmt(b and b[0])} | "
                   f"{pct(b[0], a[0]) if a and b else '-'} |")
    out.append("")
    out.append(f"Target (the series' search at or below 6.12's): met on {below} of {total} "
               "landscapes.")
    out.append("")

    png = draw(d, shapes)
    if png:
        out += [f"![cost per wake-up against CPUs]({png})", ""]
    return "\n".join(out), result == "ok"


def main(argv=None):
    def make(d):
        text, passed = report(d)
        return text, {}, None if passed else f"the KUnit suite {SUITE} failed"
    return cli.report_main(
        argv, "search_bench.py",
        "The report of lab/search-bench: what one energy-aware wake-up's search costs on "
        "synthetic landscapes of 8 to 1024 CPUs, per policy, from the console of the KUnit "
        "suite sched_energy_bench. Writes DIR/report.md and prints it; exit status 1 if the "
        "suite failed.",
        "a lab/run results directory (its console.log)", make, (BenchError, OSError))


if __name__ == "__main__":
    sys.exit(main())
