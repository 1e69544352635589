#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""What one wake-up's CPU selection costs per placement policy: the report
of lab/scale (make scale).

Reads a results directory of lab/scale: one subdirectory per platform,
each a lab/run of lab/experiments/wakeup-cost.sh, whose files
wakeup-cost/W-pP-rR.txt hold one line per traced call, "FUNCTION NS K"
(NS its duration in guest ns, with the instruction clock guest
instructions; K the traced calls it made).  Each duration loses the
tracer's own cost, measured in the same run on the empty functions of lab
patch 0006: C, the mean duration of lab_trace_empty(), for the call, and
H, lab_trace_nested()'s (it only calls lab_trace_empty()) less C, for
each traced call it made: NS - C - K H.  The frozen workload's runs time
the selection alone, untraced (lab_trace/select_cost), beside an empty
interval timed the same way, "sched_clock NS 0": C is that interval's
mean, H is 0.

QEMU runs one vCPU at a time (round-robin TCG) and its instruction clock
counts every vCPU's instructions: when a vCPU's turn ends inside a traced
call, the call's duration also holds the other vCPUs' turns until it runs
again, whole ticks of them (4 ms at HZ 250: 4,000,000 instructions).  The
median and p99 shrug that off; the mean leaves out, per run, the calls
longer than SWITCH_FACTOR times the run's p99, and the report counts them.
The target (series at or below 6.12) is judged on frozen runs' means and
traced runs' interquartile means: a traced mean mixes paths in varying
shares, and the median moves in 16 ns steps.  Frozen runs time every
policy on the same tasks (the guest logs each task's order, "wakeup-cost:
frozen run R task PID policies P..."): there the two policies are paired
task by task, and a task one of them did not search for is left out for
both; runs without those lines are paired run by run.

Writes DIR/report.md and prints it: per platform, workload and policy the
calls, mean, median and p99 of select_task_rq_fair() (and of the
energy-aware search where it is a function of its own), the spread of the
per-run means, the series against 6.12 paired per run, and the growth of
the mean in CPUs fitted per policy (least squares, linear and log-log).

Usage: wakeup_cost.py DIR
"""

import math
import os
import re
import sys

if not __package__:  # run as a script (see labpath.py)
    import labpath

    labpath.use_lab_path()

from analysis import cli, stats  # noqa: E402
from analysis import plot as plot_lib  # noqa: E402

POLICIES = {0: "none", 1: "6.12", 2: "series"}
ENTRY = "select_task_rq_fair"
SEARCHES = ("find_energy_efficient_cpu", "find_energy_efficient_cpu_sd")
EMPTY = "lab_trace_empty"
NESTED = "lab_trace_nested"
CLOCK = "sched_clock"
SWITCH_FACTOR = 10
SHORTCUT_FACTOR = 3
SAMPLE_FILE = re.compile(r"^(?P<w>.+)-p(?P<p>\d+)-r(?P<r>\d+)\.txt$")


class CostError(Exception):
    """Results that cannot be read: the message names the file and why."""


# Kept under this name for the report and its tests.
percentile = stats.percentile


def read_samples(path):
    """{function: [(ns, nested calls), ...]} of one run's file."""
    out = {}
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            w = line.split()
            if not w:
                continue
            if len(w) != 3 or not w[1].isdigit() or not w[2].isdigit():
                raise CostError(f"{path}:{n}: not 'FUNCTION NS K': {line.strip()!r}")
            out.setdefault(w[0], []).append((int(w[1]), int(w[2])))
    return out


def read_platform(d):
    """One platform's runs: (cpus, perf domains, {(workload, policy, rep):
    {function: [calibrated ns]}}, calibration {(w, p, r): ns})."""
    log = os.path.join(d, "experiment.log")
    if not os.path.isfile(log):
        raise CostError(f"{log}: missing (did the boot run?)")
    cpus = pds = None
    boot = (None, None)
    lost = {}
    with open(log, encoding="utf-8") as f:
        for line in f:
            w = line.split()
            if w[:2] == ["wakeup-cost:", "cpus"]:
                kv = dict(zip(w[1::2], w[2::2]))
                try:
                    cpus, pds = int(kv["cpus"]), int(kv["perf-domains"])
                except (KeyError, ValueError):
                    raise CostError(f"{log}: not a platform line: {line.strip()!r}") from None
                boot = (kv.get("uptime-s"), kv.get("mem-used-kb"))
            elif w[:1] == ["wakeup-cost"]:
                kv = dict(zip(w[1::2], w[2::2]))
                try:
                    lost[(kv["workload"], int(kv["policy"]), int(kv["rep"]))] = int(kv["lost"])
                except (KeyError, ValueError):
                    raise CostError(f"{log}: not a run's line: {line.strip()!r}") from None
    if cpus is None:
        raise CostError(f"{log}: no 'wakeup-cost: cpus' line")
    bad = [k for k, v in lost.items() if v]
    if bad:
        w, p, r = bad[0]
        raise CostError(f"{log}: the ring buffer lost {lost[bad[0]]} events "
                        f"in {w} policy {p} rep {r}: the run's figures are incomplete")
    runs, calib = {}, {}
    sdir = os.path.join(d, "wakeup-cost")
    if not os.path.isdir(sdir):
        raise CostError(f"{sdir}: missing")
    for name in sorted(os.listdir(sdir)):
        m = SAMPLE_FILE.match(name)
        if not m:
            continue
        key = (m["w"].replace("-", ":", 1), int(m["p"]), int(m["r"]))
        s = read_samples(os.path.join(sdir, name))
        if s.get(CLOCK):
            # lab_trace/select_cost: the selection timed alone, untraced.
            c, h = stats.mean([ns for ns, _ in s[CLOCK]]), 0.0
        else:
            for fn in (EMPTY, NESTED):
                if not s.get(fn):
                    raise CostError(f"{sdir}/{name}: no {fn} calls, nothing to calibrate with")
            c = stats.mean([ns for ns, _ in s[EMPTY]])
            h = stats.mean([ns for ns, _ in s[NESTED]]) - c
        calib[key] = (c, h)
        runs[key] = {fn: [ns - c - k * h for ns, k in v]
                     for fn, v in s.items() if fn not in (EMPTY, NESTED, CLOCK)}
    if not runs:
        raise CostError(f"{sdir}: no run's samples")
    return cpus, pds, runs, calib, boot


def frozen_orders(d):
    """{rep: [policies' order, one tuple per task, in the order timed]} of
    a platform's frozen runs, from the guest's per-task lines; empty for
    runs logged without them."""
    out = {}
    with open(os.path.join(d, "experiment.log"), encoding="utf-8") as f:
        for line in f:
            w = line.split()
            if w[:3] != ["wakeup-cost:", "frozen", "run"]:
                continue
            if len(w) < 8 or w[4] != "task" or w[6] != "policies" or not w[3].isdigit():
                raise CostError(f"{d}/experiment.log: not a task's line: {line.strip()!r}")
            out.setdefault(int(w[3]), []).append(tuple(int(p) for p in w[7:]))
    return out


def task_means(xs, ntasks, floor):
    """Per task, XS being NTASKS equal blocks of calls, one per task in
    the order timed: the mean of its unswitched calls that searched (above
    FLOOR), or None where fewer than half of them did."""
    if ntasks < 1 or len(xs) % ntasks:
        raise CostError(f"{len(xs)} calls are not {ntasks} tasks' equal shares")
    k = len(xs) // ntasks
    out = []
    for i in range(ntasks):
        kept = unswitched(xs[i * k:(i + 1) * k])
        found = searched(kept, floor)
        out.append(stats.mean(found) if 2 * len(found) >= len(kept) else None)
    return out


def task_pairs(runs, orders, w):
    """Series - 6.12 per task on frozen workload W: (stats.Paired over the
    tasks both searched for, tasks left out, {"6.12 first" / "series
    first": Paired}), or None without task lines.  Each task's mean is of
    its calls that searched (above the policy's search_floor()); a task
    is left out for both where fewer than half of its calls searched
    under either."""
    means = {1: {}, 2: {}}
    by_order, left_out = {"6.12 first": set(), "series first": set()}, 0
    for r, tasks in sorted(orders.items()):
        m = {}
        for p in (1, 2):
            xs = runs.get((w, p, r), {}).get(ENTRY)
            if not xs:
                break
            try:
                m[p] = task_means(xs, len(tasks), search_floor(runs, ENTRY, w, p))
            except CostError as e:
                raise CostError(f"{w} policy {p} run {r}: {e} (the log's task lines)") from None
        if len(m) < 2:
            continue
        for i, order in enumerate(tasks):
            if m[1][i] is None or m[2][i] is None:
                left_out += 1
                continue
            for p in (1, 2):
                means[p][(r, i)] = m[p][i]
            first = "6.12 first" if order.index(1) < order.index(2) else "series first"
            by_order[first].add((r, i))
    if not means[2]:
        return None
    split = {k: stats.paired({t: means[2][t] for t in ts}, means[1])
             for k, ts in by_order.items() if ts}
    return stats.paired(means[2], means[1]), left_out, split


def host_seconds(d, plat):
    """The host's wall time of the platform's boot, whole (lab/run's "done
    in Ns" in DIR/PLATFORM.log), or None."""
    path = os.path.join(d, f"{plat}.log")
    if not os.path.isfile(path):
        return None
    with open(path, encoding="utf-8") as f:
        m = re.findall(r"done in (\d+)s", f.read())
    return int(m[-1]) if m else None


def fit_linear(xs, ys):
    """Least squares y = a + b x: (a, b); None with fewer than two x."""
    if len(set(xs)) < 2:
        return None
    mx, my = stats.mean(xs), stats.mean(ys)
    sxx = sum((x - mx) ** 2 for x in xs)
    b = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx
    return my - b * mx, b


def fit_power(xs, ys):
    """Least squares log y = log c + e log x: the exponent e (1: linear
    growth); None with fewer than two x or a cost <= 0."""
    if len(set(xs)) < 2 or min(ys) <= 0:
        return None
    return fit_linear([math.log(x) for x in xs], [math.log(y) for y in ys])[1]


def fmt(x, nd=0):
    return "-" if x is None else f"{x:.{nd}f}"


def pm(p):
    if p is None:
        return "-"
    return f"{p.mean:+.0f}" + (f" +-{p.two_se:.0f}" if p.two_se is not None else "")


def unswitched(xs):
    """The calls of one run that no vCPU switch lengthened (see the module's
    doc): those at most SWITCH_FACTOR times the run's p99."""
    bound = SWITCH_FACTOR * max(percentile(xs, 99), 1)
    return [x for x in xs if x <= bound]


def searched(xs, floor):
    """The calls that searched: above FLOOR (None: all of them)."""
    return xs if floor is None else [x for x in xs if x > floor]


def search_floor(runs, fn, w, p):
    """Frozen runs of an EAS policy: SHORTCUT_FACTOR times policy none's
    median, below which a call did not search (6.12's root domain was
    overutilized at that moment, say); None elsewhere."""
    if not w.startswith("frozen:") or p == 0:
        return None
    base = [x for (ww, pp, _), v in runs.items() if ww == w and pp == 0 for x in v.get(fn, [])]
    return SHORTCUT_FACTOR * percentile(base, 50) if base else None


def run_means(runs, fn, w, p):
    """{rep: mean of FN's unswitched calls that searched} for workload W,
    policy P."""
    floor = search_floor(runs, fn, w, p)
    out = {}
    for (ww, pp, r), v in runs.items():
        if ww == w and pp == p and v.get(fn):
            xs = searched(unswitched(v[fn]), floor)
            if xs:
                out[r] = stats.mean(xs)
    return out


def interquartile_mean(xs):
    """The mean of the middle half of XS: the cost of the path most calls
    take, like the median, but finer than the timer's 16 ns step, which
    quantizes the median and not this mean of many calls."""
    xs = sorted(xs)
    q = len(xs) // 4
    return stats.mean(xs[q:len(xs) - q])


def run_midmeans(runs, fn, w, p):
    """{rep: interquartile mean of FN's calls} for workload W, policy P.
    A traced workload's mean mixes paths (the searches a policy runs in a
    domain not overutilized while another is, a share that varies run to
    run), so its verdict is on the middle half of the calls."""
    return {r: interquartile_mean(v[fn]) for (ww, pp, r), v in runs.items()
            if ww == w and pp == p and v.get(fn)}


def verdict_statistic(w):
    """The per-run statistic workload W's target is judged on: frozen runs
    time the search alone, so its mean; traced runs, the mean of their
    middle half."""
    return "mean" if w.startswith("frozen:") else "interquartile mean"


def verdict_runs(runs, fn, w, p):
    """Policy P's per-run figures of FN on workload W, by
    verdict_statistic(W)."""
    if verdict_statistic(w) == "mean":
        return run_means(runs, fn, w, p)
    return run_midmeans(runs, fn, w, p)


def function_rows(plat, cpus, pds, runs, fn, task_paired=None):
    """Table rows of FN on one platform, and {(workload, policy): mean}.
    TASK_PAIRED, {workload: stats.Paired}: the series - 6.12 column of
    those workloads, paired task by task, in place of run by run."""
    rows, means = [], {}
    workloads = sorted({w for w, _, _ in runs})
    for w in workloads:
        per_rep = {}
        for p in POLICIES:
            reps = {r: v[fn] for (ww, pp, r), v in runs.items()
                    if ww == w and pp == p and v.get(fn)}
            if not reps:
                continue
            floor = search_floor(runs, fn, w, p)
            per_rep[p] = run_means(runs, fn, w, p)
            pooled = [x for v in reps.values() for x in v]
            kept = [x for v in reps.values() for x in unswitched(v)]
            found = searched(kept, floor)
            m = stats.mean(found) if found else None
            if m is not None:
                means[(w, p)] = m
            vs = None
            if p == 2 and w in (task_paired or {}):
                vs = task_paired[w]
            elif p == 2 and 1 in per_rep:
                try:
                    vs = stats.paired(per_rep[2], per_rep[1])
                except ValueError:
                    vs = None
            rsd = stats.rsd_pct(list(per_rep[p].values())) if per_rep[p] else None
            rows.append(f"| {plat} | {cpus} | {pds} | {w} | {POLICIES[p]} | {len(pooled)} | "
                        f"{len(pooled) - len(kept)} | "
                        f"{'-' if floor is None else len(kept) - len(found)} | {fmt(m)} | "
                        f"{fmt(percentile(pooled, 50))} | {fmt(percentile(pooled, 99))} | "
                        f"{fmt(rsd, 1)} | {pm(vs)} |")
    return rows, means


def growth_rows(points):
    """points: {(function, workload kind, policy): [(cpus, mean)]}."""
    rows = []
    for (fn, kind, p), pts in sorted(points.items()):
        xs = [float(c) for c, _ in pts]
        ys = [m for _, m in pts]
        lin, e = fit_linear(xs, ys), fit_power(xs, ys)
        rows.append(f"| {fn} | {kind} | {POLICIES[p]} | "
                    f"{', '.join(f'{c}: {m:.0f}' for c, m in sorted(pts))} | "
                    f"{'-' if lin is None else f'{lin[0]:.0f} + {lin[1]:.1f} N'} | "
                    f"{fmt(e, 2)} |")
    return rows


def plot(d, points, kind="frozen"):
    """cost-KIND.png: select_task_rq_fair()'s mean against CPUs per policy,
    log-log (a line of slope 1 is linear growth); nothing with fewer than
    two CPU counts.  Returns the plot's file name or None."""
    series = {p: dict(pts) for (fn, k, p), pts in points.items() if fn == ENTRY and k == kind}
    cpus = sorted({c for pts in series.values() for c in pts})
    if len(cpus) < 2:
        return None
    dat = os.path.join(d, f"cost-{kind}.dat")
    with open(dat, "w", encoding="utf-8") as f:
        for c in cpus:
            f.write(" ".join([str(c)] + [f"{series[p][c]:.0f}" if c in series.get(p, {}) else "-"
                                         for p in POLICIES]) + "\n")
    png = f"cost-{kind}.png"
    script = plot_lib.loglog_cost_header(
        os.path.join(d, png), f"select_task_rq_fair() per wake-up ({kind} workload), mean")
    script += f"""plot "{dat}" using 1:2 with linespoints title "none", \\
     "" using 1:3 with linespoints title "6.12 EAS", \\
     "" using 1:4 with linespoints title "this series"
"""
    plot_lib.run_gnuplot(script, CostError)
    return png


def targets(verdicts):
    out = []
    for plat, w, what, p, extra in verdicts:
        if p is None:
            continue
        bound = p.mean - (p.two_se or 0.0)
        ok = p.mean <= 0 or bound <= 0
        out.append(f"- {plat}, {w}: series - 6.12 = {pm(p)} instructions per call, "
                   f"{what} paired{extra} "
                   f"({'met' if ok else 'MISSED'}: at or below 6.12's within the error bar)")
    return out


def task_verdict(tp):
    """The target line's words for a task-by-task pairing (task_pairs())."""
    p, left_out, split = tp
    extra = f" over {p.n} tasks"
    if left_out:
        extra += f", {left_out} left out (one policy did not search)"
    if split:
        extra += "; by order: " + ", ".join(
            f"{k} {pm(v)} ({v.n})" for k, v in sorted(split.items()))
    return "each task's mean", extra


def report(d):
    config = {}
    cpath = os.path.join(d, "config")
    if os.path.isfile(cpath):
        with open(cpath, encoding="utf-8") as f:
            for line in f:
                k, _, v = line.rstrip("\n").partition("=")
                config[k] = v
    plats = config.get("platforms", "").split() or sorted(
        e for e in os.listdir(d) if os.path.isdir(os.path.join(d, e, "wakeup-cost")))
    if not plats:
        raise CostError(f"{d}: no platform's results")
    entry, search, calib_rows, verdicts, plat_rows = [], [], [], [], []
    points = {}
    for plat in plats:
        pdir = os.path.join(d, plat)
        if not os.path.isdir(pdir):
            raise CostError(f"{pdir}: missing (did the boot run?)")
        cpus, pds, runs, calib, boot = read_platform(pdir)
        up, used = boot
        wall = host_seconds(d, plat)
        plat_rows.append(f"| {plat} | {cpus} | {pds} | {up or '-'} | "
                         f"{'-' if used is None else f'{int(used) / 1024:.0f}'} | "
                         f"{'-' if wall is None else wall} |")
        for how, frozen in (("function_graph", False), ("select_cost", True)):
            vals = [v for (w, _, _), v in calib.items() if w.startswith("frozen:") == frozen]
            if not vals:
                continue
            c, h = [v[0] for v in vals], [v[1] for v in vals]
            calib_rows.append(f"| {plat} | {how} | {len(c)} | {fmt(stats.mean(c))} "
                              f"| {fmt(stats.sd(c), 1)} | {fmt(stats.mean(h))} "
                              f"| {fmt(stats.sd(h), 1)} |")
        orders = frozen_orders(pdir)
        tps = {}
        for w in {w for w, _, _ in runs if w.startswith("frozen:")} if orders else ():
            tp = task_pairs(runs, orders, w)
            if tp:
                tps[w] = tp
        rows, means = function_rows(plat, cpus, pds, runs, ENTRY,
                                    {w: tp[0] for w, tp in tps.items()})
        entry += rows
        for (w, p), m in means.items():
            points.setdefault((ENTRY, w.split(":")[0], p), []).append((cpus, m))
        for w in sorted({w for w, _, _ in runs}):
            if w in tps:
                what, extra = task_verdict(tps[w])
                verdicts.append((plat, w, what, tps[w][0], extra))
                continue
            what = f"each run's {verdict_statistic(w)}"
            per = {p: verdict_runs(runs, ENTRY, w, p) for p in (1, 2)}
            try:
                verdicts.append((plat, w, what, stats.paired(per[2], per[1]), ""))
            except ValueError:
                verdicts.append((plat, w, what, None, ""))
        for fn in SEARCHES:
            rows, means = function_rows(plat, cpus, pds, runs, fn)
            search += [r.replace(f"| {plat} |", f"| {plat} | {fn} |", 1) for r in rows]
            for (w, p), m in means.items():
                points.setdefault((fn, w.split(":")[0], p), []).append((cpus, m))

    head = ("| platform | CPUs | perf domains | workload | policy | calls | switched | no search "
            "| mean | p50 | p99 | RSD of run means % | series - 6.12 (paired, +-2 SE) |\n"
            "|---|---|---|---|---|---|---|---|---|---|---|---|---|\n")
    lines = [
        "# What one wake-up's CPU selection costs, per placement policy",
        "",
        f"Command: `{config.get('command', 'lab/scale')}`; {config.get('date', '')}; "
        f"lab {config.get('lab_commit', 'unknown')}.",
        "",
        "Guest instructions per call (QEMU's instruction clock: a guest ns is an "
        "instruction, read at the arch timer's 16 ns step), timed by function_graph, "
        "the tracer's own cost subtracted, measured in the same run on the empty "
        f"functions of lab patch 0006: C, {EMPTY}()'s mean, per call, and H, "
        f"{NESTED}()'s (a call to {EMPTY}()) less C, per traced call made inside it.  "
        "Workloads: frozen:N is the selection for tasks "
        "of periodic:N, stopped, timed alone with the other vCPUs idle "
        "(lab_trace/select_cost: no tracer, C is an empty interval's cost; the "
        "figures to compare across CPU counts), every policy on the same "
        "landscape, task by task (a run's landscape is made under one policy, "
        "another each run); periodic:N is N of the seed's "
        "periodic tasks (below the tipping point: the energy-aware paths run), "
        "hackbench:G is hackbench with G groups (overutilized: the usual path).  "
        "select_task_rq_fair() also places forks (hackbench's threads).  "
        "Policies alternate in one boot; a traced run is one policy and workload.  "
        "QEMU runs one vCPU at a time and its clock counts all their instructions: "
        "a call during which another vCPU had its turn lasts whole ticks more; "
        f"\"switched\" counts the calls over {SWITCH_FACTOR} x their run's p99, "
        "left out of the mean (p50 and p99 are of all calls).  In the frozen rows of "
        f"6.12 and the series, \"no search\" counts the calls under {SHORTCUT_FACTOR} x "
        "none's median, which did not search (6.12's root domain overutilized at that "
        "moment, say), also left out of the mean and the comparison: the mean is the "
        "search's cost.",
        "",
        "## Platforms",
        "",
        "| platform | CPUs | perf domains | guest s to the experiment | memory in use, MB "
        "| host s, whole boot |",
        "|---|---|---|---|---|---|",
        *plat_rows,
        "",
        "## select_task_rq_fair(), per call",
        "",
        head + "\n".join(entry),
        "",
    ]
    if search:
        lines += [
            "## The energy-aware search alone (where it is out of line)",
            "",
            head.replace("| platform |", "| platform | function |", 1)
                .replace("|---|", "|---|---|", 1) + "\n".join(search),
            "",
        ]
    png = plot(d, points)
    lines += [
        "## Growth in CPUs (means above; linear fit and log-log exponent)",
        "",
        *([f"![cost against CPUs]({png})", ""] if png else []),
        "| function | workload | policy | CPUs: mean | fit | exponent |",
        "|---|---|---|---|---|---|",
        *growth_rows(points),
        "",
        "## Calibration: the timing's own cost per call",
        "",
        "| platform | timed by | runs | C: in a call, mean | sd of run means "
        "| H: per nested traced call, mean | sd of run means |",
        "|---|---|---|---|---|---|---|",
        *calib_rows,
        "",
        "## Target: the series' wake-up cost at or below 6.12's",
        "",
        "Paired: on frozen runs, task by task where the guest logged its tasks (each "
        "timed under every policy), the mean of the calls of each task both searched for, "
        "split by which of the two was timed first (blocked utilization decays in "
        "between); on older frozen runs, run by run, the mean of the calls that searched "
        "(the search's cost); on traced runs, run by run, the interquartile mean (of the middle half of the "
        "calls: the path most calls take, since their mean mixes paths in shares that vary "
        "from run to run, and finer than the median, which the timer's 16 ns step quantizes).",
        "",
        *targets(verdicts),
        "",
    ]
    return "\n".join(lines)


def main(argv=None):
    return cli.report_main(
        argv, "wakeup_cost.py",
        "The report of lab/scale: what one wake-up's CPU selection costs per placement policy "
        "and platform, in guest instructions. Writes DIR/report.md and prints it.",
        "a results directory of lab/scale", lambda d: (report(d), {}, None),
        (CostError, OSError))


if __name__ == "__main__":
    sys.exit(main())
