#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Guest side of tests/guest/fidelity.sh: measures and prints one line per
# result; the host suite computes the expectations and errors.
# Usage: fidelity-guest.sh SEED_JSON RUNS
#   SEED_JSON  the rt-app file of check (d), as text
#   RUNS       how many times (d) runs it
# shellcheck disable=SC2016 # the sh -c scripts expand in the child
set -eu
seed=$1 runs=$2
CPUS=/sys/devices/system/cpu
W=200000000       # (a): 200 ms of work at speed 1024
WB=500000000      # (b)
WC=1000000000     # (c)

set_gov() {
	for p in "$CPUS"/cpufreq/policy*; do echo "$1" >"$p/scaling_governor"; done
}

# timed_work CPU NS: guest ns that NS of work took on CPU.
timed_work() {
	taskset -c "$1" sh -c 'read -r a _ </dev/lab-work; echo "$1" >/dev/lab-work
		read -r b _ </dev/lab-work; echo $((b - a))' sh "$2"
}

# energy_file LABEL: the meter's energyN_input of that channel.
energy_file() {
	for l in /sys/class/hwmon/hwmon*/energy*_label; do
		[ "$(cat "$l")" = "$1" ] && { echo "${l%_label}_input"; return 0; }
	done
	return 1
}

first_cpu() { cut -d' ' -f1 "$1/related_cpus"; }

# The host boots this with lab_emu.em_meter=1 cpuidle.off=1: the lab as
# it was before the board's meter, whose figures must be reproduced (e).
set_gov userspace
# (a) each CPU type at its lowest and top OPP
for p in "$CPUS"/cpufreq/policy*; do
	cpu=$(first_cpu "$p")
	for f in "$(cat "$p/cpuinfo_min_freq")" "$(cat "$p/cpuinfo_max_freq")"; do
		echo "$f" >"$p/scaling_setspeed"
		echo "a ${p##*/} $cpu $(cat "$CPUS/cpu$cpu/cpu_capacity") $f $(cat "$p/cpuinfo_max_freq") $W $(timed_work "$cpu" "$W")"
	done
	cat "$p/cpuinfo_max_freq" >"$p/scaling_setspeed"
done

# (b) 4 tasks on the 4 CPUs of a domain vs 1 task on one of them
for p in "$CPUS"/cpufreq/policy*; do
	# shellcheck disable=SC2046 # the CPU list is words
	set -- $(cat "$p/related_cpus")
	[ $# -ge 4 ] && break
done
four="$1 $2 $3 $4"
# spawn_work "CPU..." NS: one task per CPU doing NS of work, started
# together (they wait on a FIFO the parent opens once all are spawned);
# prints the guest ns from the first start to the last end of the work.
spawn_work() {
	rm -f /tmp/go /tmp/spans && mkfifo /tmp/go
	for c in $1; do
		taskset -c "$c" sh -c 'read -r _ </tmp/go; read -r a _ </dev/lab-work
			echo "$1" >/dev/lab-work; read -r b _ </dev/lab-work
			echo "$a $b" >>/tmp/spans' sh "$2" &
	done
	sleep 0.2
	echo go >/tmp/go
	wait
	awk 'NR == 1 || $1 < s { s = $1 } NR == 1 || $2 > e { e = $2 } END { print e - s }' /tmp/spans
}
echo "b ${p##*/} $WB $(spawn_work "$1" "$WB") $(spawn_work "$four" "$WB")"

# (c) energy of one CPU at a fixed OPP for a known busy time, no stall
p=$CPUS/cpufreq/policy$(first_cpu "$p")
cpu=$2
# shellcheck disable=SC2046 # the frequency list is words
set -- $(cat "$p/scaling_available_frequencies")
f=${3:-$1}
echo "$f" >"$p/scaling_setspeed"
echo 0 >/sys/module/lab_emu/parameters/stall
ef=$(energy_file "cpu$cpu")
res=$(taskset -c "$cpu" sh -c 'read -r e0 <"$1"; read -r t0 _ </dev/lab-work
	echo "$2" >/dev/lab-work
	read -r t1 _ </dev/lab-work; read -r e1 <"$1"; echo "$((e1 - e0)) $((t1 - t0))"' sh "$ef" "$WC")
echo "c ${p##*/} $cpu $(cat "$CPUS/cpu$cpu/cpu_capacity") $f $(cat "$p/cpuinfo_max_freq") $WC $res"
echo 1 >/sys/module/lab_emu/parameters/stall

# Item 3: real instructions are slowed too (hackbench on one CPU of each type)
for p in "$CPUS"/cpufreq/policy*; do
	cat "$p/cpuinfo_max_freq" >"$p/scaling_setspeed"
done
for p in "$CPUS"/cpufreq/policy*; do
	cpu=$(first_cpu "$p")
	t=$(taskset -c "$cpu" hackbench --pipe --threads -g 1 -f 5 -l 1000 | sed -n 's/^Time: //p')
	echo "h ${p##*/} $cpu $(cat "$CPUS/cpu$cpu/cpu_capacity") $t"
done

# (d) the seed's workload, RUNS times, energy per run
set_gov schedutil
mkdir -p /tmp/seed && cd /tmp/seed
printf '%s\n' "$seed" >seed.json
ef=$(energy_file total)
i=0
while [ "$i" -lt "$runs" ]; do
	i=$((i + 1))
	read -r e0 <"$ef"
	read -r t0 _ </dev/lab-work
	rt-app seed.json >/dev/null 2>&1
	read -r t1 _ </dev/lab-work
	read -r e1 <"$ef"
	echo "d $i $((e1 - e0)) $((t1 - t0))"
done
