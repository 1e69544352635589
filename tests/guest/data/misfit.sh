#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Guest side of tests/guest/series.sh: a task that never sleeps, started on
# little CPU $1 and then allowed everywhere, must reach one of the big CPUs
# $2 once its utilization outgrows the little CPU.  Measured $3 times under each placement policy, 6.12's (1) and the
# series' (2), in this boot.  Prints "misfit policy P: cpuN after M ms".
set -u
little=$1 bigs=$2 reps=$3

one() {
	taskset -c "$little" sh -c 'while :; do :; done' &
	pid=$!
	# Pinned just long enough to start on the little CPU.  Held there
	# longer, every load balance of the big CPUs' level fails with
	# LBF_ALL_PINNED and doubles that level's balance interval, up to
	# 512 ms: the release would then measure the backoff, not misfit
	# migration (0.3 s of pinning: 480-1089 ms on Juno r0, both policies).
	sleep 0.01
	taskset -p -c "0-$(($(nproc) - 1))" "$pid" >/dev/null
	start=$(cut -d' ' -f1 /proc/uptime)
	cpu=$little
	i=0
	while [ $i -lt 600 ]; do
		cpu=$(cut -d' ' -f39 "/proc/$pid/stat")
		case " $bigs " in *" $cpu "*) break ;; esac
		sleep 0.01
		i=$((i + 1))
	done
	end=$(cut -d' ' -f1 /proc/uptime)
	kill "$pid"
	wait "$pid" 2>/dev/null
	echo "cpu$cpu after $(echo "$start $end" | awk '{ printf "%d", ($2 - $1) * 1000 }') ms"
}

for policy in 1 2; do
	echo "$policy" >/proc/sys/kernel/sched_energy_policy
	r=0
	while [ $r -lt "$reps" ]; do
		echo "misfit policy $policy: $(one)"
		r=$((r + 1))
	done
done
