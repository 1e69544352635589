#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The series in the booted guest: its KUnit suites pass, the policy
# sysctl takes valid values only, its trace events report decisions, a
# misfit task reaches a big CPU, and platforms that cannot run EAS (all
# CPUs alike, or a CPU without power data) boot with it off and refuse
# a policy.
set -eu
LAB_TOP=$(CDPATH='' cd -- "$(dirname -- "$0")/../.." && pwd)
# shellcheck source=tests/lib.sh
. "$LAB_TOP/tests/lib.sh"

DATA=$LAB_TOP/tests/guest/data
run=$LAB_TOP/lab/run
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Misfit migration: under the series, a never-sleeping task started on a
# little CPU must reach a big CPU in every run, within a bound.  Measured
# with the instruction clock (2026-12-03, 10 runs per policy, from the
# task's release, its utilization growing from zero): Juno r0 series
# 10-60 ms and once 730 ms, 6.12 10-70 ms; gs101 series 10-30 ms, 6.12
# 0-70 ms.  A task left stuck, as the RFC alone would leave it, never
# arrives (the guest polls about 6 s).  The bound is set well above the
# spread and far below "stuck"; both policies' times are printed as
# evidence, not compared.
MISFIT_REPS=3
MISFIT_BOUND_MS=2000

guest() {
	name=$1
	shift
	if "$run" -q -T 120 -o "$tmp/$name" "$@" >"$tmp/$name.log" 2>&1; then
		return 0
	fi
	not_ok "$name: the guest run failed"
	tail -n 20 "$tmp/$name.log" | sed 's/^/    /'
	return 1
}

# KUnit runs at boot, before init: its KTAP is on the console.
if guest kunit idle; then
	tr -d '\r' <"$tmp/kunit/console.log" | sed 's/^\[[^]]*\] //' >"$tmp/ktap"
	# sched_energy: synthetic data; sched_energy_live: the booted system.
	for suite in sched_energy sched_energy_live; do
		totals=$(grep -m1 "^# $suite: pass:" "$tmp/ktap" || true)
		check "KUnit $suite suite ran: ${totals:-no result line}" \
			sh -c "echo '$totals' | grep -q 'pass:[1-9][0-9]* fail:0 skip:0'"
	done
	fails=$(grep -c '^ *not ok' "$tmp/ktap" || true)
	check "KUnit: no failing case ($fails not ok)" [ "$fails" -eq 0 ]
	grep '^ *not ok' "$tmp/ktap" | sed 's/^/    /' || true
	# fair.c's side (patches 16 and 25): each case ran and passed, none
	# skipped.
	for case in energy_sd_choice sd_flag_set_clear_propagate \
		sd_flag_top_level_has_no_parent \
		sd_flag_marked_by_cpu_and_misfit sd_flag_cleared_when_all_idle \
		load_balance_skips_quiet_domains policy_switch \
		policy_switch_resets_rd_flag place_leaves_prev_not_allowed \
		place_leaves_busy_prev_only_fit; do
		check "KUnit $case ok" grep -q "^ *ok [0-9]* $case\$" "$tmp/ktap"
	done
	# The case allows "not placed" (the thread may not fit its CPU);
	# on Juno r0 its CPU is an idle big one, so it must place.
	line=$(grep -m1 '# place_leaves_prev_not_allowed: prev CPU' "$tmp/ktap" || true)
	check "KUnit: a thread bound off prev_cpu placed on its CPU (${line#*: })" \
		sh -c "echo '$line' | grep -q 'placed on'"
fi

# Patch 2 on NUMA: the KUnit suite's topology case checks the domains the
# kernel booted.  numa-ring8's overlapping spans share a first CPU;
# numa-kite8 also has one span at two levels.  Keyed by first CPU, the
# case fails on both (measured: 12 and 8 pairs of domains share an
# instance across different spans, and 16 pairs split one span on
# numa-kite8).
for plat in numa-ring8 numa-kite8; do
	guest "kunit-$plat" -p "$plat" idle || continue
	tr -d '\r' <"$tmp/kunit-$plat/console.log" |
		sed 's/^\[[^]]*\] //' >"$tmp/ktap"
	line=$(grep -m1 '# sd_shared_follows_span: [0-9]* domains' "$tmp/ktap" || true)
	check "$plat: the KUnit topology case saw overlapping domains (${line:-no count})" \
		sh -c "echo '$line' | grep -q ', [1-9][0-9]* overlapping'"
	check "$plat: one sched_domain_shared per span (KUnit sd_shared_follows_span ok)" \
		grep -q '^ *ok [0-9]* sd_shared_follows_span' "$tmp/ktap"
	grep -A5 'sd_shared_follows_span: EXPECTATION FAILED' "$tmp/ktap" |
		sed 's/^/    /' || true
done

if guest sysctl "$DATA/sysctl-policy.sh"; then
	out=$tmp/sysctl/experiment.log
	check "kernel.sched_energy_policy defaults to 2 (this series)" grep -qx 'default 2' "$out"
	for v in 0 1 2; do
		check "kernel.sched_energy_policy accepts $v" grep -qx "accepted $v" "$out"
	done
	n=$(grep -c '^refused-bad' "$out" || true)
	check "kernel.sched_energy_policy refuses 6 bad writes, value unchanged ($n refused)" [ "$n" -eq 6 ]
	grep -E '^(accepted|changed)-bad' "$out" | sed 's/^/    /' || true
	# Patch 12 tips upper domains by group by default.
	for f in ENERGY_SD_FLAG:1 ENERGY_SD_SEARCH:1 ENERGY_MARGIN:1 ENERGY_SD_ANY_CPU:0 \
		ENERGY_LEAVE_BUSY_PREV:1 ENERGY_LEAVE_BUSY_ONLY_FIT:1; do
		d=${f#*:} f=${f%:*}
		check "scheduler feature $f $([ "$d" = 1 ] && echo on || echo off) by default, turns off and on" \
			grep -qx "feature $f default $d off 1 on 1" "$out"
	done
fi

if guest trace -e sched:sched_energy_wakeup,sched:sched_overutilized_sd \
	"$DATA/user-rtapp.json"; then
	trace-cmd report -i "$tmp/trace/trace.dat" 2>/dev/null >"$tmp/report" || true
	n=$(grep -c 'sched_energy_wakeup:.*candidates=[1-9]' "$tmp/report" || true)
	check "sched_energy_wakeup reports wake-ups with candidates ($n)" [ "$n" -gt 0 ]
	grep -m2 'sched_energy_wakeup:' "$tmp/report" | sed 's/^ */    /' || true
fi
if guest ou -e sched:sched_overutilized_sd hackbench --pipe --threads -g 2 -l 300; then
	trace-cmd report -i "$tmp/ou/trace.dat" 2>/dev/null >"$tmp/report" || true
	on=$(grep -c 'sched_overutilized_sd:.*overutilized=1' "$tmp/report" || true)
	off=$(grep -c 'sched_overutilized_sd:.*overutilized=0' "$tmp/report" || true)
	check "hackbench marks domains overutilized ($on) and they clear ($off)" \
		sh -c "[ $on -gt 0 ] && [ $off -gt 0 ]"
fi
# 6.12's flag, through lab patch 5's event, under 6.12's policy: the
# series' policy skips the root balance that clears it while the top
# domain's own flag is clear.  Three runs with a pause after each: what
# clears the flag is a root-level balance that finds no CPU over the
# margin, as a CPU going idle runs one (newly idle balance); after a
# single run the flag was left set, never cleared, in 1 of 3 boots.
if guest ou-rd -e sched:sched_overutilized_rd cmd \
	'echo 1 >/proc/sys/kernel/sched_energy_policy && for i in 1 2 3; do hackbench --pipe --threads -g 2 -l 100 && sleep 0.1; done'; then
	trace-cmd report -i "$tmp/ou-rd/trace.dat" 2>/dev/null >"$tmp/report" || true
	on=$(grep -c 'sched_overutilized_rd:.*overutilized=1' "$tmp/report" || true)
	off=$(grep -c 'sched_overutilized_rd:.*overutilized=0' "$tmp/report" || true)
	check "hackbench under 6.12's policy sets the root domain's flag ($on) and clears it ($off)" \
		sh -c "[ $on -gt 0 ] && [ $off -gt 0 ]"
fi

# The same flag under the series' policy, which skips that root balance:
# after hackbench and a pause it may be left set with every CPU idle, and
# a switch to 6.12's policy must not leave 6.12's EAS off.  "set at the
# switch" is the flag's state at the switch's trace marker, "cleared
# after" the time to its first clear, "set at the end" its state when the
# guest stops.  End to end: before patch 4 reset it on the switch, the
# writer's newly idle balance cleared it too (113 us after, 2026-12-07),
# which needs rd->overloaded set; KUnit's policy_switch_resets_rd_flag
# tests the reset itself.
RD_RESET_BOUND_MS=20
if guest rd-reset -e sched:sched_overutilized_rd cmd \
	'hackbench --pipe --threads -g 2 -l 100 && sleep 0.5 &&
	echo rd-switch >/sys/kernel/tracing/trace_marker &&
	echo 1 >/proc/sys/kernel/sched_energy_policy && sleep 0.5 &&
	echo rd-end >/sys/kernel/tracing/trace_marker'; then
	trace-cmd report -i "$tmp/rd-reset/trace.dat" 2>/dev/null >"$tmp/report" || true
	# "STALE CLEAR_US END", CLEAR_US -1 if no clear followed the switch.
	res=$(awk '
	/tracing_mark_write: rd-switch/ { t0 = $3 + 0; stale = up + 0; seen = 1 }
	/tracing_mark_write: rd-end/ { done = 1 }
	/sched_overutilized_rd:/ && !done {
		v = ($0 ~ /overutilized=1/)
		if (seen && !v && clear < 0) clear = int(($3 - t0) * 1e6)
		up = v
	}
	BEGIN { clear = -1 }
	END { if (seen) print stale, clear, up + 0 }' "$tmp/report")
	# shellcheck disable=SC2086 # three numbers, split on purpose
	set -- ${res:-x x x}
	ok=no
	if [ "$1" = 0 ] && [ "$3" = 0 ]; then
		ok=yes
	elif [ "$1" = 1 ] && [ "$3" = 0 ] && [ "$2" -ge 0 ] &&
		[ "$2" -le $((RD_RESET_BOUND_MS * 1000)) ]; then
		ok=yes
	fi
	check "a switch to 6.12's policy clears the root domain's flag within $RD_RESET_BOUND_MS ms (set at the switch: ${1}; cleared after: ${2} us; set at the end: ${3})" \
		[ "$ok" = yes ]
fi

# A CPU's capacity (what RT, DL, IRQ and HW pressure leave to CFS) is
# refreshed by the balance of its domains, which the series' policy skips
# below the tipping point; patch 4 refreshes it there all the same, or
# cpu_overutilized() would never see an RT task squeeze the CPU.  An RT
# task busy half of every 16 ms on little CPU 0, nothing else running:
# while CPU 0's lowest domain is not flagged (its balance skipped), CPU
# 0's capacity (lab patch 5's sched:sched_cpu_capacity) must be refreshed
# at least RT_CAP_UPDATES times in the 2 s (at least every 128 ms: the
# busy balance interval of a 4-CPU level) and fall below the capacity
# margin (80%) of its original capacity.  Measured (2026-12-07): without
# the refresh no update at all.
RT_CAP_UPDATES=8
if guest rt-capacity -e sched:sched_cpu_capacity,sched:sched_overutilized_sd \
	"$DATA/rt-pressure.json"; then
	trace-cmd report -i "$tmp/rt-capacity/trace.dat" 2>/dev/null >"$tmp/report" || true
	# "ALL UPDATES MIN ORIG": capacity updates of any CPU, then CPU 0's
	# while its lowest domain (level 0, a span from CPU 0) is not flagged.
	res=$(awk '
	/sched_overutilized_sd:/ {
		lvl = ""; span = ""; v = ""
		for (i = 1; i <= NF; i++) {
			if ($i ~ /^level=/) lvl = substr($i, 7)
			if ($i ~ /^span=/) span = substr($i, 6)
			if ($i ~ /^overutilized=/) v = substr($i, 14) + 0
		}
		if (lvl == "0" && span ~ /^0([,-]|$)/) flagged = v
	}
	/sched_cpu_capacity:/ {
		all++
		if ($0 !~ / cpu=0 / || flagged) next
		for (i = 1; i <= NF; i++) {
			if ($i ~ /^capacity=/) c = substr($i, 10) + 0
			if ($i ~ /^capacity_orig=/) o = substr($i, 15) + 0
		}
		n++; if (min == "" || c < min) min = c
	}
	END { print all + 0, n + 0, (min == "" ? -1 : min), o + 0 }' "$tmp/report")
	# shellcheck disable=SC2086 # four numbers, split on purpose
	set -- $res
	check "the trace has capacity updates ($1)" [ "$1" -gt 0 ]
	ok=no
	if [ "$2" -ge "$RT_CAP_UPDATES" ] && [ "$3" -ge 0 ] &&
		[ $(($3 * 5)) -lt $(($4 * 4)) ]; then
		ok=yes
	fi
	check "an RT task squeezing CPU 0 shows in its capacity under the series ($2 updates while unflagged, at least $RT_CAP_UPDATES; lowest $3 of $4)" \
		[ "$ok" = yes ]
fi

# A spike marks the little cluster, and the domain above it, overutilized;
# the little CPUs then sleep in nohz, where only an idle balance, or the
# last CPU of a domain to stop its tick (patch 11), clears a flag.
# Measured (2026-12-05, lab/run -e sched:sched_overutilized_sd
# overutilized-nohz.sh LITTLES 500 1000 BIG 20 20, Juno r0 and HiKey960,
# from the spike's end to each flag's clearing):
# - with a light load on a big CPU, whose own balance covers the whole
#   system's level: littles' domain 0-31 and 0-51 ms, the whole system's
#   51-95 and 51-92 ms (without patch 11: 55-88, 51-87, 52-95, 51-95 ms);
# - with no load at all: littles' 0-20 and 0-6 ms, the whole system's
#   0-95 and 0-127 ms; without patch 11 the whole system's flag was still
#   up 1 s later in 8 and 12 runs of 20, the littles' in 3 and 6.
# The bound, for every flag in both cases, is well above the spread.
OU_REPS=3
OU_IDLE_REPS=3
OU_BOUND_MS=500
if guest ou-nohz -e sched:sched_overutilized_sd "$DATA/overutilized-nohz.sh" \
	0,3,4,5 500 1000 1 "$OU_REPS" "$OU_IDLE_REPS"; then
	trace-cmd report -i "$tmp/ou-nohz/trace.dat" 2>/dev/null >"$tmp/report" || true
	# Per run, each flag up at the spike's end or raised after it:
	# "RUN loaded|idle SPAN MS" (MS "still" if up at the run's end).
	awk -v loaded="$OU_REPS" '
	/tracing_mark_write: spike-end/ {
		t0 = $3 + 0; rep = $NF
		split("", cleared); split("", seen)
		for (s in up) if (up[s]) seen[s] = 1
	}
	/tracing_mark_write: run-end/ {
		for (s in seen)
			print rep, rep <= loaded ? "loaded" : "idle", s, (s in cleared) ? cleared[s] : "still"
		t0 = ""
	}
	/sched_overutilized_sd:/ {
		match($0, /span=[^ ]*/)
		s = substr($0, RSTART + 5, RLENGTH - 5)
		up[s] = /overutilized=1/
		if (t0 == "") next
		if (up[s]) seen[s] = 1
		else if (!(s in cleared)) cleared[s] = int(($3 - t0) * 1000)
	}' "$tmp/report" >"$tmp/ou-nohz.txt"
	sed 's/^/    /' "$tmp/ou-nohz.txt"
	for load in loaded idle; do
		want=$OU_REPS
		[ "$load" = loaded ] || want=$OU_IDLE_REPS
		runs=$(awk -v l="$load" '$2 == l { print $1 }' "$tmp/ou-nohz.txt" | sort -u | wc -l)
		late=$(awk -v l="$load" -v b="$OU_BOUND_MS" \
			'$2 == l && ($4 == "still" || $4 > b)' "$tmp/ou-nohz.txt" | wc -l)
		check "$load: every overutilized flag clears within ${OU_BOUND_MS} ms of a spike ($runs of $want runs flagged, $late late)" \
			sh -c "[ $runs -eq $want ] && [ $late -eq 0 ]"
	done
fi

# Juno r0: CPU 0 is a little A53, CPUs 1-2 are the big A57s.
if guest misfit "$DATA/misfit.sh" 0 '1 2' "$MISFIT_REPS"; then
	out=$tmp/misfit/experiment.log
	sed 's/^/    /' "$out" | grep misfit || true
	mean() {
		sed -n "s/^misfit policy $1: cpu[12] after \([0-9]*\) ms/\1/p" "$out" |
			awk -v n="$MISFIT_REPS" '{ s += $1; c++ } END { if (c == n) printf "%d", s / c; else print "none" }'
	}
	rd=$(mean 1) sd=$(mean 2)
	worst=$(sed -n 's/^misfit policy 2: cpu[12] after \([0-9]*\) ms/\1/p' "$out" | sort -n | tail -n 1)
	n=$(grep -c '^misfit policy 2: cpu[12] after' "$out" || true)
	check "misfit task reaches a big CPU in all $MISFIT_REPS runs within ${MISFIT_BOUND_MS} ms (series: worst ${worst:-none} ms, mean ${sd} ms; 6.12: mean ${rd} ms)" \
		sh -c "[ $n -eq $MISFIT_REPS ] && [ ${worst:-99999} -le $MISFIT_BOUND_MS ]"
fi

# shellcheck disable=SC2016 # expanded in the guest
if guest symmetric -p "$LAB_TOP/tests/host/good/symmetric.plat" \
	cmd 'f=/proc/sys/kernel/sched_energy_policy; b=$(cat $f); if echo 1 >$f; then echo policy-write-accepted; fi; echo "policy $b -> $(cat $f)"'; then
	check "symmetric platform: EAS stays off" \
		sh -c "! grep -q 'sched_energy_set: starting EAS' '$tmp/symmetric/console.log'"
	out=$tmp/symmetric/experiment.log
	check "symmetric platform: kernel.sched_energy_policy refuses a write ($(grep -m1 '^policy ' "$out" || echo 'no result'))" \
		sh -c "grep -qx 'policy 2 -> 2' '$out' && ! grep -q policy-write-accepted '$out'"
	grep -i 'not supported\|write error' "$out" | sed 's/^/    /' || true
fi
if guest nopower -p "$LAB_TOP/tests/host/good/no-power.plat" idle; then
	check "a CPU without power data: EAS off, with a message naming it" \
		sh -c "grep -q 'no EM found for CPU[0-9]' '$tmp/nopower/console.log' &&
		       ! grep -q 'sched_energy_set: starting EAS' '$tmp/nopower/console.log'"
fi
tests_done
