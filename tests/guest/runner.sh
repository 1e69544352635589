#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# lab/run as a user meets it: each kind of experiment runs and its files
# come back, summary.json's energy and idle figures add up, tracing records
# the events, and a guest that panics, hangs or fails, or a bad platform,
# is reported as such.
set -eu
LAB_TOP=$(CDPATH='' cd -- "$(dirname -- "$0")/../.." && pwd)
# shellcheck source=tests/lib.sh
. "$LAB_TOP/tests/lib.sh"

DATA=$LAB_TOP/tests/guest/data
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
run=$LAB_TOP/lab/run


# An rt-app file as a user writes it (absolute logdir, numeric calibration).
o=$tmp/rtapp
if "$run" -q -T 120 -o "$o" "$DATA/user-rtapp.json" >"$tmp/out" 2>&1; then
	n=$(find "$o/rt-app" -name 'user-periodic-*.log' 2>/dev/null | wc -l)
	check "rt-app JSON runs unchanged; its 2 logs come back (got $n)" [ "$n" -eq 2 ]
	check "summary.json is valid JSON naming platform and verdict" \
		json_true "$o/summary.json" '.platform == "juno-r0" and .verdict == "ok" and (.cpus | length) == 6'
else
	not_ok "rt-app JSON runs"; tail -n 20 "$tmp/out" | sed 's/^/    /'
fi

# The energy and idle fields of summary.json, on the seed workload (10 s).
o=$tmp/seed
# shellcheck disable=SC2016 # jq's variables, not the shell's
if "$run" -q -T 120 -o "$o" seed-energy >"$tmp/out" 2>&1; then
	s=$o/summary.json
	check "summary.json: board meter total $(jq -r '.energy.total_uj' "$s") uJ = its CPUs + its clusters ($(jq -r '([.cpus[].energy_uj] | add) + ([.energy.clusters_uj[]?] | add)' "$s") uJ) within 0.1%" \
		json_true "$s" '.energy.meter == "board" and .energy.total_uj > 0 and
			(.energy.clusters_uj | length) > 0 and
			(([.cpus[].energy_uj] | add) + ([.energy.clusters_uj[]] | add) - .energy.total_uj | fabs) <= .energy.total_uj / 1000'
	# Per domain the parts are read one channel at a time while the meter
	# runs, so their skew is time x the board's power, not the domain's:
	# the bound is 0.1% of the total (a mostly sleeping big domain is a
	# few hundred mJ, where 0.1% of its own energy is a few ms of reads).
	parts='. as $s | [.policies[] | (.cpus | split(" ") | map(tonumber)) as $c
		| {policy, energy_uj, parts: (([$s.cpus[] | select(.cpu | IN($c[])) | .energy_uj] | add) + $s.energy.clusters_uj["cluster\($c[0])"])}]'
	check "summary.json: each domain's energy = its CPUs + its cluster within 0.1% of the total ($(jq -r "$parts"' | map("\(.policy) \(.energy_uj) vs \(.parts)") | join(", ")' "$s") uJ)" \
		json_true "$s" "$parts"' as $d | .energy.total_uj as $t | ($d | length) > 0 and
			all($d[]; .energy_uj > 0 and (.parts - .energy_uj | fabs) <= $t / 1000)'
	check "summary.json: Energy Model's estimate $(jq -r '.energy.em_estimate.total_uj' "$s") uJ, its domains add up, model error $(jq -r '.energy.model_error_pct' "$s")% = 100 (estimate - meter) / meter" \
		json_true "$s" '.energy.em_estimate.total_uj > 0 and
			(.energy.em_estimate.joules - .energy.em_estimate.total_uj / 1e6 | fabs) < 0.0001 and
			(([.energy.em_estimate.domains_uj[]] | add) - .energy.em_estimate.total_uj | fabs) <= .energy.em_estimate.total_uj / 1000 and
			(.energy.model_error_pct - 100 * (.energy.em_estimate.total_uj - .energy.total_uj) / .energy.total_uj | fabs) < 0.01'
	check "summary.json: every CPU's busy + idle-state time (requested and effective) = the $(jq -r '.guest_seconds' "$s") s of guest time within 2%" \
		json_true "$s" '(.guest_seconds * 1000) as $g | $g > 0 and
			(.idle.cpus | length) == (.cpus | length) and
			all(.idle.cpus[]; .states[0] == "WFI" and (.states | length) == (.effective_ms | length) and
				(.states | length) == (.requested_ms | length) and
				(.busy_ms + (.effective_ms | add) - $g | fabs) <= $g / 50 and
				(.busy_ms + (.requested_ms | add) - $g | fabs) <= $g / 50)'
	check "summary.json: every cluster's active + idle time = the guest time within 2%" \
		json_true "$s" '(.guest_seconds * 1000) as $g | $g > 0 and
			(.idle.clusters | length) == (.policies | length) and
			all(.idle.clusters[]; .cpus != "" and (.idle_ms | length) == (.states | length) and
				(.active_ms + (.idle_ms | add) - $g | fabs) <= $g / 50)'
	"$LAB_TOP/lab/report.sh" "$o" >"$tmp/report" 2>&1 || true
	check "lab/report.sh names the board meter and the Energy Model's estimate" \
		grep -q "^energy: [0-9.]* J (policy0 .*; clusters [0-9.]* J) on the board meter; Energy Model's estimate [0-9.]* J ([+-][0-9.]*%)$" "$tmp/report"
	check "lab/report.sh prints the residency of 6 CPUs and 2 clusters" \
		[ "$(grep -cE '^  (cpu|cluster)[0-9]+ +[0-9.]+( +[0-9.]+){3}$' "$tmp/report")" -eq 8 ]
else
	not_ok "seed-energy runs"; tail -n 20 "$tmp/out" | sed 's/^/    /'
fi

# A shell script with arguments, traced.
o=$tmp/script
if "$run" -q -T 120 -t -o "$o" "$DATA/args.sh" one 'two words' >"$tmp/out" 2>&1; then
	check "shell script gets its arguments" \
		[ "$(cat "$o/args.txt" 2>/dev/null)" = "$(printf 'one\ntwo words')" ]
	trace-cmd report -i "$o/trace.dat" 2>/dev/null >"$tmp/report" || true
	for ev in sched_switch sched_wakeup cpu_frequency cpu_idle; do
		check "trace.dat has $ev events" grep -q " $ev:" "$tmp/report"
	done
else
	not_ok "traced shell script runs"; tail -n 20 "$tmp/out" | sed 's/^/    /'
fi

# hackbench with arguments, on another platform.
o=$tmp/hackbench
if "$run" -q -T 120 -p hikey960 -o "$o" hackbench --pipe --threads -g 1 -l 200 >"$tmp/out" 2>&1; then
	check "hackbench runs and prints its time" grep -q '^Time:' "$o/experiment.log"
else
	not_ok "hackbench runs"; tail -n 20 "$tmp/out" | sed 's/^/    /'
fi

expect_fail "failing command reported as experiment_failed" experiment_failed \
	"$run" -q -T 60 -o "$tmp/fail" cmd 'exit 3'
check "its exit status is recorded" json_true "$tmp/fail/summary.json" '.exit_status == "3"'
expect_fail "a failing command is reported as such when traced too (trace-cmd's status is not the command's)" experiment_failed \
	"$run" -q -T 60 -t -o "$tmp/fail-traced" cmd 'exit 3'
check "its exit status is recorded, traced" json_true "$tmp/fail-traced/summary.json" '.exit_status == "3"'
expect_fail "kernel panic reported with the console's tail" 'Kernel panic' \
	"$run" -q -T 60 -o "$tmp/panic" -a rdinit=/bin/false idle
check "panic verdict in summary.json" json_true "$tmp/panic/summary.json" '.verdict == "panic"'
expect_fail "hung guest stopped by the timeout" 'timeout after' \
	"$run" -q -T 15 -o "$tmp/hang" cmd 'while :; do :; done'
# Stopping a run stops its guest, however it is stopped: SIGTERM to
# lab/run, or a Ctrl-C, which the terminal sends as SIGINT to the whole
# foreground process group (setsid makes that group here; env restores the
# SIGINT a background job of sh starts without).  The guest spins: with the
# instruction clock a sleeping guest would finish at once.
for sig in TERM INT; do
	o=$tmp/stop-$sig
	setsid env --default-signal=INT "$run" -q -T 120 -o "$o" cmd 'while :; do :; done' >"$tmp/out" 2>&1 &
	pid=$!
	wait_until 60 test -s "$o/console.log" || true
	case $sig in
	TERM) kill -TERM "$pid" ;;
	INT) env kill -s INT -- "-$pid" ;;
	esac
	rc=0
	wait "$pid" || rc=$?
	wait_until 5 none_running "$o" || true
	if none_running "$o"; then
		ok "SIG$sig to lab/run (exit $rc) stops QEMU and every helper"
	else
		not_ok "SIG$sig to lab/run (exit $rc) leaves: $(pgrep -af -- "$o" | cut -c1-100 | tr '\n' ';')"
		pkill -KILL -f -- "$o" || true
	fi
done

check "dry run (-n) prints the QEMU command line and boots nothing" \
	sh -c "'$run' -n -p hikey960 -o '$tmp/dry' idle | grep -q '^qemu-system-aarch64 -machine virt .*-smp 8 .*-append .*lab.experiment=idle' && [ ! -e '$tmp/dry' ]"
check "-h and --help print the help on stdout with status 0" \
	sh -c "'$run' -h | grep -q '^Usage: lab/run' && '$run' --help | grep -q '^Usage: lab/run'"
check "an unknown option is refused with status 2 and a pointer to --help" \
	sh -c "'$run' -Z idle 2>&1 | grep -q -- '--help' && { '$run' -Z idle 2>/dev/null; [ \$? -eq 2 ]; }"
expect_fail "unknown platform names the known ones" 'known: .*juno-r0' \
	"$run" -q -p no-such-soc idle
expect_fail "malformed platform: file, line and field" 'bad/unknown-key.plat:[0-9]*: ' \
	"$run" -q -p "$LAB_TOP/tests/host/bad/unknown-key.plat" idle
expect_fail "unknown experiment is named" "unknown experiment 'no-such-experiment'" \
	"$run" -q no-such-experiment
tests_done
