#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# make bench, reduced: Juno r0, N = 10 and 50, 5 s runs,
# 2 iterations, hackbench G = 1 and 2; prints its report and checks that
# the benchmark produced complete, sane numbers.  Not the performance
# targets: those are the report's, from the full run.
#
# Invariants checked on every run, from the meter's own model
# (docs/lab-fidelity.md: E = sum of busy time x P(OPP) + idle time x
# P_idle): the energy lies between every CPU idle for the whole window
# plus the tasks' work at the cheapest marginal cost of any OPP, and every
# CPU busy at its top OPP for the whole window; and the frequency-domain
# channels add up to the total.  "Optimum <= measured" is not asserted:
# the optimum holds each domain at LISA's 20% margin, and a kernel that
# runs a domain with less headroom than that can be metered below it; the
# optimum is instead checked against the same lower bound, which no
# placement can beat.
set -eu
LAB_TOP=$(CDPATH='' cd -- "$(dirname -- "$0")/../.." && pwd)
# shellcheck source=tests/lib.sh
. "$LAB_TOP/tests/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
N_LIST='10 50'
ITERATIONS=2
GROUPS_LIST='1 2'
out=$tmp/bench

expect_fail "lab/bench refuses a task count that is not a number" "task counts (-N) wants whole numbers" \
	"$LAB_TOP/lab/bench" -N '10 x' -o "$tmp/bad"
expect_fail "lab/bench refuses an unknown platform" "no platform 'nosuch'" \
	"$LAB_TOP/lab/bench" -p nosuch -o "$tmp/bad"
expect_fail "lab/bench refuses a variant of the series it does not know" "unknown variant '2x'" \
	"$LAB_TOP/lab/bench" -V '2m 2x' -o "$tmp/bad"
expect_fail "lab/bench refuses an operand rather than starting a full run" "unexpected argument 'juno-r0'" \
	"$LAB_TOP/lab/bench" juno-r0
check "lab/bench -n prints one QEMU command line per boot and boots nothing" \
	sh -c "[ \$('$LAB_TOP/lab/bench' -n -p juno-r0,hikey960 -o '$tmp/dry' | grep -c '^qemu-system-aarch64 ') -eq 4 ] && [ ! -e '$tmp/dry' ]"
check "make bench passes its knobs as lab/bench's options" \
	sh -c "make -s -n -C '$LAB_TOP' bench PLATFORMS=hikey960 N='10 20' DURATION=2 REPS=4 HB_REPS=5 PARALLEL=1 | grep -q 'lab/bench -p \"hikey960\" -N \"10 20\" *-d \"2\" -r \"4\" .*-R \"5\" -j'"
# SIGTERM to a driver mid-boot stops the boot, its QEMU included, at once
# (sh runs a trap only when its foreground command ends: the boot runs
# in the background and the driver waits for it).
o=$tmp/stopped
"$LAB_TOP/lab/bench" -p juno-r0 -N 10 -r 1 -o "$o" >"$tmp/stop.log" 2>&1 &
pid=$!
wait_until 60 test -s "$o/juno-r0-energy/console.log" || true
t0=$(date +%s)
kill -TERM "$pid"
rc=0
wait "$pid" || rc=$?
wait_until 5 none_running "$o" || true
left=$(pgrep -af -- "$o" | cut -c1-80 | tr '\n' ';' || true)
# Both in the case: a "[ ] && [ ]" after check would test outside it.
stopped=0
[ -z "$left" ] && [ "$rc" -ne 0 ] && stopped=1
check "SIGTERM to lab/bench mid-boot: exit $rc within $(($(date +%s) - t0)) s, nothing of it left${left:+ (left: $left)}" \
	[ "$stopped" = 1 ]
pkill -KILL -f -- "$o" || true

expect_fail "lab/bench-report.sh refuses a directory lab/bench did not write" "not a directory lab/bench wrote" \
	"$LAB_TOP/lab/bench-report.sh" "$tmp"

rc=0
"$LAB_TOP/lab/bench" -p juno-r0 -N "$N_LIST" -d 5 -r "$ITERATIONS" -g "$GROUPS_LIST" -l 20 \
	-R "$ITERATIONS" -o "$out" >"$tmp/log" 2>&1 || rc=$?
sed -e '/^## Targets/,$d' -e 's/^/    /' "$tmp/log"
check "reduced make bench runs to its end (exit $rc)" [ "$rc" -eq 0 ]

elog=$out/juno-r0-energy/experiment.log
hlog=$out/juno-r0-hackbench/experiment.log
# cells LOG KIND KEYFIELD: "KEY POLICY" pairs with ITERATIONS runs each.
cells() {
	grep -s "^bench-$2 " "$1" | awk -v want="$ITERATIONS" '
		{ c[$3 " " $5]++ } END { for (k in c) if (c[k] == want) print k }' | sort
}
expected() {
	for s in $1; do
		for p in 0 1 2; do
			echo "$s $p"
		done
	done | sort
}
check "energy: every N x policy has $ITERATIONS runs" \
	[ "$(cells "$elog" energy)" = "$(expected "$N_LIST")" ]
check "hackbench: every G x policy has $ITERATIONS runs" \
	[ "$(cells "$hlog" hackbench)" = "$(expected "$GROUPS_LIST")" ]

n=$(awk '$1 == "bench-energy" && !($11 > 0 && $9 >= 5000000)' "$elog" 2>/dev/null | wc -l)
check "energy: every run metered > 0 uJ over a window >= its 5 s ($n not)" [ "$n" -eq 0 ]
bad=$(awk '$1 == "bench-energy" { d = $11 - $13; if (d < 0) d = -d; if (d > $11 / 100) print }' "$elog" 2>/dev/null)
check "energy: the domain channels add up to the total within 1% in every run" [ -z "$bad" ]
echo "$bad" | sed '/^$/d; s/^/    /'
bounds=$out/bounds-juno-r0.txt
bad=$(awk '!($9 >= $11 && $9 <= $13)' "$bounds" 2>/dev/null)
check "energy: every run between the meter model's floor and ceiling" \
	sh -c "[ -s '$bounds' ] && [ -z '$bad' ]"
echo "$bad" | sed '/^$/d; s/^/    /'
n=$(awk '$1 == "bench-hackbench" && !($9 > 0)' "$hlog" 2>/dev/null | wc -l)
check "hackbench: every run printed a time > 0 ($n not)" [ "$n" -eq 0 ]
n=$(awk '$1 == "bench-hackbench" && !($12 == "total_uj" && $13 > 0)' "$hlog" 2>/dev/null | wc -l)
check "hackbench: every run metered > 0 uJ ($n not)" [ "$n" -eq 0 ]
check "report: the hackbench runs' energy, the series paired against none" \
	grep -q '^Energy of the runs on the meter, J .* G=1: [0-9.]* / [0-9.]* / [0-9.]*, 6.12 [-+][0-9.]*% +-[0-9.]*, series [-+][0-9.]*% +-[0-9.]*' \
	"$out/report.md"

# The report: a full row per N and G, no missing cell, the optimum no
# lower than the floor of any run at that N.
report=$out/report.md
for s in $N_LIST; do
	row=$(grep "^| $s | [0-9]" "$report" | head -n 1)
	check "report: energy row N=$s complete (11 cells, none missing)" \
		sh -c "echo '$row' | awk -F'|' 'NF == 13 { for (i = 2; i <= 12; i++) if (\$i ~ /^ *-? *\$/) exit 1; ok = 1 } END { exit !ok }'"
	opt=$(echo "$row" | awk -F'|' '{ print $10 + 0 }')
	floor=$(awk -v n="$s" '$3 == n { if (m == "" || $11 < m) m = $11 } END { print m / 1e6 }' "$bounds" 2>/dev/null)
	check "optimum N=$s ($opt J) not below the lowest energy any placement reaches (${floor:-?} J)" \
		awk -v o="$opt" -v f="${floor:-1e9}" 'BEGIN { exit !(o > 0 && o >= f * 0.999) }'
done
for g in $GROUPS_LIST; do
	check "report: hackbench row G=$g complete" \
		sh -c "grep '^| $g | $((40 * g)) |' '$report' | awk -F'|' 'NF == 11 { for (i = 2; i <= 10; i++) if (\$i ~ /^ *-? *\$/) exit 1; ok = 1 } END { exit !ok }'"
done
t=$(grep -c -E '^- juno-r0, .*\*\*(met|missed|not resolved)\*\*' "$report" 2>/dev/null || true)
check "report: the 4 targets stated met, missed or not resolved ($t)" [ "$t" -eq 4 ]
check "report: the energy plot is a PNG" \
	sh -c "head -c 4 '$out/energy-juno-r0.png' 2>/dev/null | grep -q PNG"
sed -n '/^## Targets/,$p' "$report" | sed 's/^/    /'
tests_done
