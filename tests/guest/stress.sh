#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Robustness of the series under the kernel's debug machinery (issue 7).
# Builds the debug kernel (lab/kernel/debug.config over lab.config, in
# build/obj/debug) and checks every option it asks for is in its .config;
# then on each platform boots it and runs lab/experiments/stress.sh: CPU
# hotplug, policy and governor switching and invalid writes for DURATION
# seconds under the seed's 30 rt-app tasks and hackbench.  A platform
# passes with no splat on the console (lab/kernel/splat-patterns), every
# rt-app task alive and running periods to the end, EAS back with the
# platform's perf domains and the boot's sched domain flags, the series'
# energy-aware wake-ups again, every invalid write refused and the energy
# meter never decreasing.  Last, the symmetric platform and one with a CPU
# lacking power data boot the debug kernel with EAS off.
#
# Usage: tests/guest/stress.sh
#   STRESS_DURATION   seconds of storm per platform (default 20; make stress: DURATION)
#   STRESS_PLATFORMS  platforms to storm (default: juno-r0 hikey960 gs101)
set -eu
LAB_TOP=$(CDPATH='' cd -- "$(dirname -- "$0")/../.." && pwd)
# shellcheck source=tests/lib.sh
. "$LAB_TOP/tests/lib.sh"

duration=${STRESS_DURATION:-20}
platforms=${STRESS_PLATFORMS:-juno-r0 hikey960 gs101}
case $duration in '' | *[!0-9]*) die "STRESS_DURATION must be whole seconds, got '$duration'" ;; esac

DEBUG_CONFIG=$LAB_TOP/lab/kernel/debug.config
DEBUG_OBJ=$BUILD_DIR/obj/debug
DEBUG_IMAGE=$DEBUG_OBJ/arch/arm64/boot/Image
SPLAT_PATTERNS=$LAB_TOP/lab/kernel/splat-patterns
RTAPP_TASKS=30
# A task that ran no period in the last this many us of rt-app's run was
# stuck (its period is 16 ms; a hotplug op under TCG takes up to ~2 s).
RTAPP_LAST_PERIOD_SLACK_US=5000000
run=$LAB_TOP/lab/run
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# --- the debug kernel ---
t0=$(date +%s)
if "$LAB_TOP/lab/kernel/build.sh" "$LAB_TOP/lab/kernel/lab.config:$DEBUG_CONFIG" \
	"$DEBUG_OBJ" >"$tmp/build.log" 2>&1; then
	ok "debug kernel builds in build/obj/debug ($(( $(date +%s) - t0 ))s, lock wait included)"
else
	not_ok "debug kernel builds in build/obj/debug"
	tail -n 20 "$tmp/build.log" | sed 's/^/    /'
	exit 0
fi
missing=$(grep -E '^CONFIG_' "$DEBUG_CONFIG" |
	while IFS= read -r l; do grep -qxF "$l" "$DEBUG_OBJ/.config" || echo "$l"; done)
check "every line of lab/kernel/debug.config is in build/obj/debug/.config${missing:+ (missing: $missing)}" \
	[ -z "$missing" ]

# splats CONSOLE: the console's splat lines, numbered.
splats() {
	grep -v -e '^#' -e '^$' "$SPLAT_PATTERNS" >"$tmp/patterns"
	tr -d '\r' <"$1" | grep -n -E -f "$tmp/patterns" || true
}

# show_splats CONSOLE: the first three splats, each with its whole stack
# (to the end marker, or 60 lines).
show_splats() {
	splats "$1" | cut -d: -f1 | awk 'NR == 1 || $1 > last + 60 { print } { last = $1 }' | head -n 3 |
		while read -r line; do
			tr -d '\r' <"$1" | sed -n "${line},$((line + 60))p" |
				sed '/---\[ end trace/q' | sed 's/^/    /'
		done
}

check_no_splat() {
	n=$(splats "$2" | wc -l)
	if [ "$n" -eq 0 ]; then
		ok "$1: no splat on the console (BUG, WARNING, lockdep, KASAN, UBSAN, RCU stall, hung task)"
	else
		not_ok "$1: $n splat lines on the console:"
		show_splats "$2"
	fi
	splat_total=$((splat_total + n))
}

count() {
	sed -n "s/^count $1 //p" "$log" | tail -n 1
}

splat_total=0
summary=''
for plat in $platforms; do
	out=$tmp/$plat
	t0=$(date +%s)
	# Wall time: the guest clock counts instructions, and the debug kernel
	# runs 150-220 s of wall time for 20 s of storm on a shared host.
	if ! "$run" -q -T $((300 + 10 * duration)) -k "$DEBUG_IMAGE" -p "$plat" -o "$out" \
		"$LAB_TOP/lab/experiments/stress.sh" "$duration" >"$tmp/run.log" 2>&1; then
		not_ok "$plat: the debug kernel boots and runs the storm"
		tail -n 30 "$tmp/run.log" | sed 's/^/    /'
		[ -f "$out/console.log" ] && check_no_splat "$plat" "$out/console.log"
		continue
	fi
	log=$out/experiment.log
	ok "$plat: the debug kernel boots and runs ${duration}s of storm ($(( $(date +%s) - t0 ))s wall)"
	check_no_splat "$plat" "$out/console.log"

	dead=$(grep '^count worker_failures' "$log" || true)
	runs=$(count hackbench_runs)
	pass=0
	[ -z "$dead" ] && [ "${runs:-0}" -gt 0 ] && pass=1
	check "$plat: every storm driver ran to the end, hackbench ran ${runs:-0} bursts ($(count hackbench_failures) failed)" [ "$pass" = 1 ]
	[ -z "$dead" ] || echo "$dead" | sed 's/^/    /'
	hot=$(count hotplug_ops) dom=$(count hotplug_domain_offline) all=$(count hotplug_all_but_one)
	pass=0
	[ "${hot:-0}" -gt 0 ] && [ "${dom:-0}" -gt 0 ] && [ "${all:-0}" -gt 0 ] && pass=1
	check "$plat: CPU hotplug storm: ${hot:-0} operations, a whole frequency domain off ${dom:-0} times, all CPUs but one ${all:-0} times, $(count hotplug_failures) refused" [ "$pass" = 1 ]
	pol=$(count policy_switches) period_us=$(count policy_switch_period_us)
	check "$plat: placement policy switched ${pol:-0} times (one every $(( ${period_us:-0} / 1000 )) ms)" \
		[ "${pol:-0}" -gt 0 ]
	gov=$(count governor_switches)
	check "$plat: cpufreq governor switched ${gov:-0} times ($(count governor_failures) refused)" \
		[ "${gov:-0}" -gt 2 ]

	inv=$(grep -c '^invalid ' "$log" || true)
	# 6.12's debugfs_write_file_bool() returns success on input it cannot
	# parse and keeps the value: "ignored" is that, for sched/verbose only.
	bad=$(grep '^invalid ' "$log" | grep -v ' rejected$' |
		grep -v '^invalid /sys/kernel/debug/sched/verbose .* ignored$' || true)
	ignored=$(grep -c '^invalid /sys/kernel/debug/sched/verbose .* ignored$' "$log" || true)
	pass=0
	[ "$inv" -gt 0 ] && [ -z "$bad" ] && pass=1
	check "$plat: $inv invalid writes refused with an error, value unchanged (sched/verbose: $ignored ignored without error by 6.12's debugfs bool, value unchanged)" [ "$pass" = 1 ]
	[ -z "$bad" ] || echo "$bad" | sort | uniq -c | sed 's/^/    /'

	alive=$(sed -n 's/^rtapp_alive //p' "$log")
	rc=$(sed -n 's/^rtapp_exit //p' "$log")
	run_us=$(sed -n 's/^rtapp_run_us //p' "$log")
	# Column 7 of rt-app's log: the period's start, us since rt-app started.
	stale=$(for f in "$out"/rt-app/stress-small-*.log; do
		[ -f "$f" ] || continue
		awk -v run="${run_us:-0}" -v slack="$RTAPP_LAST_PERIOD_SLACK_US" -v name="${f##*/}" '
			!/^#/ && NF >= 7 { n++; last = $7 }
			END { if (n == 0 || last < run - slack)
				printf "%s: %d periods, the last at %d us of %d\n", name, n, last, run }' "$f"
	done)
	threads=$(find "$out/rt-app" -name 'stress-small-*.log' 2>/dev/null | wc -l)
	pass=0
	[ "$alive" = "$RTAPP_TASKS" ] && [ "$rc" = 0 ] && [ "$threads" = "$RTAPP_TASKS" ] && [ -z "$stale" ] && pass=1
	check "$plat: all $RTAPP_TASKS rt-app tasks alive at the end (${alive:-none}), exit ${rc:-none}, each ran periods until the last $((RTAPP_LAST_PERIOD_SLACK_US / 1000000)) s ($threads logs)" [ "$pass" = 1 ]
	[ -z "$stale" ] || echo "$stale" | sed 's/^/    /'

	wake=$(sed -n 's/^energy_wakeups //p' "$log")
	pass=0
	grep -qx "eas_restarted yes" "$log" && [ "${wake:-0}" -gt 0 ] && pass=1
	check "$plat: EAS restarted after the storm (sched_energy_set), the series' energy-aware wake-ups again (${wake:-0})" [ "$pass" = 1 ]
	# At boot the debug kernel shows the platform as described (as
	# tests/guest/platforms.sh checks for the lab kernel); after the storm
	# it shows what it showed at boot.
	"$PLATGEN" facts "$(platform_file "$plat")" >"$tmp/expected"
	if cmp -s "$tmp/expected" "$out/facts.txt" && grep -qx 'eas started' "$out/facts.txt"; then
		ok "$plat: at boot, capacities, asymmetry level, schedutil policies, EM perf domains as described, EAS started"
	else
		not_ok "$plat: at boot, the facts differ from the description (- described, + booted):"
		diff "$tmp/expected" "$out/facts.txt" | sed -n 's/^</    -/p; s/^>/    +/p'
	fi
	if [ -s "$out/state-boot.txt" ] && cmp -s "$out/state-boot.txt" "$out/state-end.txt"; then
		ok "$plat: after the storm, capacities, sched domains and flags, policies and governors, EM perf domains as at boot ($(wc -l <"$out/state-boot.txt") lines)"
	else
		not_ok "$plat: after the storm, the state differs from boot (- boot, + end):"
		diff "$out/state-boot.txt" "$out/state-end.txt" 2>&1 | sed -n 's/^</    -/p; s/^>/    +/p'
	fi

	samples=$(count meter_samples)
	drops=$(grep -c '^meter_decrease ' "$log" || true)
	pass=0
	[ "${samples:-0}" -gt 0 ] && [ "$drops" -eq 0 ] && pass=1
	check "$plat: energy meter never decreased ($drops decreases in ${samples:-0} samples of every channel)" [ "$pass" = 1 ]
	grep '^meter_decrease ' "$log" | head -n 5 | sed 's/^/    /' || true

	summary="$summary
$plat: ${hot:-0} hotplug operations, ${pol:-0} policy switches, ${gov:-0} governor switches, $inv invalid inputs, $(splats "$out/console.log" | wc -l) splat lines"
done

# Platforms where EAS cannot run boot the debug kernel with it off.
if "$run" -q -T 240 -k "$DEBUG_IMAGE" -p "$LAB_TOP/tests/host/good/symmetric.plat" \
	-o "$tmp/symmetric" idle >"$tmp/run.log" 2>&1; then
	check "symmetric platform, debug kernel: EAS off (no 'starting EAS')" \
		sh -c "! grep -q 'sched_energy_set: starting EAS' '$tmp/symmetric/console.log'"
	check_no_splat "symmetric platform" "$tmp/symmetric/console.log"
else
	not_ok "symmetric platform boots the debug kernel"
	tail -n 20 "$tmp/run.log" | sed 's/^/    /'
fi
if "$run" -q -T 240 -k "$DEBUG_IMAGE" -p "$LAB_TOP/tests/host/good/no-power.plat" \
	-o "$tmp/nopower" idle >"$tmp/run.log" 2>&1; then
	check "a CPU without power data, debug kernel: EAS off, with a message naming the CPU" \
		sh -c "grep -q 'no Energy Model for possible CPU[0-9]*: energy-aware placement off' '$tmp/nopower/console.log' &&
		       ! grep -q 'sched_energy_set: starting EAS' '$tmp/nopower/console.log'"
	check_no_splat "no-power platform" "$tmp/nopower/console.log"
else
	not_ok "no-power platform boots the debug kernel"
	tail -n 20 "$tmp/run.log" | sed 's/^/    /'
fi

echo "stress summary (${duration}s of storm per platform):$summary"
echo "splat lines found: $splat_total (0 to pass)"
