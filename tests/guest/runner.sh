#!/bin/sh
# lab/run as a user meets it: each kind of experiment runs and its files
# come back, tracing records the events, and a guest that panics, hangs or
# fails, or a bad platform, is reported as such.
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
expect_fail "kernel panic reported with the console's tail" 'Kernel panic' \
	"$run" -q -T 60 -o "$tmp/panic" -a rdinit=/bin/false idle
check "panic verdict in summary.json" json_true "$tmp/panic/summary.json" '.verdict == "panic"'
expect_fail "hung guest stopped by the timeout" 'timeout after' \
	"$run" -q -T 15 -o "$tmp/hang" cmd 'while :; do :; done'
expect_fail "unknown platform names the known ones" 'known: .*juno-r0' \
	"$run" -q -p no-such-soc idle
expect_fail "malformed platform: file, line and field" 'bad/unknown-key.plat:[0-9]*: ' \
	"$run" -q -p "$LAB_TOP/tests/host/bad/unknown-key.plat" idle
expect_fail "unknown experiment is named" "unknown experiment 'no-such-experiment'" \
	"$run" -q no-such-experiment
