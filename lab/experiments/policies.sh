#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The seed's energy test under each placement policy, in one boot: N
# periodic rt-app tasks (16 ms period, 800 us of work at speed 1024, i.e.
# 5% of the biggest CPU), DURATION seconds, REPS times per policy, the
# policies interleaved so that drift hits them alike.  Prints one line per
# run: "policy P rep R energy_uj E".
#
# Usage (guest): policies.sh [N [DURATION [REPS]]]   (default 10 10 3)
set -eu
n=${1:-10} duration=${2:-10} reps=${3:-3}
names='0:none 1:6.12 2:series'

cat >/tmp/policies.json <<JSON
{
	"tasks": { "small": { "instance": $n, "loop": -1, "run": 800,
		"timer": { "ref": "unique", "period": 16000 } } },
	"global": { "duration": $duration, "calibration": "CPU0",
		"logdir": "/tmp", "log_basename": "policies" }
}
JSON

total_uj() {
	lab-energy | awk '$1 == "total" { print $2 }'
}

[ -n "$(total_uj)" ] || { echo "no energy meter" >&2; exit 1; }
r=1
while [ "$r" -le "$reps" ]; do
	for p in 0 1 2; do
		echo "$p" >/proc/sys/kernel/sched_energy_policy
		sleep 1
		e0=$(total_uj)
		rt-app /tmp/policies.json >/dev/null 2>&1
		e1=$(total_uj)
		for m in $names; do
			[ "${m%%:*}" = "$p" ] && name=${m#*:}
		done
		echo "policy $p ($name) rep $r energy_uj $((e1 - e0))"
	done
	r=$((r + 1))
done
echo 2 >/proc/sys/kernel/sched_energy_policy
