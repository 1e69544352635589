#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""The 2018 RFC's energy table in the lab: the report of a lab/rfc run.

Reads what lab/rfc left in DIR (config, one PLATFORM-suMODE/experiment.log
per boot with lab/experiments/bench.sh's "bench-energy" lines) and writes
DIR/report.md and DIR/report.json:

- Juno r0, per N and schedutil mode: the RFC's Joules (none, EAS) beside
  the lab's baseline (b: 4.16-like, no EAS), none, 6.12's EAS and the
  series, in J per 30 s (mean and RSD over the reps, % against the lab's
  baseline under the same schedutil), and the board model's optimum;
- HiKey960 (and any other platform) in % against the baseline only: the
  RFC's HiKey960 meter counts memory, GPU and more, which the lab has not;
- the two targets, met or missed, with their numbers: (a) series vs
  baseline, both under 4.16's schedutil, within 5 points of the RFC's
  savings at every N; (b) baseline's and series' energy within 15% of the
  RFC's Joules at every N;
- where the energy went: per N and policy the big CPUs' and big cluster's
  share of it, each cluster's powered (on) and busy time.

Standard library only (Debian's python3).
"""

import argparse
import json
import os
import subprocess
import sys

LAB_TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# analysis.platform reads platforms (lab/ is on the path: this directory).
if os.path.join(LAB_TOP, "lab") not in (os.path.abspath(p or ".") for p in sys.path):
    sys.path.insert(0, os.path.join(LAB_TOP, "lab"))
from analysis import platform as lab_platform  # noqa: E402  (after the path is set)
from analysis import stats  # noqa: E402

# The RFC's cover letter (2018-03-20), section 2.1: 10 iterations of 30 s,
# Joules, "Without patches" (Linux 4.16-rc4, no EAS) and "With patches".
RFC = {
    "juno-r0": {
        "none": {10: 11.52, 20: 19.25, 30: 28.73, 40: 37.58, 50: 47.24},
        "eas": {10: 7.67, 20: 13.39, 30: 21.85, 40: 31.40, 50: 45.37},
        "pct": {10: -33.42, 20: -30.44, 30: -31.49, 40: -16.44, 50: -3.96},
        "meter": "the board's energy meter: big and little CPUs",
    },
    "hikey960": {
        "none": {10: 41.50, 20: 55.51, 30: 75.39, 40: 95.82, 50: 121.53},
        "eas": {10: 37.43, 20: 50.74, 30: 70.36, 40: 89.90, 50: 112.61},
        "pct": {10: -9.81, 20: -8.59, 30: -6.67, 40: -6.18, 50: -7.34},
        "meter": "an ACME cape: CPUs, LPDDR memory, GPU and most of the board",
    },
}
# Platforms whose RFC Joules are comparable with the lab's meter (CPUs and
# clusters): the others are reported in % only.
ABSOLUTE = ("juno-r0",)
TARGET_A_POINTS = 5.0
TARGET_B_PCT = 15.0
TARGET_MODE = "4.16"
PER_S = 30.0
TASK_UTIL = "51.2"
PERIOD_US = 16000
POLICIES = ("b", "0", "1", "2")
NAMES = {"b": "baseline", "0": "none", "1": "6.12 EAS", "2": "series"}


def rfc_inconsistent(plat):
    """The N of the RFC's rows whose printed % is not its Joules' (by more
    than 0.1 point): Juno r0's N=30, 21.85 J against 28.73 J being -23.9%
    while the table prints -31.49%."""
    r = RFC[plat]
    return [n for n in sorted(r["pct"])
            if abs(100.0 * (r["eas"][n] / r["none"][n] - 1) - r["pct"][n]) > 0.1]


class ReportError(Exception):
    """Input the report cannot be made from."""


def read_config(path):
    """KEY=VALUE lines (the first = splits) into a dict."""
    cfg = {}
    try:
        with open(path, encoding="utf-8") as f:
            for line in f:
                line = line.rstrip("\n")
                if "=" in line:
                    key, value = line.split("=", 1)
                    cfg[key] = value
    except OSError as e:
        raise ReportError(f"{path}: {e.strerror}: not a directory lab/rfc wrote") from e
    for key in ("platforms", "n", "duration", "boots"):
        if key not in cfg:
            raise ReportError(f"{path} has no {key}=: not a directory lab/rfc wrote")
    return cfg


def pairs(field):
    """'cpu0:12,cpu1:34' -> {'cpu0': 12.0, 'cpu1': 34.0}; '-' -> {}."""
    out = {}
    if field in ("", "-"):
        return out
    for item in field.split(","):
        name, _, value = item.partition(":")
        out[name] = float(value)
    return out


def opp_times(field):
    """'policy0:450000=10/575000=20,policy1:...' -> {'policy0': {450000: 10.0, ...}, ...};
    '-' -> {}."""
    out = {}
    if field in ("", "-"):
        return out
    for item in field.split(","):
        name, _, rest = item.partition(":")
        out[name] = {}
        for kv in rest.split("/"):
            khz, _, ms = kv.partition("=")
            out[name][int(khz)] = float(ms)
    return out


def parse_line(line, mode=None):
    """One bench-energy line into a dict, or None if it is not one.

    Old lines end at "cpus C"; later ones add su, clusters_uj,
    cluster_on_ms, cluster_busy_ms, then opp_ms.  MODE is the boot's
    schedutil mode, for lines without su.
    """
    f = line.split()
    if not f or f[0] != "bench-energy" or len(f) < 15:
        return None
    kv = {f[i]: f[i + 1] for i in range(1, len(f) - 1, 2)}
    try:
        run = {
            "n": int(kv["n"]),
            "policy": kv["policy"],
            "rep": int(kv["rep"]),
            "window_us": int(kv["window_us"]),
            "total_uj": float(kv["total_uj"]),
            "domains_uj": float(kv["domains_uj"]),
            "cpus_uj": pairs(kv["cpus"]),
            "su": kv.get("su", mode),
            "clusters_uj": pairs(kv.get("clusters_uj", "-")),
            "cluster_on_ms": pairs(kv.get("cluster_on_ms", "-")),
            "cluster_busy_ms": pairs(kv.get("cluster_busy_ms", "-")),
            "opp_ms": opp_times(kv.get("opp_ms", "-")),
        }
    except (KeyError, ValueError):
        return None
    return run


def read_runs(path, mode):
    """Every bench-energy line of an experiment log ([] if none)."""
    runs = []
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                run = parse_line(line, mode)
                if run is not None:
                    runs.append(run)
    except OSError:
        pass
    return runs


def kernel_version(path):
    """'Linux version X #N ...' of a console log, shortened, or None."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                i = line.find("Linux version ")
                if i >= 0:
                    words = line[i:].split()
                    version = " ".join(words[:3])
                    hashes = [w for w in words if w.startswith("#")]
                    tail = line[i:].split(hashes[0], 1)[1].strip() if hashes else ""
                    return f"{version} {hashes[0]} {tail}" if hashes else version
    except OSError:
        pass
    return None


def read_platform(path, platgen=None):
    """The domains of a platform file: name, cpus, OPPs, capacity at each
    OPP, board model.  From platgen's derived model (analysis.platform,
    the one reader of platform files): capacities are the kernel's,
    whole numbers on the 0..1024 scale of the biggest CPU."""
    try:
        model = lab_platform.model(path, platgen)
    except lab_platform.PlatformError as e:
        raise ReportError(str(e)) from None
    if not model.domains:
        raise ReportError(f"{path}: no domain")
    top = max(d.capacity for d in model.domains.values())
    domains = []
    for dom in sorted(model.domains.values(), key=lambda d: d.index):
        opps = sorted(dom.opps, key=lambda o: o.index)
        board = [o.values for o in opps if o.values.get("board_cpu_uw") is not None]
        wfi = (dom.values.get("board_wfi_cpu_uw"), dom.values.get("board_wfi_cluster_uw"))
        domains.append({
            "name": dom.name,
            "cpus": list(dom.cpus),
            "khz": [o.khz for o in opps],
            "caps": [o.capacity for o in opps],
            "board_cpu_uw": [v["board_cpu_uw"] for v in board],
            "board_cluster_uw": [v["board_cluster_uw"] for v in board],
            "board_wfi_uw": wfi if None not in wfi else None,
            "cluster": f"cluster{min(dom.cpus)}",
            "big": dom.capacity == top,
        })
    return domains


def ceiling_uw(domains):
    """Every CPU and cluster at its top OPP, board model (EM without one)."""
    total = 0
    for d in domains:
        if d["board_cpu_uw"]:
            total += len(d["cpus"]) * max(d["board_cpu_uw"]) + max(d["board_cluster_uw"])
    return total


def workload_ceiling_uw(domains, util):
    """The most the board model can charge for UTIL of work (0..1024 scale
    of the biggest CPU at its top OPP, summed over the tasks), whatever
    the placement, OPPs and idle states; None without a board model.

    Every CPU idles in WFI, the shallowest and dearest idle state, and
    every cluster stays on: max(its top active power, its WFI power).  The
    work goes first where a unit of it costs most above WFI, at
    max over OPPs of (P_cpu(opp) - P_wfi) / capacity(opp), up to the
    domain's top capacity: no OPP mix can charge more per unit of work,
    nor a CPU do more than its top capacity, so this bounds every run of
    the workload from above (tight when the dearest OPP is the top one,
    as on Juno r0).  None if the work does not fit at all.
    """
    if not all(d["board_cpu_uw"] and d["board_wfi_uw"] for d in domains):
        return None
    total = 0.0
    dear = []
    for d in domains:
        cpu_wfi, cl_wfi = d["board_wfi_uw"]
        total += len(d["cpus"]) * cpu_wfi + max(max(d["board_cluster_uw"]), cl_wfi)
        rate = max((p - cpu_wfi) / c for p, c in zip(d["board_cpu_uw"], d["caps"]))
        dear.append((rate, len(d["cpus"]) * max(d["caps"])))
    left = float(util)
    for rate, cap in sorted(dear, reverse=True):
        take = min(left, cap)
        total += take * rate
        left -= take
    return total if left <= 1e-9 else None


def optimum(emcost, platfile, n):
    """emcost's board optimum for N tasks: {'power_uw', 'opps'} or None."""
    if not emcost:
        return None
    cmd = [emcost, "-B", "-p", str(PERIOD_US), "optimum", platfile, f"{TASK_UTIL}x{n}"]
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=300, check=True).stdout
    except (OSError, subprocess.SubprocessError) as e:
        print(f"rfc_report.py: warning: {' '.join(cmd)} failed ({e}): no optimum", file=sys.stderr)
        return None
    res = {"power_uw": None, "opps": {}, "command": " ".join(
        ["emcost", "-B", "-p", str(PERIOD_US), "optimum", os.path.relpath(platfile, LAB_TOP),
         f"{TASK_UTIL}x{n}"])}
    for line in out.splitlines():
        w = line.split()
        if len(w) >= 2 and w[0] == "power_uw":
            res["power_uw"] = float(w[1])
        elif len(w) >= 2 and w[0] == "lower_bound_uw":
            res["lower_bound_uw"] = float(w[1])
        elif len(w) >= 4 and w[0] == "domain" and w[2] == "khz":
            res["opps"][w[1]] = int(w[3])
    return res if res["power_uw"] is not None else None


def mean_sd(xs):
    """Mean and sample standard deviation (0 for one value): stats.py's."""
    return stats.mean(xs), stats.sd(xs)


def pct(a, b):
    return None if a is None or b is None or b == 0 else 100.0 * (a - b) / b


def scale_of(duration):
    """Energy of a run -> J per 30 s: 30 / its metered window, unless 30 s."""
    return duration != 30


def per30(run, scaled):
    j = run["total_uj"] / 1e6
    return j * PER_S * 1e6 / run["window_us"] if scaled else j


def cell(runs, domains, scaled):
    """Statistics of one (platform, mode, N, policy) cell."""
    js = [per30(r, scaled) for r in runs]
    m, sd = mean_sd(js)
    bigs = [d for d in domains if d["big"]]
    big_cpus = {f"cpu{c}" for d in bigs for c in d["cpus"]}
    big_clusters = {d["cluster"] for d in bigs}

    def share(r, names, key):
        return 100.0 * sum(v for k, v in r[key].items() if k in names) / r["total_uj"]

    def time_pct(key):
        out = {}
        for d in domains:
            vals = [100.0 * r[key][d["cluster"]] / (r["window_us"] / 1000.0)
                    for r in runs if d["cluster"] in r[key]]
            if vals:
                out[d["name"]] = sum(vals) / len(vals)
        return out

    def opp_stats():
        """Per domain: the time-weighted mean frequency (MHz) of its
        cpufreq policy over the runs, and the share of time at its top OPP."""
        mhz, top = {}, {}
        for d in domains:
            pol = f"policy{min(d['cpus'])}"
            times = [r["opp_ms"][pol] for r in runs if pol in r["opp_ms"]]
            total = sum(sum(t.values()) for t in times)
            if not times or total <= 0:
                continue
            mhz[d["name"]] = sum(k * v for t in times for k, v in t.items()) / total / 1000.0
            top[d["name"]] = 100.0 * sum(t.get(max(d["khz"]), 0.0) for t in times) / total
        return mhz, top

    mean_mhz, top_opp_pct = opp_stats()
    c = {
        "runs": len(runs),
        "reps": sorted(r["rep"] for r in runs),
        "mean_j30": m,
        "sd_j30": sd,
        "rsd_pct": 100.0 * sd / m if m else None,
        "j30": js,
        "window_s": sum(r["window_us"] for r in runs) / len(runs) / 1e6,
        "raw_mean_j": sum(r["total_uj"] for r in runs) / len(runs) / 1e6,
        "big_cpus_pct": sum(share(r, big_cpus, "cpus_uj") for r in runs) / len(runs),
        "cluster_on_pct": time_pct("cluster_on_ms"),
        "cluster_busy_pct": time_pct("cluster_busy_ms"),
        "mean_mhz": mean_mhz,
        "top_opp_pct": top_opp_pct,
    }
    if all(r["clusters_uj"] for r in runs):
        c["big_cluster_pct"] = sum(share(r, big_clusters, "clusters_uj") for r in runs) / len(runs)
    else:
        c["big_cluster_pct"] = None
    return c


def paired(runs_a, runs_b, scaled):
    """Mean over reps of A's energy over B's in the same rep, in %, and
    twice its standard error; None without two reps in common."""
    a = {r["rep"]: per30(r, scaled) for r in runs_a}
    b = {r["rep"]: per30(r, scaled) for r in runs_b}
    if not set(a) & set(b):
        return None
    p = stats.paired(a, b, relative=True)
    # One pair has no spread: two_se is None, printed as "(one pair)".
    return {"pct": p.mean, "two_se": p.two_se, "reps": p.n}


def build(dirpath, emcost, platforms_dir):
    """Everything the report says, as one JSON-able dict."""
    cfg = read_config(os.path.join(dirpath, "config"))
    duration = int(cfg["duration"])
    scaled = scale_of(duration)
    ns = [int(x) for x in cfg["n"].split()]
    policies = cfg.get("policies", " ".join(POLICIES)).split()
    boots = [b.split("/", 1) for b in cfg["boots"].split()]
    data = {
        "config": cfg,
        "per_s": PER_S,
        "scaled": scaled,
        "rfc": {p: {k: ({str(n): v for n, v in d.items()} if isinstance(d, dict) else d)
                    for k, d in r.items()} for p, r in RFC.items()},
        "boots": [],
        "cells": [],
        "optimum": [],
        "missing": [],
    }
    plats = {}
    for plat, mode in boots:
        if plat not in plats:
            platfile = os.path.join(platforms_dir, f"{plat}.plat")
            domains = read_platform(platfile)
            plats[plat] = {"file": platfile, "domains": domains}
            data["platforms"] = data.get("platforms", {})
            data["platforms"][plat] = {
                "domains": [{k: d[k] for k in ("name", "cpus", "cluster", "big")} for d in domains],
                "ceiling_uw": ceiling_uw(domains),
            }
            for n in ns:
                o = optimum(emcost, platfile, n)
                cu = workload_ceiling_uw(domains, float(TASK_UTIL) * n)
                data["optimum"].append({
                    "platform": plat, "n": n,
                    "ceiling_uw": cu,
                    "ceiling_j30": cu * PER_S / 1e6 if cu is not None else None,
                    "power_uw": o["power_uw"] if o else None,
                    "j30": o["power_uw"] * PER_S / 1e6 if o else None,
                    "opps_khz": o["opps"] if o else {},
                    "command": o["command"] if o else None,
                })
        bdir = os.path.join(dirpath, f"{plat}-su{mode}")
        runs = read_runs(os.path.join(bdir, "experiment.log"), mode)
        data["boots"].append({
            "platform": plat, "schedutil": mode, "runs": len(runs),
            "kernel": kernel_version(os.path.join(bdir, "console.log")),
        })
        for r in runs:
            if r["su"] != mode:
                raise ReportError(f"{bdir}: a run under schedutil {r['su']} in the {mode} boot")
        domains = plats[plat]["domains"]
        by = {}
        for r in runs:
            by.setdefault((r["n"], r["policy"]), []).append(r)
        for n in ns:
            base = by.get((n, "b"))
            for p in policies:
                rs = by.get((n, p))
                if not rs:
                    data["missing"].append(f"{plat}, schedutil {mode}, N={n}, {NAMES.get(p, p)}")
                    continue
                c = cell(rs, domains, scaled)
                c.update({"platform": plat, "schedutil": mode, "n": n, "policy": p,
                          "name": NAMES.get(p, p)})
                c["paired_vs_baseline"] = paired(rs, base, scaled) if base and p != "b" else None
                data["cells"].append(c)
    for c in data["cells"]:
        b = find(data, c["platform"], c["schedutil"], c["n"], "b")
        c["vs_baseline_pct"] = pct(c["mean_j30"], b["mean_j30"]) if b and c["policy"] != "b" else None
    data["targets"] = targets(data)
    return data


def find(data, plat, mode, n, policy):
    for c in data["cells"]:
        if (c["platform"], c["schedutil"], c["n"], c["policy"]) == (plat, mode, n, policy):
            return c
    return None


def find_opt(data, plat, n):
    for o in data["optimum"]:
        if (o["platform"], o["n"]) == (plat, n):
            return o
    return None


def targets(data):
    """Targets (a) and (b) on Juno r0 under TARGET_MODE's schedutil."""
    plat = "juno-r0"
    rfc = RFC[plat]
    ns = sorted({c["n"] for c in data["cells"] if c["platform"] == plat} | set(
        int(x) for x in data["config"]["n"].split()))
    ns = [n for n in ns if n in rfc["pct"]]
    a = {"what": (f"{plat}: series vs the 4.16-like baseline, both under schedutil {TARGET_MODE}, "
                  f"within {TARGET_A_POINTS:g} points of the RFC's saving at every N"),
         "per_n": [], "met": None}
    b = {"what": (f"{plat}: the baseline's and the series' energy (schedutil {TARGET_MODE}, "
                  f"J per 30 s) within {TARGET_B_PCT:g}% of the RFC's Joules at every N"),
         "per_n": [], "met": None}
    if not ns or not any(c["platform"] == plat and c["schedutil"] == TARGET_MODE for c in data["cells"]):
        a["note"] = b["note"] = f"not evaluated: no {plat} run under schedutil {TARGET_MODE}"
        return {"a": a, "b": b}
    oka = okb = True
    for n in ns:
        base = find(data, plat, TARGET_MODE, n, "b")
        ser = find(data, plat, TARGET_MODE, n, "2")
        lab = pct(ser["mean_j30"], base["mean_j30"]) if base and ser else None
        diff = lab - rfc["pct"][n] if lab is not None else None
        ok = diff is not None and abs(diff) <= TARGET_A_POINTS
        oka = oka and ok
        a["per_n"].append({"n": n, "lab_pct": lab, "rfc_pct": rfc["pct"][n],
                           "diff_points": diff, "ok": ok,
                           "paired": ser["paired_vs_baseline"] if ser else None})
        row = {"n": n, "ok": True}
        for key, c, ref in (("baseline", base, rfc["none"][n]), ("series", ser, rfc["eas"][n])):
            lab_j = c["mean_j30"] if c else None
            dev = pct(lab_j, ref)
            row[key] = {"lab_j30": lab_j, "rfc_j": ref, "dev_pct": dev}
            row["ok"] = row["ok"] and dev is not None and abs(dev) <= TARGET_B_PCT
        okb = okb and row["ok"]
        b["per_n"].append(row)
    a["met"], b["met"] = oka, okb
    return {"a": a, "b": b}


def fmt(x, spec=".2f", dash="-"):
    return dash if x is None else format(x, spec)


def fpct(x, spec="+.1f"):
    return "-" if x is None else format(x, spec) + "%"


def render(data):
    """report.md's text."""
    cfg = data["config"]
    ns = [int(x) for x in cfg["n"].split()]
    modes = []
    for b in data["boots"]:
        if b["schedutil"] not in modes:
            modes.append(b["schedutil"])
    plats = []
    for b in data["boots"]:
        if b["platform"] not in plats:
            plats.append(b["platform"])
    policies = cfg.get("policies", " ".join(POLICIES)).split()
    duration = int(cfg["duration"])
    out = []
    w = out.append
    w(f"# The 2018 RFC's energy table in the lab, {cfg.get('date', '?')}")
    w("")
    w(f"- Command: `{cfg.get('command', 'lab/rfc')}` (`make rfc` runs it with its knobs), "
      f"{cfg.get('date', '?')}.")
    if "boots_wall_s" in cfg:
        s = int(cfg["boots_wall_s"])
        w(f"- Wall time of the {len(data['boots'])} boots: {s // 60}m{s % 60:02d}s.")
    kernels = {b["kernel"] for b in data["boots"]}
    if len(kernels) == 1:
        w(f"- Kernel (every boot): {kernels.pop() or 'unknown'}"
          + (f", Image sha256 {cfg['kernel_sha']}, initramfs sha256 {cfg['initramfs_sha']}."
             if "kernel_sha" in cfg else "."))
    else:
        w("- **Kernels differ between the boots:**")
        for b in data["boots"]:
            w(f"- Kernel ({b['platform']}, schedutil {b['schedutil']} boot, {b['runs']} runs): "
              f"{b['kernel'] or 'unknown'}.")
    short = [f"{b['platform']} schedutil {b['schedutil']}: {b['runs']} runs" for b in data["boots"]]
    w("- Runs per boot: " + "; ".join(short) + ".")
    if "series_commit" in cfg:
        w(f"- Series: patches/ at commit {cfg['series_commit']}, sha256 of the patches in series order "
          f"{cfg.get('series_sha', '?')}; lab at {cfg.get('lab_commit', '?')}.")
    w("")
    w(f"Energy test, as the RFC's (cover letter, 2.1): N periodic rt-app tasks, 16 ms period, 800 us of "
      f"work at speed 1024 (util {TASK_UTIL}), {duration} s per run, {cfg.get('reps', '?')} runs per "
      "cell, one boot per platform and schedutil mode, the policies interleaved in it and their order "
      "rotating each rep.  Energy: the lab's meter charging the board power model (LISA's: CPU and "
      "cluster active power, idle states down to cluster sleep) over each run, rt-app's start to its exit.")
    idle = cfg.get("idle", "all")
    if idle != "all":
        w("")
        w(f"**Idle states limited** (`-i {idle}`): the CPUs may use "
          + ("no cluster-scope state: a cluster never powers down, its idle CPUs keep it on"
             if idle == "cpu" else "WFI only")
          + " (cpuidle's per-state disable, for the whole boot).  Not the board as it is: "
          "an experiment on what the RFC's board may have done.")
    if data["scaled"]:
        w("")
        w(f"**Scaled**: the runs last {duration} s, not the RFC's 30 s; every run's energy is given "
          "per 30 s, i.e. multiplied by 30 / its metered window (the window is given per cell below).")
    w("")
    w("Policies: **baseline** (b) = the RFC's own baseline, a 4.16-like kernel without EAS "
      "(kernel.sched_energy_policy 0 + kernel.lab_wakeup_416 1: 4.16's CFS wake-up on asymmetric "
      "CPUs); **none** = 6.12 without EAS (policy 0); **6.12 EAS** = policy 1; **series** = policy 2.  "
      "Schedutil modes, i.e. the utilization signals the kernel runs on: **4.16** = "
      "kernel.lab_util_416 1 (schedutil, the energy estimates and the fit and over-utilization tests "
      "read CFS util_avg alone, no util_est, no runnable boost, as in the RFC's kernel; 10 ms "
      "schedutil rate limit); **6.12** = 6.12's; **4.16su** = kernel.lab_schedutil_416 1 (schedutil "
      "alone requests from util_avg; what 4.16 meant before lab_util_416).")
    w("")
    w(f"Optimum: `emcost -B -p {PERIOD_US} optimum PLATFILE {TASK_UTIL}xN`, the cheapest static "
      "placement priced on the board model, idle states chosen by the gaps the 16 ms period leaves "
      "(docs/emcost.md), its power x 30 s.")
    w("")
    w("RFC: Linux 4.16-rc4 without EAS (none) and with the RFC (EAS), 10 iterations of 30 s; Juno r0 "
      f"measured by {RFC['juno-r0']['meter']}, HiKey960 by {RFC['hikey960']['meter']}: HiKey960's "
      "Joules are not comparable, only its savings are shown.")
    for plat in RFC:
        for n in rfc_inconsistent(plat):
            r = RFC[plat]
            w("")
            w(f"Note: the RFC's {plat} N={n} row is inconsistent: {r['eas'][n]:.2f} J against "
              f"{r['none'][n]:.2f} J is {pct(r['eas'][n], r['none'][n]):+.2f}%, not the "
              f"{r['pct'][n]:+.2f}% it prints (a typo in one of them); target (a) takes the printed "
              "%, target (b) the printed Joules.")
    w("")
    w("Mean and RSD (standard deviation / mean) over the runs; % against the lab's baseline under the "
      "same schedutil; \"paired\": the mean over reps of the series' energy over the baseline's in the "
      "same rep, +- twice its standard error.  Lower is better.")
    w("")

    # Targets.
    t = data["targets"]
    w("## Targets")
    w("")
    for key in ("a", "b"):
        tt = t[key]
        if tt.get("note"):
            w(f"- ({key}) {tt['what']}: {tt['note']}.")
            continue
        verdict = "met" if tt["met"] else "missed"
        if key == "a":
            items = []
            for r in tt["per_n"]:
                pr = r["paired"]
                ptxt = f", paired {stats.paired_text(pr['pct'], pr['two_se'])}" if pr else ""
                items.append(f"N={r['n']}: {fpct(r['lab_pct'])} vs RFC {r['rfc_pct']:+.1f}% "
                             f"({fmt(r['diff_points'], '+.1f')} points{ptxt}){'' if r['ok'] else ' MISS'}")
        else:
            items = []
            for r in tt["per_n"]:
                bb, ss = r["baseline"], r["series"]
                items.append(f"N={r['n']}: baseline {fmt(bb['lab_j30'])} J vs {bb['rfc_j']:.2f} "
                             f"({fpct(bb['dev_pct'])}), series {fmt(ss['lab_j30'])} J vs "
                             f"{ss['rfc_j']:.2f} ({fpct(ss['dev_pct'])}){'' if r['ok'] else ' MISS'}")
        w(f"- ({key}) {tt['what']}: **{verdict}**; " + "; ".join(items) + ".")
    if data["missing"]:
        w(f"- Missing cells ({len(data['missing'])}): " + "; ".join(data["missing"]) + ".")
    w("")

    unit = "J per 30 s" if data["scaled"] else "J"
    for plat in plats:
        absolute = plat in ABSOLUTE
        rfc = RFC.get(plat)
        for mode in modes:
            if not any(b["platform"] == plat and b["schedutil"] == mode for b in data["boots"]):
                continue
            if absolute:
                w(f"## {plat}: energy ({unit}), schedutil {mode}")
                w("")
                head = ["Tasks"]
                if rfc:
                    head += ["RFC none", "RFC EAS (vs none)"]
                head += [f"{NAMES[p]}: Mean{' (vs b)' if p != 'b' else ''} | RSD" for p in policies]
                if "2" in policies and "b" in policies:
                    head.append("series vs b paired")
                head.append("optimum (vs b)")
                w("| " + " | ".join(head) + " |")
                w("|" + "---|" * (sum(h.count("|") + 1 for h in head)))
                for n in ns:
                    row = [str(n)]
                    if rfc:
                        row += [fmt(rfc["none"].get(n)),
                                f"{fmt(rfc['eas'].get(n))} ({fpct(rfc['pct'].get(n), '+.2f')})"]
                    b = find(data, plat, mode, n, "b")
                    for p in policies:
                        c = find(data, plat, mode, n, p)
                        if not c:
                            row += ["-", "-"]
                            continue
                        v = fmt(c["mean_j30"])
                        if p != "b":
                            v += f" ({fpct(c['vs_baseline_pct'])})"
                        row += [v, fpct(c["rsd_pct"], ".1f")]
                    if "2" in policies and "b" in policies:
                        c = find(data, plat, mode, n, "2")
                        pr = c["paired_vs_baseline"] if c else None
                        row.append(stats.paired_text(pr['pct'], pr['two_se']) if pr else "-")
                    o = find_opt(data, plat, n)
                    oj = o["j30"] if o else None
                    row.append(f"{fmt(oj)} ({fpct(pct(oj, b['mean_j30'] if b else None))})")
                    w("| " + " | ".join(row) + " |")
                w("")
            else:
                w(f"## {plat}: energy against the baseline (%), schedutil {mode}")
                w("")
                head = ["Tasks"]
                if rfc:
                    head.append("RFC EAS vs none")
                head += [f"{NAMES[p]} vs b" for p in policies if p != "b"]
                head += ["optimum vs b", "RSD " + "/".join(NAMES[p] for p in policies)]
                w("| " + " | ".join(head) + " |")
                w("|" + "---|" * len(head))
                for n in ns:
                    row = [str(n)]
                    if rfc:
                        row.append(fpct(rfc["pct"].get(n), "+.2f"))
                    b = find(data, plat, mode, n, "b")
                    rsds = []
                    for p in policies:
                        c = find(data, plat, mode, n, p)
                        rsds.append(fpct(c["rsd_pct"], ".1f") if c else "-")
                        if p != "b":
                            row.append(fpct(c["vs_baseline_pct"]) if c else "-")
                    o = find_opt(data, plat, n)
                    row.append(fpct(pct(o["j30"] if o else None, b["mean_j30"] if b else None)))
                    row.append(" / ".join(rsds))
                    w("| " + " | ".join(row) + " |")
                w("")
        # The optimum's OPPs, once per platform.
        opts = [find_opt(data, plat, n) for n in ns]
        if any(o and o["power_uw"] for o in opts):
            w(f"{plat}: the optimum's OPPs per N: " + "; ".join(
                f"N={o['n']}: " + ",".join(f"{d}@{k // 1000}MHz" for d, k in o["opps_khz"].items())
                for o in opts if o and o["power_uw"]) + ".")
            w("")
        if any(o and o.get("ceiling_j30") for o in opts):
            w(f"{plat}: the board model's ceiling, the most it can charge for N x {TASK_UTIL} of work "
              "whatever the placement, OPPs and idle states (every idle CPU in WFI, every cluster on, "
              "the work where it costs most), J per 30 s: " + "; ".join(
                  f"N={o['n']}: {o['ceiling_j30']:.2f}" for o in opts if o and o.get("ceiling_j30")) + ".")
            if plat in ABSOLUTE:
                above = [f"N={o['n']}: RFC {k.replace('eas', 'EAS')} {RFC[plat][k][o['n']]:.2f} "
                         f"({pct(RFC[plat][k][o['n']], o['ceiling_j30']):+.1f}%)"
                         for o in opts if o and o.get("ceiling_j30")
                         for k in ("none", "eas") if RFC[plat][k][o["n"]] > o["ceiling_j30"]]
                w("The RFC's Joules above that ceiling, which no run of this workload on this model can "
                  "reach: " + ("; ".join(above) if above else "none") + ".")
            w("")

    # Evidence.
    w("## Where the energy went")
    w("")
    w("Per cell, mean over its runs: the big CPUs' and the big cluster's share of the energy, and "
      "per cluster the share of the metered window it was powered (busy, or idle in a state that is "
      "not cluster scope) and busy (any of its CPUs running), from lab_emu/idle; per cluster the "
      "mean frequency of its cpufreq policy over the run (time-weighted, idle time included) and the "
      "share of the run at its top OPP, from cpufreq stats (10 ms resolution).")
    w("")
    for plat in plats:
        doms = data["platforms"][plat]["domains"]
        names = [d["name"] for d in doms]
        for mode in modes:
            if not any(b["platform"] == plat and b["schedutil"] == mode for b in data["boots"]):
                continue
            w(f"### {plat}, schedutil {mode}")
            w("")
            head = ["Tasks", "policy", unit if plat in ABSOLUTE else "vs b", "window (s)",
                    "big CPUs %", "big cluster %"]
            head += [f"{x} on %" for x in names] + [f"{x} busy %" for x in names]
            head += [f"{x} MHz" for x in names] + [f"{x} at top %" for x in names]
            w("| " + " | ".join(head) + " |")
            w("|" + "---|" * len(head))
            for n in ns:
                for p in policies:
                    c = find(data, plat, mode, n, p)
                    if not c:
                        w("| " + " | ".join([str(n), NAMES[p]] + ["-"] * (len(head) - 2)) + " |")
                        continue
                    e = fmt(c["mean_j30"]) if plat in ABSOLUTE else fpct(c["vs_baseline_pct"])
                    row = [str(n), NAMES[p], e, fmt(c["window_s"], ".4f"),
                           fmt(c["big_cpus_pct"], ".1f"), fmt(c["big_cluster_pct"], ".1f")]
                    row += [fmt(c["cluster_on_pct"].get(x), ".1f") for x in names]
                    row += [fmt(c["cluster_busy_pct"].get(x), ".1f") for x in names]
                    row += [fmt(c.get("mean_mhz", {}).get(x), ".0f") for x in names]
                    row += [fmt(c.get("top_opp_pct", {}).get(x), ".1f") for x in names]
                    w("| " + " | ".join(row) + " |")
            w("")
    return "\n".join(out) + "\n"


def main(argv=None):
    ap = argparse.ArgumentParser(
        prog="rfc_report.py",
        description="Write DIR/report.md and DIR/report.json from what lab/rfc left in DIR: "
                    "the 2018 RFC's energy table beside the lab's, the targets, the evidence.")
    ap.add_argument("dir", metavar="DIR", help="a directory lab/rfc wrote")
    ap.add_argument("--emcost", default=os.path.join(LAB_TOP, "build", "tools", "emcost"),
                    help="emcost binary for the board optimum; 'none': no optimum "
                         "(default: build/tools/emcost)")
    ap.add_argument("--platforms-dir", default=os.path.join(LAB_TOP, "lab", "platforms"),
                    help="where PLATFORM.plat files are (default: lab/platforms)")
    ap.add_argument("-q", "--quiet", action="store_true", help="do not print the report")
    args = ap.parse_args(argv)
    emcost = None if args.emcost == "none" else args.emcost
    if emcost and not os.access(emcost, os.X_OK):
        print(f"rfc_report.py: error: {emcost} missing: run make tools (or --emcost none)",
              file=sys.stderr)
        return 1
    try:
        data = build(args.dir, emcost, args.platforms_dir)
    except (ReportError, OSError, ValueError) as e:
        print(f"rfc_report.py: error: {e}", file=sys.stderr)
        return 1
    text = render(data)
    with open(os.path.join(args.dir, "report.md"), "w", encoding="utf-8") as f:
        f.write(text)
    with open(os.path.join(args.dir, "report.json"), "w", encoding="utf-8") as f:
        json.dump(data, f, indent=1, sort_keys=True)
        f.write("\n")
    if not args.quiet:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
