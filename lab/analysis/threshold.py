#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""The report of lab/threshold: periodic tasks at a CPU class's fit
threshold, energy per placement policy.

Reads a results directory of lab/threshold: DIR/config, DIR/scenarios
(one line per scenario, "PLATFORM CLASS CAPACITY CPUS PCT TASKS RUN_US
PERIOD_US") and DIR/PLATFORM/experiment.log, whose "bench-energy" lines
(lab/experiments/bench.sh energy) give each run's metered energy, window
and per-CPU energy, their scenario told by "n", "run_us" and
"period_us".

Per scenario and policy: the mean energy over the runs and its RSD; each
energy-aware policy against none and the series against 6.12's EAS (and
each variant against the series), paired per repetition (adjacent runs
of one boot: the host's drift cancels), +- two standard errors; the
board model's optimum (`emcost -B -p PERIOD optimum PLATFILE UTILxN`,
the cheapest static placement under the same 80% fit margin) over the
mean window; the share of the CPUs' energy spent on CPUs bigger than the
class under test; the share of the tasks' periods that ended late (rt-app's
slack below zero: the period's work done after its deadline) over all
runs.  A policy's runs "split" when, sorted, their largest
gap exceeds SPLIT_PCT of the median and is wider than the rest of their
range together: two modes, not spread (the evidence, every run, is
printed).

Verdicts, each with the scenarios that miss it: the series uses no more
energy than none, and no more than 6.12's EAS (a paired difference over
at least MIN_PAIRS repetitions whose error bar lies wholly above 0
misses), and the series' runs do not split.  Writes DIR/report.md and DIR/report.json (the rows and the
verdicts) and prints the report.  Errors: one line naming the cause,
status 1.
"""

import json
import os
import sys

if not __package__:  # run as a script (see labpath.py)
    import labpath

    labpath.use_lab_path()

from analysis import bench, cli, platform, stats  # noqa: E402

NAMES = {"0": "none", "1": "6.12", "2": "series"}
SPLIT_PCT = 5.0


class ThresholdError(Exception):
    """A directory that cannot be reported on: the message names the cause."""


class Scenario:
    """One line of DIR/scenarios and the runs of its tasks."""

    def __init__(self, words):
        if len(words) != 8:
            raise ThresholdError(f"scenarios: '{' '.join(words)}' is not PLATFORM CLASS CAPACITY "
                                 "CPUS PCT TASKS RUN_US PERIOD_US")
        self.plat, self.cls = words[0], words[1]
        try:
            self.cap, self.cpus, self.pct, self.tasks, self.run_us, self.period_us = \
                (int(w) for w in words[2:])
        except ValueError:
            raise ThresholdError(f"scenarios: '{' '.join(words)}': not whole numbers") from None
        self.runs = {}    # policy -> {rep: J}
        self.above = {}   # policy -> [share of the CPUs' energy above the class, per run]
        self.late = {}    # policy -> [periods ended late, periods], over its runs
        self.windows = []

    @property
    def key(self):
        return (self.tasks, self.run_us, self.period_us)

    @property
    def util(self):
        """The task's utilization, 0..1024 (work at speed 1024 per period)."""
        return 1024.0 * self.run_us / self.period_us


def read_scenarios(d):
    try:
        text = bench.read_text(os.path.join(d, "scenarios"))
    except OSError as e:
        raise ThresholdError(f"{d}: no scenarios file ({e.strerror}): not a lab/threshold run") from None
    return [Scenario(ln.split()) for ln in text.split("\n") if ln.strip()]


def load_runs(d, plat, scens, caps):
    """Fill the scenarios of PLAT from its log; CAPS maps a CPU name
    ("cpuK") to its capacity."""
    by_key = {s.key: s for s in scens}
    lines = bench.log_lines(os.path.join(d, plat, "experiment.log"), "bench-energy ")
    for ln in lines:
        v = bench.run_fields(ln)
        try:
            key = (int(v["n"]), int(v.get("run_us", 800)), int(v.get("period_us", 16000)))
            total, window = int(v["total_uj"]), int(v["window_us"])
            pol, rep = v["policy"], int(v["rep"])
        except (KeyError, ValueError):
            raise ThresholdError(f"{plat}: garbled run line: {ln[:120]}") from None
        s = by_key.get(key)
        if s is None:
            continue
        s.runs.setdefault(pol, {})[rep] = total / 1e6
        loops, late = v.get("loops", ""), v.get("late", "")
        if loops.isdigit() and late.isdigit():
            acc = s.late.setdefault(pol, [0, 0])
            acc[0] += int(late)
            acc[1] += int(loops)
        s.windows.append(window)
        per_cpu = {}
        for item in v.get("cpus", "").split(","):
            name, _, uj = item.partition(":")
            if name in caps and uj.isdigit():
                per_cpu[name] = int(uj)
        whole = sum(per_cpu.values())
        if whole:
            up = sum(uj for name, uj in per_cpu.items() if caps[name] > s.cap)
            s.above.setdefault(pol, []).append(100.0 * up / whole)
    return len(lines)


def split(values):
    """(gap %, low runs, high runs) when the runs fall in two modes, else None."""
    xs = sorted(values)
    if len(xs) < 3:
        return None
    gaps = [(xs[i + 1] - xs[i], i) for i in range(len(xs) - 1)]
    gap, i = max(gaps)
    med = xs[len(xs) // 2] if len(xs) % 2 else (xs[len(xs) // 2 - 1] + xs[len(xs) // 2]) / 2
    rest = (xs[-1] - xs[0]) - gap
    if med > 0 and 100.0 * gap / med > SPLIT_PCT and gap > rest:
        return (100.0 * gap / med, xs[:i + 1], xs[i + 1:])
    return None


def pair(s, a, b):
    """A against B in scenario S, paired per repetition, or None."""
    ra, rb = s.runs.get(a, {}), s.runs.get(b, {})
    if not set(ra) & set(rb):
        return None
    return stats.paired(ra, rb, relative=True)


def cell(pr):
    if pr is None:
        return "-"
    return stats.paired_text(pr.mean, pr.two_se)


MIN_PAIRS = 3


def above_zero(pr):
    """A paired difference whose error bar lies wholly above 0, over at
    least MIN_PAIRS repetitions (two runs give an error bar, not one to
    judge by)."""
    return pr is not None and pr.n >= MIN_PAIRS and pr.two_se is not None and pr.mean - pr.two_se > 0


def optimum_j(emcost, s, platfile, window_s):
    line = bench.optimum(emcost, s.plat, platfile, s.tasks, True,
                         util="%.1f" % s.util, period_us=s.period_us)
    f = line.split()
    if len(f) < 2 or f[1] in ("-", ""):
        return None, ""
    return float(f[1]) / 1e6 * window_s, f[2] if len(f) > 2 else ""


def late_pct(s, p):
    """The share of P's periods, over its runs, that ended past their
    deadline; None where the logs do not count them."""
    late, loops = s.late.get(p, (0, 0))
    return 100.0 * late / loops if loops else None


def scenario_label(s):
    return "%s (%d) | %d%% (%.0f) | %d | %d" % (s.cls, s.cap, s.pct, s.util, s.tasks, s.period_us // 1000)


def platform_section(plat, scens, policies, emcost, verdicts, rows):
    platfile = platform.platform_file(plat)
    eas = [p for p in policies if p != "0"]
    variants = [p for p in policies if p not in ("0", "1", "2")]
    head = ["class (cap) | util % of cap (util) | tasks | period ms"]
    head += ["%s J (RSD)" % NAMES.get(p, p) for p in policies]
    head += ["%s vs none" % NAMES.get(p, p) for p in eas]
    head += ["series vs 6.12"] + ["%s vs series" % v for v in variants]
    names = "/".join(NAMES.get(p, p) for p in policies)
    head += ["optimum J", "series / opt", "above the class %% (%s)" % names, "late %% (%s)" % names]
    ncol = sum(h.count("|") + 1 for h in head)
    out = [f"## {plat}\n\n", "| " + " | ".join(head) + " |\n", "|" + "---|" * ncol + "\n"]
    splits = []
    for s in scens:
        window = stats.mean([w / 1e6 for w in s.windows]) if s.windows else 0.0
        opt, opps = optimum_j(emcost, s, platfile, window) if s.windows else (None, "")
        row = {"platform": plat, "class": s.cls, "capacity": s.cap, "pct": s.pct,
               "util": round(s.util, 1), "tasks": s.tasks, "period_us": s.period_us,
               "optimum_j": opt, "optimum_opps": opps, "policies": {}}
        label = scenario_label(s)
        flat = label.replace(" | ", ", ")
        cells = [label]
        pairs, splits_of = {}, {}
        lates = {p: late_pct(s, p) for p in policies}
        for p in policies:
            js = list(s.runs.get(p, {}).values())
            if not js:
                cells.append("-")
                continue
            m = stats.mean(js)
            cells.append("%.3f (%.1f%%)" % (m, stats.rsd_pct(js) or 0.0))
            sp = splits_of[p] = split(js)
            if sp:
                splits.append("- %s, %s: %s runs in two modes, gap %.1f%% of the median: %s | %s\n"
                              % (plat, flat, NAMES.get(p, p), sp[0],
                                 " ".join("%.3f" % x for x in sp[1]), " ".join("%.3f" % x for x in sp[2])))
            row["policies"][NAMES.get(p, p)] = {
                "runs_j": [s.runs[p][r] for r in sorted(s.runs[p])], "mean_j": m,
                "rsd_pct": stats.rsd_pct(js), "split": bool(sp),
                "above_class_pct": stats.mean(s.above[p]) if s.above.get(p) else None,
                "late_pct": lates[p]}
        comps = [(p, "0") for p in eas] + [("2", "1")] + [(v, "2") for v in variants]
        for a, b in comps:
            pr = pairs[(a, b)] = pair(s, a, b)
            cells.append(cell(pr))
            row[f"{NAMES.get(a, a)}_vs_{NAMES.get(b, b)}"] = (
                None if pr is None else {"mean_pct": pr.mean, "two_se": pr.two_se, "n": pr.n})
        ser = s.runs.get("2", {})
        cells.append("-" if opt is None else "%.3f" % opt)
        cells.append("-" if opt is None or not ser else "%.2f" % (stats.mean(list(ser.values())) / opt))
        cells.append("/".join("%.0f" % stats.mean(s.above[p]) if s.above.get(p) else "-" for p in policies))
        cells.append("/".join("-" if lates[p] is None else "%.1f" % lates[p] for p in policies))
        out.append("| " + " | ".join(cells) + " |\n")
        rows.append(row)
        for target, a, b in (("series <= none", "2", "0"), ("series <= 6.12", "2", "1")):
            verdicts.setdefault(target, []).append((plat, flat, pairs[(a, b)]))
        verdicts.setdefault("series runs do not split", []).append((plat, flat, splits_of.get("2")))
    out.append("\n")
    if splits:
        out.append("Runs in two modes (J, sorted, the two groups):\n\n" + "".join(splits) + "\n")
    return "".join(out)


def targets_section(verdicts):
    out, js = ["## Targets\n\n"], []
    for target, items in verdicts.items():
        if target == "series runs do not split":
            bad = [(p, lbl) for p, lbl, sp in items if sp]
            evidence = ["%s %s: gap %.1f%%" % (p, lbl, sp[0]) for p, lbl, sp in items if sp]
        else:
            bad = [(p, lbl) for p, lbl, pr in items if above_zero(pr)]
            evidence = ["%s %s: %s" % (p, lbl, cell(pr)) for p, lbl, pr in items if above_zero(pr)]
        met = not bad
        out.append("- %s in every scenario: **%s**%s\n"
                   % (target, "met" if met else "missed",
                      "" if met else " (%d of %d): %s" % (len(bad), len(items), "; ".join(evidence))))
        js.append({"target": target, "met": met, "scenarios": len(items), "missed": evidence})
    return "".join(out) + "\n", js


def report(d):
    try:
        cfg = bench.Config(os.path.join(d, "config"))
    except OSError as e:
        raise ThresholdError(f"{d}: no config ({e.strerror}): not a lab/threshold run") from None
    policies = cfg["policies"].split(",") if cfg["policies"] else ["0", "1", "2"]
    scens = read_scenarios(d)
    emcost = os.environ.get("EMCOST") or os.path.join(platform.tools_bin(), "emcost")
    if not os.access(emcost, os.X_OK):
        raise ThresholdError(f"{emcost} missing: run make tools")
    plats = cfg.words("platforms") or sorted({s.plat for s in scens})
    out = ["# At the fit threshold: energy per placement policy, %s\n\n" % cfg["date"],
           "Command: `%s`.  Utilization signals: %s.\n\n"
           % (cfg["command"], {"4.16": "4.16's (util_avg alone, no util_est)"}.get(
               cfg["signals"], "6.12's (util_est)")),
           "Each scenario: TASKS periodic rt-app tasks whose utilization is PCT%% of a CPU "
           "class's capacity (the fit threshold is 80%%), %s s per run, %s runs per policy, "
           "the policies interleaved in one boot per platform.  J: the lab's meter (board "
           "model) over each run; RSD: sd / mean; \"vs\": paired per repetition, +- two "
           "standard errors; optimum: emcost's cheapest static placement on the board model "
           "over the mean window; \"above the class\": the share of the CPUs' energy spent on "
           "CPUs bigger than the class; \"late\": the share of the tasks' periods whose work "
           "ended past the period (rt-app's slack below zero), over all runs.  Lower is better.  "
           "A target is judged on %d or more repetitions.\n\n" % (cfg["duration"], cfg["reps"], MIN_PAIRS)]
    verdicts, rows = {}, []
    for plat in plats:
        scs = [s for s in scens if s.plat == plat]
        try:
            model = platform.model(plat)
        except platform.PlatformError as e:
            raise ThresholdError(str(e)) from None
        caps = {"cpu%d" % c.id: c.capacity for c in model.cpus}
        if not load_runs(d, plat, scs, caps):
            out.append(f"## {plat}\n\nNo run: the boot failed (see {plat}.log).\n\n")
            continue
        version = ""
        console = os.path.join(d, plat, "console.log")
        if os.path.exists(console):
            version = bench.kernel_version(console)
        if version:
            out.append(f"Kernel ({plat}): {version}.\n\n")
        out.append(platform_section(plat, scs, policies, emcost, verdicts, rows))
    text, js = targets_section(verdicts)
    out.append(text)
    return "".join(out), {"config": {"command": cfg["command"], "date": cfg["date"]},
                          "scenarios": rows, "targets": js}


def main(argv=None):
    def make(d):
        text, js = report(d)
        return text, {"report.json": json.dumps(js, indent=1) + "\n"}, None
    return cli.report_main(
        argv, "threshold.py",
        "The report of lab/threshold: energy per placement policy of periodic tasks at a CPU "
        "class's fit threshold. Writes DIR/report.md and DIR/report.json and prints the report.",
        "a results directory of lab/threshold", make,
        (ThresholdError, bench.ReportError, OSError))


if __name__ == "__main__":
    sys.exit(main())
