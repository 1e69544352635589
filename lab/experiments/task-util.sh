#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# What PELT makes of one periodic task on one CPU at fixed OPPs: the
# utilization the scheduler's fit tests, placement and schedutil read.
# One rt-app task of RUN us of work at speed 1024 every 16 ms (nominal
# utilization RUN x 1024 / 16000), pinned to CPU; its policy is held at
# each OPP of KHZ... in turn (0: schedutil free) for 2 s, and the task's
# util_avg and util_est are averaged over 20 samples in the second one.
# EXIT on or off: the lab's idle-state exit latency
# (/sys/module/lab_emu/parameters/exit_latency) for the whole run.
# One line per OPP:
#   task-util cpu CPU held KHZ util_avg_mean A util_est_mean E cur CUR
#
# Usage (guest): task-util.sh EXIT RUN CPU KHZ...
#   e.g. lab/run -p hikey960 lab/experiments/task-util.sh on 5486 4 903000 2362000
set -eu
[ $# -ge 4 ] || { echo "usage: task-util.sh on|off RUN_US CPU KHZ..." >&2; exit 2; }
exitlat=$1 run=$2 cpu=$3
shift 3
case $exitlat in
on) v=Y ;;
off) v=N ;;
*) echo "task-util.sh: EXIT is on or off, not '$exitlat'" >&2; exit 2 ;;
esac
echo "$v" >/sys/module/lab_emu/parameters/exit_latency
pol=''
for p in /sys/devices/system/cpu/cpufreq/policy*; do
	if grep -qw "$cpu" "$p/related_cpus"; then pol=$p; fi
done
[ -n "$pol" ] || { echo "task-util.sh: no cpufreq policy has CPU $cpu" >&2; exit 1; }
max=$(cat "$pol/cpuinfo_max_freq") min=$(cat "$pol/cpuinfo_min_freq")
cat >/tmp/task-util.json <<JSON
{
	"tasks": { "t": { "loop": -1, "run": $run, "cpus": [$cpu],
		"timer": { "ref": "unique", "period": 16000 } } },
	"global": { "duration": $((4 * $# + 2)), "calibration": "CPU0",
		"default_policy": "SCHED_OTHER", "logdir": "/tmp", "log_basename": "task-util" }
}
JSON
rt-app /tmp/task-util.json >/tmp/task-util.out 2>&1 &
pid=$!
sleep 0.3
# rt-app's main thread, then the task's: the last one.
tid=$(for t in "/proc/$pid/task/"*; do echo "${t##*/}"; done | sort -n | tail -n 1)
[ "$tid" != "$pid" ] || { echo "task-util.sh: rt-app started no task" >&2; exit 1; }
for f in "$@"; do
	echo "$max" >"$pol/scaling_max_freq"
	if [ "$f" = 0 ]; then
		echo "$min" >"$pol/scaling_min_freq"
	else
		echo "$f" >"$pol/scaling_min_freq"
		echo "$f" >"$pol/scaling_max_freq"
	fi
	sleep 1
	i=0 sa=0 se=0
	while [ $i -lt 20 ]; do
		a=$(awk '$1 == "se.avg.util_avg" { print $3 }' "/proc/$tid/sched")
		e=$(awk '$1 == "se.avg.util_est" { print $3 }' "/proc/$tid/sched")
		sa=$((sa + a)) se=$((se + e))
		sleep 0.05
		i=$((i + 1))
	done
	echo "task-util cpu $cpu held $f util_avg_mean $((sa / 20)) util_est_mean $((se / 20)) cur $(cat "$pol/scaling_cur_freq")"
done
echo "$max" >"$pol/scaling_max_freq"
echo "$min" >"$pol/scaling_min_freq"
wait "$pid"
