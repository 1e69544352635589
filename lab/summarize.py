#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Write an experiment's summary.json from what the guest handed back.

Over the experiment (after.txt minus before.txt, both written by the guest's
lab-snapshot): per-CPU busy time, per-policy frequency residency, the energy
the lab's meter counted per CPU, cluster, frequency domain and in total, the
Energy Model's estimate of it and the model's error, and the time each CPU
and cluster spent busy and in each idle state; then the platform facts and
the verdict.

Usage: lab/summarize.py RESULTS_DIR PLATFORM EXPERIMENT VERDICT EXIT_STATUS WALL_SECONDS

Fields (jq readers: lab/report.sh, tests/guest/*.sh):
  platform, experiment, verdict, exit_status (a string), wall_seconds,
  kernel, eas_started, files; and when both snapshots exist:
  guest_seconds        uptime difference
  cpus[]               cpu, capacity, busy_pct (/proc/stat), energy_uj (meter)
  policies[]           policy, cpus, avg_khz, energy_uj, ms_at_khz {kHz: ms}
  energy               null without a meter, else
    total_uj, joules, domains_uj {policyN: uJ}   the meter (hwmon lab_energy)
    clusters_uj {clusterN: uJ}                   its cluster terms
    meter                "board", "energy_model" (lab_emu.em_meter=1) or
                         "mixed" (switched during the experiment)
    em_estimate          null, or total_uj, joules, domains_uj: the Energy
                         Model's estimate (hwmon lab_em_energy)
    model_error_pct      100 * (estimate - meter) / meter
  idle                 null without lab_emu/idle, else
    cpus[]     cpu, busy_ms, states [names], requested_ms [per state, as
               cpuidle asked], effective_ms [per state, as the board was]
    clusters[] cluster (clusterN), cpus, states, active_ms, idle_ms [all of
               its CPUs idle, by the shallowest CPU's effective state]
"""
import json
import os
import re
import sys


class Raw(str):
    """A number already formatted (JSON text as is)."""


def fmt(spec, x):
    return Raw(spec % x)


def parse_snapshot(path):
    s = {"up": None, "stat": {}, "tis": {}, "tis_order": [], "pols": [],
         "energy": {}, "em": {}, "em_meter": None, "names": {},
         "idle_cpu": {}, "idle_cluster": {}}
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            w = line.split()
            if not w:
                continue
            key = w[0]
            try:
                if key == "uptime":
                    s["up"] = float(w[1])
                elif key == "energy" and len(w) >= 3:
                    s["energy"][w[1]] = int(w[2])
                elif key == "em" and len(w) >= 3:
                    s["em"][w[1]] = int(w[2])
                elif key == "em_meter" and len(w) >= 2:
                    s["em_meter"] = w[1]
                elif key == "cpuidle" and len(w) >= 4:
                    name = line.split(None, 3)[3].strip()
                    s["names"].setdefault(int(w[1]), {})[int(w[2])] = name
                elif key == "idle" and len(w) >= 3 and w[1] == "cpu":
                    # idle cpu N busy NS req NS.. eff NS..
                    req, eff = w.index("req"), w.index("eff")
                    s["idle_cpu"][int(w[2])] = (
                        int(w[4]), [int(x) for x in w[req + 1:eff]],
                        [int(x) for x in w[eff + 1:]])
                elif key == "idle" and len(w) >= 3 and w[1] == "cluster":
                    # idle cluster N active NS idle NS..
                    i = w.index("idle", 2)
                    s["idle_cluster"][int(w[2])] = (
                        int(w[4]), [int(x) for x in w[i + 1:]])
                elif re.fullmatch(r"cpu[0-9]+", key):
                    v = [int(x) for x in w[1:]]
                    # Busy: every field but idle and iowait (4th, 5th).
                    busy = sum(x for i, x in enumerate(v) if i not in (3, 4))
                    idle = (v[3] if len(v) > 3 else 0) + (v[4] if len(v) > 4 else 0)
                    s["stat"][int(key[3:])] = (busy, busy + idle)
                elif key.startswith("policy") and len(w) >= 3:
                    k = (key, w[1])
                    s["tis"][k] = int(w[2])
                    if k not in s["tis_order"]:
                        s["tis_order"].append(k)
                    if key not in s["pols"]:
                        s["pols"].append(key)
            except (ValueError, IndexError):
                continue
    return s


def read_facts(path):
    cap, pcpus, eas = {}, {}, False
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            lines = f.read().splitlines()
    except OSError:
        return cap, pcpus, eas
    for line in lines:
        if line == "eas started":
            eas = True
        w = line.split(" ", 1)
        m = re.fullmatch(r"cpu([0-9]+)\.capacity", w[0])
        if m and len(w) > 1:
            cap[int(m.group(1))] = Raw(w[1].split()[0]) if w[1].split() else None
        m = re.fullmatch(r"(policy[0-9]+)\.cpus", w[0])
        if m:
            pcpus[m.group(1)] = w[1] if len(w) > 1 else ""
    return cap, pcpus, eas


def kernel_release(path):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                m = re.match(r"LAB: guest up, kernel ([^ ]*)", line.replace("\r", ""))
                if m:
                    return m.group(1).rstrip("\n") or "unknown"
    except OSError:
        pass
    return "unknown"


def label_key(label):
    m = re.search(r"([0-9]+)$", label)
    return (re.sub(r"[0-9]+$", "", label), int(m.group(1)) if m else -1)


def delta(b, a, label):
    """The counter's difference, None when neither snapshot has it."""
    if label not in b and label not in a:
        return None
    return a.get(label, 0) - b.get(label, 0)


def ms(ns):
    return fmt("%.1f", ns / 1e6)


def energy_section(b, a, pols):
    en_b, en_a = b["energy"], a["energy"]
    total = delta(en_b, en_a, "total")
    if total is None:
        return None
    labels = sorted(set(en_b) | set(en_a), key=label_key)
    e = {"total_uj": total, "joules": fmt("%.4f", total / 1e6),
         "domains_uj": {p: delta(en_b, en_a, p) for p in pols},
         "clusters_uj": {c: delta(en_b, en_a, c) for c in labels
                         if re.fullmatch(r"cluster[0-9]+", c)}}
    modes = {s["em_meter"] for s in (b, a)}
    if modes == {"N"}:
        e["meter"] = "board"
    elif modes == {"Y"}:
        e["meter"] = "energy_model"
    elif None in modes:
        e["meter"] = None
    else:
        e["meter"] = "mixed"
    em_total = delta(b["em"], a["em"], "total")
    if em_total is None:
        e["em_estimate"] = None
        e["model_error_pct"] = None
    else:
        em_labels = sorted(set(b["em"]) | set(a["em"]), key=label_key)
        e["em_estimate"] = {
            "total_uj": em_total, "joules": fmt("%.4f", em_total / 1e6),
            "domains_uj": {p: delta(b["em"], a["em"], p) for p in em_labels
                           if re.fullmatch(r"policy[0-9]+", p)}}
        e["model_error_pct"] = (fmt("%.2f", 100 * (em_total - total) / total)
                                if total else None)
    return e


def state_names(b, a, cpu, n):
    names = a["names"].get(cpu) or b["names"].get(cpu) or {}
    return [names.get(k, "state%d" % k) for k in range(n)]


def idle_section(b, a, pcpus):
    cpus = []
    for n in sorted(set(b["idle_cpu"]) & set(a["idle_cpu"])):
        (bb, br, be), (ab, ar, ae) = b["idle_cpu"][n], a["idle_cpu"][n]
        if len(br) != len(ar) or len(be) != len(ae):
            continue
        cpus.append({"cpu": n, "busy_ms": ms(ab - bb),
                     "states": state_names(b, a, n, len(ae)),
                     "requested_ms": [ms(y - x) for x, y in zip(br, ar)],
                     "effective_ms": [ms(y - x) for x, y in zip(be, ae)]})
    clusters = []
    for n in sorted(set(b["idle_cluster"]) & set(a["idle_cluster"])):
        (bact, bidle), (aact, aidle) = b["idle_cluster"][n], a["idle_cluster"][n]
        if len(bidle) != len(aidle):
            continue
        clusters.append({"cluster": "cluster%d" % n,
                         "cpus": pcpus.get("policy%d" % n, ""),
                         "states": state_names(b, a, n, len(aidle)),
                         "active_ms": ms(aact - bact),
                         "idle_ms": [ms(y - x) for x, y in zip(bidle, aidle)]})
    if not cpus and not clusters:
        return None
    return {"cpus": cpus, "clusters": clusters}


def measured(b, a, cap, pcpus):
    out = {"guest_seconds": fmt("%.2f", (a["up"] or 0) - (b["up"] or 0))}
    en_b, en_a = b["energy"], a["energy"]
    ncpu = max(list(b["stat"]) + list(a["stat"]) + [-1]) + 1
    cpus = []
    for n in range(ncpu):
        bb, bt = b["stat"].get(n, (0, 0))
        ab, at = a["stat"].get(n, (0, 0))
        tot = at - bt
        cpus.append({"cpu": n, "capacity": cap.get(n),
                     "busy_pct": fmt("%.1f", 100 * (ab - bb) / tot if tot > 0 else 0),
                     "energy_uj": delta(en_b, en_a, "cpu%d" % n)})
    out["cpus"] = cpus
    pols = []
    for p in b["pols"] + [p for p in a["pols"] if p not in b["pols"]]:
        res, total, weighted = {}, 0, 0
        for k in b["tis_order"]:
            if k[0] != p:
                continue
            d = (a["tis"].get(k, 0) - b["tis"].get(k, 0)) * 10
            res[k[1]] = d
            total += d
            weighted += d * float(k[1])
        pols.append({"policy": p, "cpus": pcpus.get(p, ""),
                     "avg_khz": int(weighted / total) if total > 0 else 0,
                     "energy_uj": delta(en_b, en_a, p), "ms_at_khz": res})
    out["policies"] = pols
    all_pols = b["pols"] + [p for p in a["pols"] if p not in b["pols"]]
    out["energy"] = energy_section(b, a, all_pols)
    out["idle"] = idle_section(b, a, pcpus)
    return out


def files_of(d):
    found = []
    for root, dirs, files in os.walk(d):
        dirs.sort()
        for f in files:
            p = os.path.join(root, f)
            if f == "summary.json" or os.path.islink(p) or not os.path.isfile(p):
                continue
            found.append(os.path.relpath(p, d))
    return sorted(found, key=lambda s: s.encode())


def dump(v):
    """Compact JSON with our preformatted numbers."""
    if isinstance(v, Raw):
        return str(v)
    if isinstance(v, dict):
        return "{" + ", ".join("%s: %s" % (json.dumps(k), dump(x))
                               for k, x in v.items()) + "}"
    if isinstance(v, list):
        return "[" + ", ".join(dump(x) for x in v) + "]"
    return json.dumps(v)


def is_container(v):
    return isinstance(v, (dict, list))


def layout(v, depth=0):
    """The top level one field a line, and the arrays of objects and the
    objects holding objects below it one element a line; the rest compact."""
    pad = "  " * (depth + 1)
    end = "  " * depth
    if isinstance(v, dict) and v and (depth == 0 or (
            depth <= 1 and any(is_container(x) for x in v.values()))):
        items = ["%s%s: %s" % (pad, json.dumps(k), layout(x, depth + 1))
                 for k, x in v.items()]
        return "{\n" + ",\n".join(items) + "\n" + end + "}"
    if isinstance(v, list) and v and depth <= 2 and all(isinstance(x, dict) for x in v):
        return "[\n" + ",\n".join(pad + dump(x) for x in v) + "\n" + end + "]"
    return dump(v)


def main(argv):
    if len(argv) != 7:
        print("usage: %s DIR PLATFORM EXPERIMENT VERDICT EXIT WALL" % argv[0],
              file=sys.stderr)
        return 2
    d, platform, experiment, verdict, exit_status, wall = argv[1:]
    cap, pcpus, eas = read_facts(os.path.join(d, "facts.txt"))
    wall_v = Raw(wall) if re.fullmatch(r"-?[0-9]+(\.[0-9]+)?", wall) else wall
    s = {"platform": platform, "experiment": experiment, "verdict": verdict,
         "exit_status": exit_status, "wall_seconds": wall_v,
         "kernel": kernel_release(os.path.join(d, "console.log")),
         "eas_started": eas}
    before, after = os.path.join(d, "before.txt"), os.path.join(d, "after.txt")
    if os.path.isfile(before) and os.path.isfile(after):
        s.update(measured(parse_snapshot(before), parse_snapshot(after), cap, pcpus))
    s["files"] = files_of(d)
    sys.stdout.write(layout(s) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
