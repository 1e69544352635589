#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Guest side of the board meter's checks in tests/guest/fidelity.sh, on
# tests/guest/data/board-fidelity.plat (little CPUs 0-1, big CPUs 2-3).
# Prints one line per measurement; the host computes expectations.
#   a-b NS UJ_CPU2 UJ_CPU3 UJ_CLUSTER2     the big domain idle for NS
#   b KHZ NS UJ_CPU2 UJ_CPU3 UJ_CLUSTER2   CPU 2 busy for NS at KHZ
#   b3 BUSY_NS EFF0_NS EFF1_NS EFF2_NS      CPU 3 meanwhile, from lab_emu/idle
#   d STATE MEDIAN_WU_LAT_US DEEP_NS NS    a periodic task on CPU 2 with WFI and
#                                          idle state STATE enabled, CPU 3
#                                          offline; the time its cluster was
#                                          in cluster-sleep over the run's NS
#   f STATE MEAN_UTIL_AVG SAMPLES          that task's util_avg meanwhile
# (d and f: a line per run, three runs of each STATE, interleaved.)
# The driving shell stays on CPU 0, so the big domain is left alone.
set -eu
[ -n "${LAB_ON_CPU0:-}" ] || LAB_ON_CPU0=1 exec taskset -c 0 sh "$0" "$@"
CPUS=/sys/devices/system/cpu

# channel LABEL: the lab_energy hwmon file of that channel.
channel() {
	for h in /sys/class/hwmon/hwmon*; do
		[ "$(cat "$h/name")" = lab_energy ] || continue
		for l in "$h"/energy*_label; do
			[ "$(cat "$l")" = "$1" ] && { echo "${l%_label}_input"; return 0; }
		done
	done
	echo "no lab_energy channel $1" >&2
	exit 1
}

c2=$(channel cpu2) c3=$(channel cpu3) k2=$(channel cluster2)
for p in "$CPUS"/cpufreq/policy*; do echo userspace >"$p/scaling_governor"; done
big=$CPUS/cpufreq/policy2
khz=$(cat "$big/cpuinfo_max_freq")
echo "$khz" >"$big/scaling_setspeed"

# (a), (b): the big domain idle for 2 s.  Builtins only between the reads.
sleep 1
read -r t0 _ </dev/lab-work
read -r e2 <"$c2"; read -r e3 <"$c3"; read -r k <"$k2"
sleep 2
read -r t1 _ </dev/lab-work
read -r f2 <"$c2"; read -r f3 <"$c3"; read -r l <"$k2"
echo "a-b $((t1 - t0)) $((f2 - e2)) $((f3 - e3)) $((l - k))"

# (b): CPU 2 busy for 1 s at the top OPP, measured on CPU 2 itself.  CPU 3
# stays idle but for the scheduler's own wake-ups (nohz idle balancing
# kicks an idle CPU while others have blocked load): its time busy and in
# each state as the meter counted it comes along, read at the same instants.
# shellcheck disable=SC2016 # expanded by the child shell
taskset -c 2 sh -c 'cpu3() {
		while read -r what cpu _ busy _ _ _ _ _ e0 e1 e2; do
			if [ "$what $cpu" = "cpu 3" ]; then
				echo "$busy $e0 $e1 $e2"
			fi
		done </sys/kernel/debug/lab_emu/idle
	}
	r0=$(cpu3)
	read -r e2 <"$1"; read -r e3 <"$2"; read -r k <"$3"
	read -r t0 _ </dev/lab-work
	echo t1000000000 >/dev/lab-work
	read -r t1 _ </dev/lab-work
	read -r f2 <"$1"; read -r f3 <"$2"; read -r l <"$3"
	r1=$(cpu3)
	echo "b $4 $((t1 - t0)) $((f2 - e2)) $((f3 - e3)) $((l - k))"
	set -- $r0 $r1
	echo "b3 $(($5 - $1)) $(($6 - $2)) $(($7 - $3)) $(($8 - $4))"' sh "$c2" "$c3" "$k2" "$khz"

# (d): a task of 1 ms every 20 ms on CPU 2: rt-app's wake-up latency with
# WFI and one deeper state enabled, and with WFI only; the lab models the
# exit latency only when asked to.  CPU 3 is offline meanwhile and CPU 2
# has one deep state at a time, so the cluster goes down exactly when CPU 2
# asks for cluster-sleep (with both online and both states enabled, one CI
# run woke as from cpu-sleep in two cluster-sleep runs of three).  That
# the cluster waits for all its CPUs is checked by (a) and (b) above.
echo Y >/sys/module/lab_emu/parameters/exit_latency
for p in "$CPUS"/cpufreq/policy*; do echo schedutil >"$p/scaling_governor"; done
cat >/tmp/d.json <<JSON
{
	"tasks": { "t": { "loop": -1, "run": 1000, "cpus": [2],
		"timer": { "ref": "t", "period": 20000 } } },
	"global": { "duration": 2, "calibration": "CPU0",
		"default_policy": "SCHED_OTHER", "logdir": "/tmp", "log_basename": "d" }
}
JSON
# cluster_deep: lab_emu's time of CPU 2's cluster in its deepest state.
cluster_deep() {
	awk '$1 == "cluster" && $2 == 2 { print $NF }' /sys/kernel/debug/lab_emu/idle
}
# periodic_run STATE: the task with WFI and idle state STATE of CPU 2.
periodic_run() {
	for s in 1 2; do
		if [ "$s" -eq "$1" ]; then v=0; else v=1; fi
		echo "$v" >"$CPUS/cpu2/cpuidle/state$s/disable"
	done
	rm -f /tmp/d-t-0.log
	read -r t0 _ </dev/lab-work
	k0=$(cluster_deep)
	(cd /tmp && exec taskset -c 0 rt-app /tmp/d.json >/dev/null 2>&1) &
	pid=$!
	# (f) its utilization in the second second, from its own thread (the
	# last one rt-app made): an exit latency is not the task's running time.
	sleep 1
	tid=$(for t in "/proc/$pid/task/"*; do echo "${t##*/}"; done | sort -n | tail -n 1)
	i=0 n=0 sum=0
	while [ $i -lt 10 ]; do
		u=$(awk '$1 == "se.avg.util_avg" { print $3 }' "/proc/$tid/sched" 2>/dev/null || true)
		if [ -n "$u" ]; then sum=$((sum + u)) n=$((n + 1)); fi
		i=$((i + 1))
		sleep 0.05
	done
	wait "$pid" || true
	k1=$(cluster_deep)
	read -r t1 _ </dev/lab-work
	echo "f $1 $((n ? sum / n : -1)) $n"
	# wu_lat is the last column; the first period starts from the call.
	med=$(awk '!/^#/ && ++n > 1 { print $NF }' /tmp/d-t-0.log | sort -n |
		awk '{ v[NR] = $1 } END { print NR ? v[int((NR + 1) / 2)] : -1 }')
	echo "d $1 $med $((k1 - k0)) $((t1 - t0))"
}

# The runs of the three alternate, so that what happens once in a boot
# (one run read 74 and another 81 against 51-61 for the rest of their
# boots, cause not found) falls on one run of one; the host takes each
# one's median.
echo 0 >"$CPUS/cpu3/online"
rep=0
while [ "$rep" -lt 3 ]; do
	for state in 2 1 0; do
		periodic_run "$state"
	done
	rep=$((rep + 1))
done
echo 1 >"$CPUS/cpu3/online"
