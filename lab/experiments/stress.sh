#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Robustness storm (guest side of tests/guest/stress.sh and make stress):
# while the seed's 30-task rt-app workload (16 ms period, 800 us of work)
# and hackbench bursts run, for DURATION seconds at once
#   - CPU hotplug: random non-boot CPUs off and on, now and then every CPU
#     of one frequency domain at once, or all CPUs but the boot CPU;
#   - kernel.sched_energy_policy switched 0 -> 1 -> 2 every few ms;
#   - cpufreq governors switched schedutil -> performance -> userspace (at a
#     random OPP), so EAS stops and restarts and domains are rebuilt;
#   - invalid writes (out of range, garbage, empty, very long) to the
#     series' sysctl, sched_energy_aware and sched/verbose in debugfs;
#   - the energy meter sampled, every counter checked never to decrease.
# Then everything is restored (all CPUs on, schedutil, policy 2) and the
# script records what the host checks: EAS restarted, the series'
# energy-aware wake-ups again, the facts and sched domain flags as at
# boot, every rt-app task alive and running periods until the end.
#
# Output lines (experiment.log), read by tests/guest/stress.sh:
#   count NAME N            operations done (hotplug_ops, policy_switches, ...)
#   invalid FILE VALUE rejected|ignored|changed   (ignored: no error, value kept)
#   meter_decrease LABEL BEFORE AFTER
#   rtapp_alive N, rtapp_exit N, rtapp_run_us US (from its start to SIGTERM)
#   eas_restarted yes|no, energy_wakeups N, phase NAME UPTIME
# Files in /results: state-boot.txt, state-end.txt (state_snapshot),
# rt-app/stress-small-*.log.
#
# Usage (guest): stress.sh [DURATION]   (default 20 s)
set -eu
duration=${1:-20}
case $duration in '' | *[!0-9]*) echo "stress.sh: DURATION must be whole seconds, got '$duration'" >&2; exit 2 ;; esac

SYS=/sys/devices/system/cpu
DEFAULT_IFS=$IFS
POLICY_SYSCTL=/proc/sys/kernel/sched_energy_policy
AWARE_SYSCTL=/proc/sys/kernel/sched_energy_aware
VERBOSE=/sys/kernel/debug/sched/verbose
TRACING=/sys/kernel/tracing
RTAPP_TASKS=30
state=/tmp/stress
mkdir -p "$state" /results/rt-app
# A FIFO nobody writes, for nap().
mkfifo "$state/never"
exec 3<>"$state/never"

# A task blocked this long during a 20-60 s storm is stuck, not slow:
# let the hung task detector say so within the run (debug kernel only).
[ -e /proc/sys/kernel/hung_task_timeout_secs ] && echo 20 >/proc/sys/kernel/hung_task_timeout_secs

# The drivers' loops use builtins only: under TCG with the workload
# running, every fork costs hundreds of ms (measured: a loop napping with
# usleep turns in 330-450 ms, with read -t in 37 ms).

# now_cs: NOW = uptime in centiseconds.
now_cs() {
	read -r up _ </proc/uptime
	NOW=${up%.*}${up#*.}
	while [ "${NOW#0}" != "$NOW" ] && [ ${#NOW} -gt 1 ]; do NOW=${NOW#0}; done
}

# busybox ash's read -t takes fractions of a second; POSIX's has no -t.
nap() {
	# shellcheck disable=SC3045
	read -r -t "$1" -u 3 _ || true
}

# rand N: R = a pseudo-random number in 0..N-1 (an LCG, no fork).
now_cs
RNG=$((NOW + $$))
rand() {
	RNG=$(( (RNG * 1103515245 + 12345) % 2147483648 ))
	R=$(( (RNG / 65536) % $1 ))
}

# pick WORD...: P = one of the words, at random.
pick() {
	rand $#
	shift "$R"
	P=$1
}

phase() {
	read -r up _ </proc/uptime
	echo "phase $1 $up"
}

# running NAME: until stop NAME.
running() {
	[ ! -e "$state/stop-$1" ]
}

stop() {
	: >"$state/stop-$1"
}

nonboot_cpus() {
	for c in "$SYS"/cpu[1-9]*; do
		[ -e "$c/online" ] && echo "${c##*/cpu}"
	done
}

# Frequency domains without the boot CPU, one "CPU CPU ..." line each.
offlinable_domains() {
	for p in "$SYS"/cpufreq/policy*; do
		read -r cpus <"$p/related_cpus"
		case " $cpus " in *" 0 "*) continue ;; esac
		echo "$cpus"
	done
}

# state_snapshot: what a rebuild of sched domains and perf domains must
# bring back: capacities, sched domains and their flags, cpufreq policies
# and governors, Energy Model perf domains with their states.
state_snapshot() {
	for c in "$SYS"/cpu[0-9]*; do
		read -r cap <"$c/cpu_capacity"
		echo "${c##*/} capacity $cap"
	done
	for d in /sys/kernel/debug/sched/domains/cpu*/domain*; do
		[ -r "$d/flags" ] || continue
		read -r name <"$d/name"
		read -r flags <"$d/flags"
		echo "${d#/sys/kernel/debug/sched/domains/} $name $flags"
	done
	for p in "$SYS"/cpufreq/policy*; do
		read -r cpus <"$p/related_cpus"
		read -r gov <"$p/scaling_governor"
		echo "${p##*/} cpus $cpus governor $gov"
	done
	for pd in /sys/kernel/debug/energy_model/cpu*; do
		read -r cpus <"$pd/cpus"
		line="${pd##*/} cpus $cpus"
		for ps in "$pd"/ps:*; do
			read -r freq <"$ps/frequency"
			read -r power <"$ps/power"
			line="$line $freq:$power"
		done
		echo "$line"
	done
}

# put FILE VALUE: write VALUE; status of the write.
put() {
	printf '%s\n' "$2" >"$1" 2>/dev/null
}

# try_invalid FILE VALUE CHECK_UNCHANGED: one invalid write, one line of
# output; CHECK_UNCHANGED=0 while the value may change under it (another
# writer, or sched_energy_aware reading empty while EAS is impossible).
try_invalid() {
	before='' after=''
	read -r before <"$1" || true
	short=$2
	[ ${#2} -gt 12 ] && short="(${#2}-digit)"
	[ -n "$2" ] || short="(empty)"
	if put "$1" "$2"; then
		outcome=ignored
	else
		outcome=rejected
	fi
	read -r after <"$1" || true
	[ "$3" = 1 ] && [ "$after" != "$before" ] && outcome=changed
	echo "invalid $1 $short $outcome"
}

LONG=$(head -c 5000 /dev/zero | tr '\0' 9)
# invalid_try_all FILE CHECK_UNCHANGED: each invalid value of FILE: out
# of range, garbage, empty, very long.
invalid_try_all() {
	f=$1 check=$2
	case $f in
	"$POLICY_SYSCTL") set -- 3 -1 4294967298 abc 2x '' "$LONG" ;;
	"$AWARE_SYSCTL") set -- 2 -1 4294967297 abc 1x '' "$LONG" ;;
	*) set -- 2 -1 abc '' "$LONG" ;;
	esac
	for v in "$@"; do
		try_invalid "$f" "$v" "$check"
	done
}

# invalid_pass CHECK_UNCHANGED FILE...: every invalid value of each FILE.
invalid_pass() {
	check_unchanged=$1
	shift
	for file in "$@"; do
		invalid_try_all "$file" "$check_unchanged"
	done
}

# rtapp_json NAME TASKS DURATION: the seed's periodic tasks, in
# $state/NAME.json, logging to /results/rt-app/NAME-small-I.log.
rtapp_json() {
	cat >"$state/$1.json" <<JSON
{
	"tasks": { "small": { "instance": $2, "loop": -1, "run": 800,
		"timer": { "ref": "unique", "period": 16000 } } },
	"global": { "duration": $3, "calibration": "CPU0",
		"default_policy": "SCHED_OTHER", "logdir": "/results/rt-app",
		"log_basename": "$1" }
}
JSON
}

# --- workload ---
state_snapshot >/results/state-boot.txt
# Stopped with SIGTERM once the checks are done, long before this.
rtapp_json stress "$RTAPP_TASKS" $((duration * 10 + 300))
now_cs
rtapp_start=$NOW
rt-app "$state/stress.json" >"$state/rt-app.out" 2>&1 &
rtapp_pid=$!

# In bursts: hackbench overutilizes every domain, which switches
# energy-aware placement off; between bursts the policies' wake-up paths
# run under the storm.
(
	runs=0 fails=0
	while running hackbench; do
		if hackbench --pipe --threads -g 1 -l 100 >/dev/null 2>&1; then
			runs=$((runs + 1))
		else
			fails=$((fails + 1))
		fi
		nap 1
	done
	echo "count hackbench_runs $runs"
	echo "count hackbench_failures $fails"
) >"$state/hackbench" &
hackbench_pid=$!

(
	samples=0 prev=0
	while running meter; do
		for h in /sys/class/hwmon/hwmon*; do
			read -r name <"$h/name" || continue
			[ "$name" = lab_energy ] || continue
			for l in "$h"/energy*_label; do
				n=${l##*/energy}
				n=${n%_label}
				read -r uj <"${l%_label}_input" || continue
				eval "prev=\${meter_$n:-0}"
				if [ "$uj" -lt "$prev" ]; then
					read -r label <"$l"
					echo "meter_decrease $label $prev $uj"
				fi
				eval "meter_$n=\$uj"
			done
		done
		samples=$((samples + 1))
		nap 0.5
	done
	echo "count meter_samples $samples"
) >"$state/meter" &
meter_pid=$!
# The storm's drivers run at nice -20: they compete with the workload for
# the emulated CPUs, and "every few ms" should hold under it.
renice -n -20 -p $$ >/dev/null 2>&1 || echo "renice unavailable: drivers at nice 0"
nap 1
phase storm

# --- the storm ---
now_cs
end=$((NOW + duration * 100))
storm_running() {
	now_cs
	[ "$NOW" -lt "$end" ]
}

(
	ops=0 fails=0 domain_ops=0 all_but_one_ops=0
	cpus=$(nonboot_cpus)
	# One word per domain: its CPUs joined by commas.
	domains=$(offlinable_domains | tr ' ' ',')
	set_online() {
		read -r was <"$SYS/cpu$1/online"
		[ "$was" = "$2" ] && return 0
		if put "$SYS/cpu$1/online" "$2"; then
			ops=$((ops + 1))
		else
			fails=$((fails + 1))
		fi
	}
	# A whole domain and all-but-one first: a slow storm still does both.
	i=0
	while storm_running; do
		i=$((i + 1))
		case $((i % 10)) in
		1)
			[ -n "$domains" ] || continue
			# shellcheck disable=SC2086 # one word per domain
			pick $domains
			IFS=,
			# shellcheck disable=SC2086 # split on the commas
			set -- $P
			IFS=$DEFAULT_IFS
			for c in "$@"; do set_online "$c" 0; done
			domain_ops=$((domain_ops + 1))
			nap 0.2
			for c in "$@"; do set_online "$c" 1; done
			;;
		2)
			for c in $cpus; do set_online "$c" 0; done
			all_but_one_ops=$((all_but_one_ops + 1))
			nap 0.2
			for c in $cpus; do set_online "$c" 1; done
			;;
		*)
			# shellcheck disable=SC2086 # one word per CPU
			pick $cpus
			read -r was <"$SYS/cpu$P/online"
			set_online "$P" $((1 - was))
			;;
		esac
	done
	echo "count hotplug_ops $ops"
	echo "count hotplug_failures $fails"
	echo "count hotplug_domain_offline $domain_ops"
	echo "count hotplug_all_but_one $all_but_one_ops"
) >"$state/hotplug" &
hotplug_pid=$!

# The only writer of the policy sysctl: it knows the value an invalid
# write must leave in place.
(
	switches=0 i=0
	now_cs
	start=$NOW
	while storm_running; do
		i=$((i + 1))
		if put "$POLICY_SYSCTL" $((i % 3)); then
			switches=$((switches + 1))
		fi
		if [ $((i % 20)) = 0 ]; then
			pick 3 -1 4294967298 abc 2x '' "$LONG"
			try_invalid "$POLICY_SYSCTL" "$P" 1
		fi
		nap 0.003
	done
	echo "count policy_switches $switches"
	echo "count policy_switch_period_us $(( (NOW - start) * 10000 / (switches + 1) ))"
) >"$state/policy" &
policy_pid=$!

(
	switches=0 fails=0 i=0
	while storm_running; do
		i=$((i + 1))
		pick "$SYS"/cpufreq/policy*
		p=$P
		case $((i % 3)) in
		1) gov=performance ;;
		2) gov=userspace ;;
		*) gov=schedutil ;;
		esac
		if put "$p/scaling_governor" "$gov"; then
			switches=$((switches + 1))
			# Hotplug may take the policy's last CPU away meanwhile,
			# and its files with it: not a reason to stop switching.
			if [ "$gov" = userspace ] &&
				read -r freqs <"$p/scaling_available_frequencies" 2>/dev/null &&
				[ -n "$freqs" ]; then
				# shellcheck disable=SC2086 # one word per OPP
				pick $freqs
				put "$p/scaling_setspeed" "$P" || true
			fi
		else
			fails=$((fails + 1))
		fi
		rand 20
		nap "0.$((R + 10))"
	done
	echo "count governor_switches $switches"
	echo "count governor_failures $fails"
) >"$state/governor" &
governor_pid=$!

# Nobody else writes these during the storm, but sched_energy_aware reads
# empty while a governor other than schedutil makes EAS impossible: its
# value is checked in the final pass.
(
	while storm_running; do
		invalid_pass 0 "$AWARE_SYSCTL"
		invalid_pass 1 "$VERBOSE"
		nap 0.3
	done
) >"$state/invalid" &
invalid_pid=$!

for pid in $hotplug_pid $policy_pid $governor_pid $invalid_pid; do
	wait "$pid" || echo "count worker_failures 1 (pid $pid exited $?)"
done

phase restore
# --- restore, then check EAS is back ---
for c in $(nonboot_cpus); do
	read -r was <"$SYS/cpu$c/online"
	[ "$was" = 1 ] || put "$SYS/cpu$c/online" 1 ||
		echo "restore: cpu$c does not come back online"
done
for p in "$SYS"/cpufreq/policy*; do
	put "$p/scaling_governor" schedutil || echo "restore: ${p##*/} refuses schedutil"
done
put "$POLICY_SYSCTL" 2

# EAS restarts from a workqueue once every policy runs schedutil.
eas_state() {
	dmesg | grep -o 'sched_energy_set: \(starting\|stopping\) EAS' | tail -n 1 | awk '{ print $2 }'
}
i=0
while [ "$(eas_state)" != starting ] && [ $i -lt 100 ]; do
	nap 0.1
	i=$((i + 1))
done
[ "$(eas_state)" = starting ] && echo "eas_restarted yes" || echo "eas_restarted no"
phase checks

stop hackbench
wait "$hackbench_pid" || true
# The read-only debugfs files too, now that hotplug no longer rebuilds them.
set -- /sys/kernel/debug/energy_model/cpu*
invalid_pass 1 "$POLICY_SYSCTL" "$AWARE_SYSCTL" "$VERBOSE" \
	/sys/kernel/debug/sched/domains/cpu0/domain0/flags "$1/cpus"

phase rtapp-stop
set -- /proc/"$rtapp_pid"/task/*
echo "rtapp_alive $(($# - 1))"
now_cs
rtapp_run_us=$(( (NOW - rtapp_start) * 10000 ))
kill -TERM "$rtapp_pid"
rc=0
wait "$rtapp_pid" || rc=$?
echo "rtapp_exit $rc"
echo "rtapp_run_us $rtapp_run_us"
stop meter
wait "$meter_pid" || true

# The series' energy-aware wake-ups again, under the seed's 10 tasks: 30
# tasks overutilize gs101's one sched domain (a little CPU is 160), and
# then no policy places by energy, rightly.
phase calm
rtapp_json calm 10 2
ev=$TRACING/events/sched/sched_energy_wakeup
: >"$TRACING/trace"
echo 1 >"$ev/enable"
rt-app "$state/calm.json" >/dev/null 2>&1 || echo "calm rt-app failed"
echo 0 >"$ev/enable"
echo "energy_wakeups $(grep -c 'sched_energy_wakeup:.*candidates=[1-9]' "$TRACING/trace" || true)"
: >"$TRACING/trace"
rm -f /results/rt-app/calm-*.log
cat "$state/hotplug" "$state/policy" "$state/governor" "$state/invalid" \
	"$state/hackbench" "$state/meter"

state_snapshot >/results/state-end.txt
phase end
