#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Where the run-to-run spread of the seed workload's energy comes from.
# The same workload (N periodic tasks, 16 ms period, 800 us of work at
# speed 1024) runs REPS times in each of three setups, interleaved so
# that drift hits them alike, each one removing a source of variation:
#   free     schedutil, placement by the scheduler (the experiment as run)
#   fixedopp every domain held at its lowest OPP (userspace governor):
#            only placement varies
#   pinned   lowest OPPs and each task pinned to a LITTLE CPU, round
#            robin: neither OPP nor placement varies, what is left is the
#            emulation and the meter
# One line per run: "setup S rep R energy_uj E wall_ms T", then per
# setup "summary S mean_uj M rsd_pct R".
#
# Usage (guest): energy-noise.sh [N [DURATION [REPS]]]   (default 10 10 5)
set -eu
n=${1:-10} duration=${2:-10} reps=${3:-5}
CPUS=/sys/devices/system/cpu

# rtapp_json PINNED: the workload, one task entry per task so that each
# can have its own CPU when PINNED is 1 (CPU0's domain is the LITTLEs on
# every lab platform).
rtapp_json() {
	littles=$(cat "$CPUS/cpufreq/policy0/related_cpus")
	echo '{ "tasks": {'
	i=0
	while [ "$i" -lt "$n" ]; do
		cpus=''
		[ "$1" = 1 ] && cpus="\"cpus\": [$(echo "$littles" |
			awk -v i="$i" '{ print $(i % NF + 1) }')],"
		[ "$i" -gt 0 ] && echo ','
		echo "\"t$i\": { $cpus \"loop\": -1, \"run\": 800,"
		echo '"timer": { "ref": "unique", "period": 16000 } }'
		i=$((i + 1))
	done
	echo "}, \"global\": { \"duration\": $duration, \"calibration\": \"CPU0\","
	echo '"logdir": "/tmp", "log_basename": "noise" } }'
}

set_governor() {
	for p in "$CPUS"/cpufreq/policy*; do
		echo "$1" >"$p/scaling_governor"
		[ "$1" = userspace ] &&
			cat "$p/cpuinfo_min_freq" >"$p/scaling_setspeed"
	done
	return 0
}

total_uj() {
	lab-energy | awk '$1 == "total" { print $2 }'
}

now_ms() {
	read -r ns _ </dev/lab-work
	echo $((ns / 1000000))
}

[ -n "$(total_uj)" ] || { echo "energy-noise: no energy meter" >&2; exit 1; }
rtapp_json 0 >/tmp/noise-free.json
rtapp_json 1 >/tmp/noise-pinned.json
r=1
while [ "$r" -le "$reps" ]; do
	for setup in free fixedopp pinned; do
		case $setup in
		free) set_governor schedutil; json=/tmp/noise-free.json ;;
		fixedopp) set_governor userspace; json=/tmp/noise-free.json ;;
		pinned) set_governor userspace; json=/tmp/noise-pinned.json ;;
		esac
		sleep 1
		e0=$(total_uj) t0=$(now_ms)
		rt-app "$json" >/dev/null 2>&1
		e1=$(total_uj) t1=$(now_ms)
		echo "setup $setup rep $r energy_uj $((e1 - e0)) wall_ms $((t1 - t0))"
	done
	r=$((r + 1))
done | tee /tmp/noise.log
set_governor schedutil
# Busybox awk has no sqrt(): Newton's method.
awk 'function root(x, r, i) { if (x <= 0) return 0
		r = x; for (i = 0; i < 60; i++) r = (r + x / r) / 2; return r }
	$1 == "setup" { s[$2] += $6; q[$2] += $6 * $6; k[$2]++ }
	END { for (x in s) { m = s[x] / k[x]
		v = k[x] > 1 ? (q[x] - k[x] * m * m) / (k[x] - 1) : 0
		printf "summary %s mean_uj %.0f rsd_pct %.2f\n", x, m,
			root(v) / m * 100 } }' /tmp/noise.log
