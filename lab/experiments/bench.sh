#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The seed's benchmarks, guest side, each placement policy
# switched through kernel.sched_energy_policy in this one boot, the
# policies interleaved and their order rotating every iteration, so that
# drift and position in the sequence hit every policy alike.
#
# Policies: 0 none, 1 6.12's EAS, 2 the series (kernel.sched_energy_policy),
# and b, the 2018 RFC's baseline: a 4.16-like kernel without EAS
# (sched_energy_policy 0 and the lab-only kernel.lab_wakeup_416 1: CFS
# wake-up on asymmetric CPUs as 4.16 did it).  Every other policy sets
# lab_wakeup_416 0.  And the series taken apart (its scheduler features,
# policy 2 with one part switched to 6.12's or the RFC's): 2m, no margin
# (NO_ENERGY_MARGIN); 2r, the root domain's tipping point for every level
# (NO_ENERGY_SD_FLAG); 2w, 6.12's search in the domain the per-domain flags
# choose (NO_ENERGY_SD_SEARCH); 2g, a domain above the lowest level
# overutilized only by a group beyond the margin as a whole or a misfit
# task, not by any one CPU (NO_ENERGY_SD_ANY_CPU); 2a, by any one CPU, the
# RFC's rule (ENERGY_SD_ANY_CPU); 2p, a busy previous CPU holds the task by
# the margin and ties as an idle one does (NO_ENERGY_LEAVE_BUSY_PREV); 2u,
# a busy previous CPU that is the only fit keeps the task
# (NO_ENERGY_LEAVE_BUSY_ONLY_FIT).  Every other policy restores the six
# features as the kernel booted with them.  SCHEDUTIL, for the whole boot: the utilization signals the
# kernel runs on, 6.12 (default: 6.12's), 4.16 (the RFC's:
# kernel.lab_util_416 1, every CFS reader of utilization, schedutil, the
# energy estimates and the fit and over-utilization tests, sees util_avg
# alone, no util_est, no runnable boost, as in 4.16) or 4.16su (schedutil
# alone in 4.16's mode, kernel.lab_schedutil_416 1: what "4.16" meant
# before kernel.lab_util_416 existed).  Both 4.16 modes also set 4.16's
# 10 ms schedutil rate limit.
#
# energy: for each task count N, N periodic rt-app tasks (16 ms period,
# 800 us of work at speed 1024, i.e. util 51.2 of 1024) for DURATION
# seconds, energy from the lab's meter.  A size N:RUN:PERIOD runs N tasks
# of RUN us of work at speed 1024 every PERIOD us instead (lab/threshold's
# tasks at a CPU class's fit threshold).  One line per run:
#   bench-energy n N policy P rep R window_us W total_uj E domains_uj D cpus C
#     su S clusters_uj K cluster_on_ms O cluster_busy_ms A opp_ms F
#     run_us U period_us T loops L late Z
# W is the metered window (rt-app's start to its exit), E the meter's total
# over it, D the sum of its frequency-domain channels (the same energy read
# channel by channel: a consistency check), C "cpuK:uJ,..." (where the
# energy went: the placement, at a glance).  The fields from su on were
# added later (older logs end at C): S the schedutil mode, K
# "clusterK:uJ,..." the meter's cluster channels (the board model's
# cluster power; "-" on a meter without them), O "clusterK:ms,..." the
# time each cluster was powered (busy, or idle in a state that is not
# cluster scope, from /sys/kernel/debug/lab_emu/idle), A "clusterK:ms,..."
# the time any of its CPUs was busy ("-" without lab_emu/idle): their
# shares of the interval between the two lab_emu/idle snapshots, in ms of
# the window W.  Clusters are named after their first CPU, as the meter's
# channels are; F "policyK:KHZ=MS/KHZ=MS,...", the time at each OPP.  U and
# T the task's work and period.  L the loops (periods of work) the tasks
# completed, from rt-app's logs, and Z how many of them ended past their
# period (negative slack): energy compares policies only at equal work,
# and a policy that leaves work undone would look cheaper.
#
# hackbench: hackbench --pipe --threads -g G -l LOOPS for each group count
# G.  One line per run: "bench-hackbench g G policy P rep R time_s T su S
# total_uj E", T being hackbench's own "Time:" figure, E the meter's total
# over the run (from before hackbench starts to after it exits; added
# later, and absent without a meter): what the same work cost, where a
# policy that is slower may also be cheaper.
#
# IDLE, for the whole boot: the idle states the CPUs may use: all
# (default), cpu (no cluster-scope state: a cluster never powers down)
# or wfi (WFI only), through cpuidle's per-state disable.
#
# Usage (guest): bench.sh energy SIZES DURATION ITER [POLICIES [SCHEDUTIL [IDLE]]]
#                bench.sh hackbench GROUPS LOOPS ITER [POLICIES [SCHEDUTIL [IDLE]]]
#   SIZES (N or N:RUN:PERIOD), GROUPS, POLICIES: comma separated (POLICIES
#   default 0,1,2)
set -eu
usage="usage: bench.sh energy SIZES DURATION ITER [POLICIES [SCHEDUTIL [IDLE]]] | hackbench GROUPS LOOPS ITER [POLICIES [SCHEDUTIL [IDLE]]]"
case $# in 4 | 5 | 6 | 7) ;; *) echo "$usage" >&2; exit 2 ;; esac
mode=$1 sizes=$(echo "$2" | tr ',' ' ') arg=$3 iter=$4
policies=$(echo "${5:-0,1,2}" | tr ',' ' ')
su=${6:-6.12}
idle_limit=${7:-all}
sysctl=/proc/sys/kernel/sched_energy_policy
wake416=/proc/sys/kernel/lab_wakeup_416
su416=/proc/sys/kernel/lab_schedutil_416
util416=/proc/sys/kernel/lab_util_416
idle=/sys/kernel/debug/lab_emu/idle
features=/sys/kernel/debug/sched/features
logdir=/tmp/bench-rtapp

# variant_setting P: what variant P of the series writes to the features
# file (NO_F turns feature F off).
variant_setting() {
	case $1 in
	2m) echo NO_ENERGY_MARGIN ;;
	2r) echo NO_ENERGY_SD_FLAG ;;
	2w) echo NO_ENERGY_SD_SEARCH ;;
	2g) echo NO_ENERGY_SD_ANY_CPU ;;
	2a) echo ENERGY_SD_ANY_CPU ;;
	2p) echo NO_ENERGY_LEAVE_BUSY_PREV ;;
	2u) echo NO_ENERGY_LEAVE_BUSY_ONLY_FIT ;;
	esac
}

[ -w "$sysctl" ] || { echo "no $sysctl: not the series' kernel" >&2; exit 1; }
[ -n "$policies" ] || { echo "no policy: $usage" >&2; exit 2; }
unknown_policy() {
	echo "unknown policy '$1' (0, 1, 2, 2m, 2r, 2w, 2g, 2a, 2p, 2u or b)" >&2
	exit 2
}
for p in $policies; do
	case $p in
	0 | 1 | 2) ;;
	b) [ -w "$wake416" ] || { echo "policy b needs $wake416: not the lab's kernel" >&2; exit 1; } ;;
	2?)
		f=$(variant_setting "$p")
		f=${f#NO_}
		[ -n "$f" ] || unknown_policy "$p"
		# Present on or off: the file says NO_F for an off one.
		tr ' ' '\n' <"$features" 2>/dev/null | grep -qx -e "$f" -e "NO_$f" ||
			{ echo "policy $p needs $f in $features: not the series' kernel" >&2; exit 1; } ;;
	*) unknown_policy "$p" ;;
	esac
done
case $su in
6.12) suv=0 utilv=0 ;;
4.16) suv=1 utilv=1 ;;
4.16su) suv=1 utilv=0 ;;
*) echo "unknown schedutil mode '$su' (6.12, 4.16 or 4.16su)" >&2; exit 2 ;;
esac
case $idle_limit in
all | cpu | wfi) ;;
*) echo "unknown idle limit '$idle_limit' (all, cpu or wfi)" >&2; exit 2 ;;
esac
if [ -w "$su416" ]; then
	echo "$suv" >"$su416"
elif [ "$suv" = 1 ]; then
	echo "schedutil $su needs $su416: not the lab's kernel" >&2
	exit 1
fi
if [ -w "$util416" ]; then
	echo "$utilv" >"$util416"
elif [ "$utilv" = 1 ]; then
	echo "schedutil $su needs $util416: not the lab's kernel" >&2
	exit 1
fi
# 4.16's schedutil also re-evaluated a policy at most every
# min(1000 x transition latency, 10 ms) (cpufreq_policy_transition_delay_us()
# then; 10 ms on both boards), where 6.12's waits 1.5 x the latency.
if [ "$suv" = 1 ]; then
	for r in /sys/devices/system/cpu/cpufreq/policy*/schedutil/rate_limit_us \
		/sys/devices/system/cpu/cpufreq/schedutil/rate_limit_us; do
		[ ! -w "$r" ] || echo 10000 >"$r"
	done
fi

# The series' features as the kernel booted with them ("F" or "NO_F"
# each; empty on a kernel without them, which has only 0, 1, 2 and b).
boot_features=
if [ -r "$features" ]; then
	boot_features=$(tr ' ' '\n' <"$features" |
		grep -Ex '(NO_)?ENERGY_(SD_FLAG|SD_SEARCH|MARGIN|SD_ANY_CPU|LEAVE_BUSY_PREV|LEAVE_BUSY_ONLY_FIT)' || true)
fi

# set_features P: the series' parts as policy P takes them, as booted but
# for a variant's one.
set_features() {
	for f in $boot_features; do
		echo "$f" >"$features"
	done
	case $1 in
	2?) variant_setting "$1" >"$features" ;;
	esac
}

# set_policy P: the placement policy and the wake-up path it runs with.
set_policy() {
	set_features "$1"
	case $1 in
	b) echo 0 >"$sysctl" && echo 1 >"$wake416" ;;
	2?) echo 2 >"$sysctl" && { [ ! -w "$wake416" ] || echo 0 >"$wake416"; } ;;
	*) echo "$1" >"$sysctl" && { [ ! -w "$wake416" ] || echo 0 >"$wake416"; } ;;
	esac
}

# cluster_state NAME: whether the DT's idle state NAME is cluster scope.
cluster_state() {
	for node in /proc/device-tree/cpus/idle-states/*/"$1" /proc/device-tree/cpus/idle-states/"$1"; do
		[ ! -e "$node/lab,cluster-scope" ] || return 0
	done
	return 1
}

# The cluster-scope idle states, one line "CLUSTER STATE" each: state K of
# lab_emu/idle is cpuidle's stateK of the cluster's first CPU (0 is WFI),
# and the DT node of that name says whether it is cluster scope.
: >/tmp/bench-cluster-scope
if [ -r "$idle" ]; then
	awk '$1 == "cluster" { print $2 }' "$idle" | while read -r c; do
		for s in /sys/devices/system/cpu/cpu"$c"/cpuidle/state*; do
			[ -r "$s/name" ] || continue
			read -r name <"$s/name"
			! cluster_state "$name" || echo "$c ${s##*state}"
		done
	done >/tmp/bench-cluster-scope
fi

# IDLE: disable the states the limit excludes, on every CPU.
if [ "$idle_limit" != all ]; then
	disabled=0
	for s in /sys/devices/system/cpu/cpu[0-9]*/cpuidle/state[1-9]*; do
		[ -w "$s/disable" ] || continue
		read -r name <"$s/name"
		[ "$idle_limit" = wfi ] || cluster_state "$name" || continue
		echo 1 >"$s/disable"
		disabled=$((disabled + 1))
	done
	[ "$disabled" -gt 0 ] || { echo "idle limit $idle_limit: no cpuidle state to disable" >&2; exit 1; }
	echo "bench: idle limit $idle_limit, $disabled cpuidle states disabled"
fi

# idle_snapshot FILE: lab_emu/idle's cluster lines, or nothing.
idle_snapshot() {
	if [ -r "$idle" ]; then
		grep '^cluster ' "$idle" >"$1" || :
	else
		: >"$1"
	fi
}

# opp_snapshot FILE: "policyK KHZ T" per cpufreq policy and OPP, T in
# 10 ms units, or nothing.
opp_snapshot() {
	for pol in /sys/devices/system/cpu/cpufreq/policy*; do
		[ -r "$pol/stats/time_in_state" ] || continue
		while read -r khz t; do
			echo "${pol##*/} $khz $t"
		done <"$pol/stats/time_in_state"
	done >"$1"
}

# now_us: CLOCK_MONOTONIC, from the lab's work device (busybox date has no
# sub-second clock).
now_us() {
	read -r ns_now _ </dev/lab-work
	echo $((ns_now / 1000))
}

# energy SIZE POLICY REP (DURATION is arg)
energy() {
	n=${1%%:*} p=$2 r=$3 run_us=800 period_us=16000
	case $1 in
	*:*:*) run_us=${1#*:} && period_us=${run_us#*:} && run_us=${run_us%%:*} ;;
	esac
	cat >/tmp/bench.json <<JSON
{
	"tasks": { "small": { "instance": $n, "loop": -1, "run": $run_us,
		"timer": { "ref": "unique", "period": $period_us } } },
	"global": { "duration": $arg, "calibration": "CPU0",
		"default_policy": "SCHED_OTHER",
		"logdir": "$logdir", "log_basename": "bench" }
}
JSON
	rm -rf "$logdir" && mkdir -p "$logdir"
	lab-energy >/tmp/e0
	idle_snapshot /tmp/i0
	opp_snapshot /tmp/o0
	t0=$(now_us)
	rt-app /tmp/bench.json >/tmp/rt-app.out 2>&1 ||
		{ echo "rt-app failed (N=$n policy $p):" >&2; tail -n 5 /tmp/rt-app.out >&2; exit 1; }
	t1=$(now_us)
	work=$(cat "$logdir"/*.log | awk '
		/slack/ { for (i = 1; i <= NF; i++) if ($i == "slack") sc = i; next }
		sc && $1 ~ /^[0-9]+$/ { n++; if ($sc < 0) late++ }
		END { printf "%d %d", n, late }')
	opp_snapshot /tmp/o1
	idle_snapshot /tmp/i1
	lab-energy >/tmp/e1
	awk -v n="$n" -v p="$p" -v r="$r" -v w=$((t1 - t0)) -v su="$su" -v run="$run_us" -v per="$period_us" -v work="$work" '
		FILENAME ~ /scope$/ { scope[$1, $2] = 1; next }
		FILENAME ~ /i0$/ { for (k = 4; k <= NF; k++) i0[$2, k] = $k; next }
		FILENAME ~ /i1$/ {
			# The states partition the cluster time: their sum is the
			# interval between the snapshots, which brackets the window
			# by a few ms; on and busy are their shares of it, in ms of W.
			c = $2; seen_c[c] = 1; busy[c] = $4 - i0[c, 4]; on[c] = busy[c]; span = busy[c]
			for (k = 6; k <= NF; k++) {
				span += $k - i0[c, k]
				if (!((c, k - 6) in scope)) on[c] += $k - i0[c, k]
			}
			if (span > 0) { on[c] = on[c] / span * w * 1000; busy[c] = busy[c] / span * w * 1000 }
			next
		}
		FILENAME ~ /o0$/ { o0[$1, $2] = $3; next }
		FILENAME ~ /o1$/ {
			k = substr($1, 7) + 0
			opp[k] = opp[k] (k in seen_p ? "/" : "") $2 "=" ($3 - o0[$1, $2]) * 10
			seen_p[k] = 1
			next
		}
		FILENAME ~ /e0$/ { e0[$1] = $2; next }
		{ d = $2 - e0[$1] }
		$1 == "total" { total = d; next }
		$1 ~ /^policy/ { dom += d; next }
		$1 ~ /^cluster/ { cl[substr($1, 8) + 0] = d; next }
		$1 ~ /^cpu/ { cpus = cpus sep $1 ":" d; sep = "," }
		END {
			# Clusters in the order of their first CPU.
			for (c = 0; c < 1024; c++) {
				if (c in cl) { cls = cls csep "cluster" c ":" cl[c]; csep = "," }
				if (c in seen_c) {
					ons = ons osep sprintf("cluster%d:%.1f", c, on[c] / 1e6)
					bus = bus osep sprintf("cluster%d:%.1f", c, busy[c] / 1e6); osep = ","
				}
				if (c in seen_p) { opps = opps psep "policy" c ":" opp[c]; psep = "," }
			}
			split(work, wk, " ")
			printf "bench-energy n %d policy %s rep %d window_us %d total_uj %d domains_uj %d cpus %s su %s clusters_uj %s cluster_on_ms %s cluster_busy_ms %s opp_ms %s run_us %d period_us %d loops %d late %d\n",
				n, p, r, w, total, dom, cpus, su, cls == "" ? "-" : cls, ons == "" ? "-" : ons, bus == "" ? "-" : bus, opps == "" ? "-" : opps, run, per, wk[1], wk[2]
		}' /tmp/bench-cluster-scope /tmp/i0 /tmp/i1 /tmp/o0 /tmp/o1 /tmp/e0 /tmp/e1
}

# meter_total: the meter's total in uJ, or nothing without a meter.
meter_total() {
	lab-energy | awk '$1 == "total" { print $2 }'
}

# hackbench G POLICY REP (LOOPS is arg)
hackbench_run() {
	e0=$(meter_total)
	t=$(hackbench --pipe --threads -g "$1" -l "$arg" 2>&1 | sed -n 's/^Time: *//p')
	[ -n "$t" ] || { echo "hackbench -g $1 -l $arg printed no time" >&2; exit 1; }
	e1=$(meter_total)
	echo "bench-hackbench g $1 policy $2 rep $3 time_s $t su $su${e0:+ total_uj $((e1 - e0))}"
}

case $mode in
energy)
	for size in $sizes; do
		case $size in
		*[!0-9:]* | :* | *: | *::* | *:*:*:*) ;;
		*:*:*) continue ;;
		*:*) ;;
		*) continue ;;
		esac
		echo "energy: size '$size' is not N or N:RUN:PERIOD" >&2
		exit 2
	done
	[ -n "$(lab-energy)" ] || { echo "no energy meter (lab_energy hwmon)" >&2; exit 1; }
	run=energy
	;;
hackbench) run=hackbench_run ;;
*) echo "$usage" >&2; exit 2 ;;
esac

# rotated R: the policies, starting R-1 places further on (iteration R).
rotated() {
	echo "$policies" | awk -v r="$1" '{ for (i = 0; i < NF; i++) print $((i + r - 1) % NF + 1) }'
}

r=1
while [ "$r" -le "$iter" ]; do
	for size in $sizes; do
		for p in $(rotated "$r"); do
			set_policy "$p"
			# Let the previous run's tasks die and their PELT signals decay.
			sleep 1
			"$run" "$size" "$p" "$r"
		done
	done
	r=$((r + 1))
done
set_policy 2
if [ "$idle_limit" != all ]; then
	for s in /sys/devices/system/cpu/cpu[0-9]*/cpuidle/state[1-9]*; do
		[ ! -w "$s/disable" ] || echo 0 >"$s/disable"
	done
fi
[ ! -w "$su416" ] || echo 0 >"$su416"
[ ! -w "$util416" ] || echo 0 >"$util416"
rm -rf "$logdir"
