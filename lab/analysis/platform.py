# SPDX-License-Identifier: GPL-2.0-only
"""The one place the host-side analysis reads a platform.

A platform is a .plat file under lab/platforms (docs/platform-format.md);
no script parses one itself.  `platgen model FILE` derives from it what the
scripts need, the way the kernel derives it (capacities, the Energy
Model's performance of each OPP, idle states), one "KIND ID KEY VALUE ..."
record per line: see docs/platform-format.md, "Derived model (`platgen
model`)".  This module resolves a platform's name to its file, runs
platgen, and reads that output into a Model.
"""

import os
import subprocess
from typing import NamedTuple, Optional

LAB_TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PLATFORMS_DIR = os.path.join(LAB_TOP, "lab", "platforms")


def tools_bin():
    """Where `make tools` puts platgen and emcost: $BUILD_DIR/tools, as
    lab/lib.sh says."""
    return os.path.join(os.environ.get("BUILD_DIR") or os.path.join(LAB_TOP, "build"), "tools")


class PlatformError(Exception):
    """A platform that cannot be read: the message names it and the cause."""


class Cluster(NamedTuple):
    id: int
    cpus: tuple


class Node(NamedTuple):
    """A NUMA node: its CPUs and its distance to each node, in node order."""

    id: int
    cpus: tuple
    memory_mb: int
    distance: tuple


class Cpu(NamedTuple):
    id: int
    domain: str
    capacity: int
    cluster: int
    node: int = 0  # the platform declares no NUMA node: the guest has one, 0


class Opp(NamedTuple):
    index: int
    khz: int
    capacity: int
    power_uw: Optional[int]
    values: dict


class Idle(NamedTuple):
    index: int
    state: str
    scope: str
    values: dict


class Domain(NamedTuple):
    """A frequency domain; VALUES holds every key of its line."""

    name: str
    index: int
    cpus: tuple
    capacity: int
    top_khz: int
    em: bool
    opps: list
    idle: list
    values: dict


class Model(NamedTuple):
    """What `platgen model` derives from a platform."""

    name: str
    values: dict
    clusters: list
    cpus: list
    domains: dict
    nodes: list  # empty without numa-node lines

    @property
    def nr_cpus(self):
        return len(self.cpus)

    def littles(self):
        """The CPUs of the lowest capacity, as lab/behaviour/workloads.sh
        picks them."""
        low = min(c.capacity for c in self.cpus)
        return [c.id for c in self.cpus if c.capacity == low]

    def bigs(self):
        """The CPUs of the highest capacity."""
        high = max(c.capacity for c in self.cpus)
        return [c.id for c in self.cpus if c.capacity == high]


def known_platforms():
    return sorted(f[:-5] for f in os.listdir(PLATFORMS_DIR) if f.endswith(".plat"))


def platform_file(name):
    """The description file of a platform given by name (lab/platforms)
    or as a path, as lab/lib.sh's platform_file resolves it."""
    path = name if "/" in name or name.endswith(".plat") else os.path.join(PLATFORMS_DIR, name + ".plat")
    if not os.path.isfile(path):
        raise PlatformError(f"no platform '{name}' (known: {' '.join(known_platforms())})")
    return path


def _value(key, text):
    if text == "-":
        return None
    if key in ("cpus", "distance"):
        return tuple(int(c) for c in text.split(","))
    try:
        return int(text)
    except ValueError:
        return text


def parse_model(text, origin="platgen model"):
    """A Model from `platgen model` output."""
    header = None
    clusters, nodes, cpus, domains = [], [], [], {}
    for lineno, line in enumerate(text.splitlines(), 1):
        words = line.split()
        if not words:
            continue
        if len(words) % 2 != 0:
            raise PlatformError(f"{origin} line {lineno}: not KIND ID KEY VALUE...: {line}")
        kind, ident = words[0], words[1]
        try:
            v = {k: _value(k, x) for k, x in zip(words[2::2], words[3::2])}
            if kind == "platform":
                header = (ident, v)
            elif kind == "cluster":
                clusters.append(Cluster(int(ident), v["cpus"]))
            elif kind == "node":
                nodes.append(Node(int(ident), v["cpus"], v["memory_mb"], v["distance"]))
            elif kind == "cpu":
                cpus.append(Cpu(int(ident), v["domain"], v["capacity"], v["cluster"], v.get("node", 0)))
            elif kind == "domain":
                domains[ident] = Domain(ident, v["index"], v["cpus"], v["capacity"], v["top_khz"],
                                        v["em"] == 1, [], [], v)
            elif kind == "opp":
                domains[ident].opps.append(Opp(v["index"], v["khz"], v["capacity"], v["power_uw"], v))
            elif kind == "idle":
                domains[ident].idle.append(Idle(v["index"], v["state"], v["scope"], v))
            else:
                raise PlatformError(f"{origin} line {lineno}: unknown record '{kind}'")
        except (KeyError, ValueError) as e:
            raise PlatformError(f"{origin} line {lineno}: {kind} {ident} lacks or garbles {e}") from None
    if header is None:
        raise PlatformError(f"{origin}: no platform line")
    if not cpus:
        raise PlatformError(f"{origin}: no CPU")
    return Model(header[0], header[1], clusters, cpus, domains, nodes)


def model(name, platgen=None):
    """The Model of a platform (a name or a .plat path), from platgen."""
    path = platform_file(name)
    platgen = platgen or os.path.join(tools_bin(), "platgen")
    if not os.access(platgen, os.X_OK):
        raise PlatformError(f"{platgen} missing: run make tools")
    res = subprocess.run([platgen, "model", path], capture_output=True, text=True, check=False)
    if res.returncode != 0:
        why = (res.stderr.strip().splitlines() or ["no message"])[0]
        raise PlatformError(f"invalid platform description {path}: {why}")
    return parse_model(res.stdout, f"platgen model {path}")
