#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The energy test's tasks (lab/experiments/bench.sh energy: N periodic
# rt-app tasks, 16 ms period, 800 us of work at speed 1024) for DURATION
# seconds under the series with one of its scheduler features off, for a
# traced run of one variant of lab/bench -V; then the meter's reading.
#
# Usage (guest): feature-off.sh FEATURE [N [DURATION]]   (default 256 2)
#   e.g. lab/run -p dynamiq64 -e sched:sched_energy_wakeup feature-off.sh ENERGY_SD_ANY_CPU
set -eu
[ $# -ge 1 ] || { echo "usage: feature-off.sh FEATURE [N [DURATION]]" >&2; exit 2; }
feature=$1 n=${2:-256} duration=${3:-2}
features=/sys/kernel/debug/sched/features
grep -qw "$feature" "$features" ||
	{ echo "no scheduler feature $feature in $features: not the series' kernel" >&2; exit 1; }
echo 2 >/proc/sys/kernel/sched_energy_policy
echo "NO_$feature" >"$features"
cat >/tmp/feature-off.json <<JSON
{
	"tasks": { "small": { "instance": $n, "loop": -1, "run": 800,
		"timer": { "ref": "unique", "period": 16000 } } },
	"global": { "duration": $duration, "calibration": "CPU0",
		"logdir": "/tmp", "log_basename": "feature-off" }
}
JSON
rc=0
rt-app /tmp/feature-off.json >/dev/null 2>&1 || rc=$?
echo "$feature" >"$features"
[ "$rc" = 0 ] || { echo "rt-app failed ($rc)" >&2; exit 1; }
lab-energy
