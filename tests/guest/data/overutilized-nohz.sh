#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Guest side of tests/guest/series.sh: how long a cluster stays marked
# overutilized after a short spike, while its CPUs sit idle in nohz.
# Busy loops on every CPU of $1 (comma separated) for $2 ms make those
# CPUs overutilized; then the loops sleep (stopped) for $3 ms while a
# light load runs on CPU $4 alone (a few hundred shell steps every 20 ms;
# "-": no load at all), $5 times; then $6 times more (default 0) with no
# load at all.  Trace markers "spike-end R" and "run-end R" frame each
# interval, R counting on through both phases; the flags' changes are in
# the trace (sched:sched_overutilized_sd).
set -eu
cpus=$(echo "$1" | tr ',' ' ') spike_ms=$2 run_ms=$3 light_cpu=$4 reps=$5
idle_reps=${6:-0}
marker=/sys/kernel/tracing/trace_marker
[ -w "$marker" ] || marker=/sys/kernel/debug/tracing/trace_marker
secs() { echo "$1" | awk '{ printf "%.3f", $1 / 1000 }'; }

echo 2 >/proc/sys/kernel/sched_energy_policy

light=
if [ "$light_cpu" != - ]; then
	# shellcheck disable=SC2016 # expanded by the light task's shell
	taskset -c "$light_cpu" sh -c \
		'while :; do i=0; while [ $i -lt 300 ]; do i=$((i + 1)); done; sleep 0.02; done' &
	light=$!
fi
sleep 0.2

r=1
while [ $r -le $((reps + idle_reps)) ]; do
	if [ $r -eq $((reps + 1)) ] && [ -n "$light" ]; then
		kill "$light"
		wait "$light" 2>/dev/null || true
		light=
	fi
	spikes=
	for c in $cpus; do
		taskset -c "$c" sh -c 'while :; do :; done' &
		spikes="$spikes $!"
	done
	sleep "$(secs "$spike_ms")"
	# The marker first: the flags are up while the loops run.  Then
	# stopped, not killed: a task that exits takes its utilization
	# with it, one that sleeps leaves it on its CPU to decay, as after
	# a real spike.
	echo "spike-end $r" >"$marker"
	# shellcheck disable=SC2086 # one pid per word
	kill -STOP $spikes
	sleep "$(secs "$run_ms")"
	echo "run-end $r" >"$marker"
	# shellcheck disable=SC2086
	kill -KILL $spikes
	# shellcheck disable=SC2086
	wait $spikes 2>/dev/null || true
	r=$((r + 1))
done
[ -z "$light" ] || { kill "$light"; wait "$light" 2>/dev/null || true; }
