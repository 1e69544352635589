#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Guest side of the behaviour tests (lab/behaviour/run.sh bundles it with
# the workloads into one experiment): each test of DIR/tests.list, REPS
# times under each placement policy, the policies interleaved and their
# order rotated from one repetition to the next so that drift and order
# hit them alike; then the misfit scenario (tests/guest/data/misfit.sh).
#
# The events go to the ring buffer only while a workload runs, between
# markers "behaviour: begin|end TEST-pP-rR", and are extracted once per
# test, because trace-cmd record's readers would wake up every CPU every
# millisecond, the noise LISA's tests refuse, and an extract costs 2.4 s.
# Results under /results/behaviour: TEST.dat (trace) and TEST-pP-rR/
# (rt-app logs).  Prints one line per run, "run TEST-pP-rR: rt-app exit S".
#
# Usage (guest): guest.sh DIR REPS MISFIT_LITTLE 'MISFIT_BIGS' MISFIT_REPS
set -eu
dir=$1 reps=$2 misfit_little=$3 misfit_bigs=$4 misfit_reps=$5

TRACEFS=/sys/kernel/tracing
EVENTS='sched/sched_switch sched/sched_overutilized_sd sched/sched_energy_wakeup'
POLICIES='0 1 2'
# Over-utilization is a scenario, not a score: the series and 6.12's EAS.
OU_POLICIES='2 1'
# How long the flags are watched after the load drops (s).
OU_SETTLE_S=1.5
out=/results/behaviour
logs=/tmp/behaviour-logs
mkdir -p "$out" "$logs"

# trace-cmd extract resets the tracing state: set up again for each test.
enable_events() {
	echo 0 >"$TRACEFS/tracing_on"
	# Per CPU; the longest test (9 runs of 8 s) needs about 1 MB on a busy CPU.
	echo 8192 >"$TRACEFS/buffer_size_kb"
	for e in $EVENTS; do
		echo 1 >"$TRACEFS/events/$e/enable"
	done
	: >"$TRACEFS/trace"
}

mark() {
	echo "behaviour: $*" >"$TRACEFS/trace_marker"
}

# run_one TEST KIND POLICY REP
run_one() {
	id=$1-p$3-r$4
	echo "$3" >/proc/sys/kernel/sched_energy_policy
	rm -f "$logs"/*.log
	# The previous run's CPU utilization decays (32 ms half-life).
	sleep 0.3
	echo 1 >"$TRACEFS/tracing_on"
	mark "begin $id"
	st=0
	rt-app "$dir/$1.json" >"$out/$id.rt-app.txt" 2>&1 || st=$?
	if [ "$2" = ou ]; then
		mark "load-end $id"
		sleep "$OU_SETTLE_S"
	fi
	mark "end $id"
	echo 0 >"$TRACEFS/tracing_on"
	mkdir -p "$out/$id"
	cp "$logs"/*.log "$out/$id/" 2>/dev/null || true
	echo "run $id: rt-app exit $st"
}

# rotated N WORD...: the words turned left N times.
rotated() {
	n=$1
	shift
	while [ "$n" -gt 0 ]; do
		first=$1
		shift
		set -- "$@" "$first"
		n=$((n - 1))
	done
	echo "$@"
}

while read -r name kind _; do
	case $kind in ou) policies=$OU_POLICIES ;; *) policies=$POLICIES ;; esac
	enable_events
	r=1
	while [ "$r" -le "$reps" ]; do
		# shellcheck disable=SC2086 # a list of words
		for p in $(rotated $((r - 1)) $policies); do
			run_one "$name" "$kind" "$p" "$r"
		done
		r=$((r + 1))
	done
	trace-cmd extract -o "$out/$name.dat" >/dev/null 2>&1 ||
		echo "trace-cmd extract failed for $name" >&2
done <"$dir/tests.list"

for e in $EVENTS; do
	echo 0 >"$TRACEFS/events/$e/enable"
done
sh "$dir/misfit.sh" "$misfit_little" "$misfit_bigs" "$misfit_reps"
echo 2 >/proc/sys/kernel/sched_energy_policy
