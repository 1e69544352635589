#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# lab/search-bench, reduced: the KUnit benchmark of the energy-aware
# searches (lab patch 0007) on landscapes of 8 to 64 CPUs, one boot of
# Juno r0 with one CPU online.  Checks that the suite passed (its check of
# the choices against the Energy Model's rule included), that every
# landscape and policy has a cost, and that the report fits the growth.
# Not the figures themselves: those are the full run's (docs/scale.md).
set -eu
LAB_TOP=$(CDPATH='' cd -- "$(dirname -- "$0")/../.." && pwd)
# shellcheck source=tests/lib.sh
. "$LAB_TOP/tests/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
out=$tmp/search-bench

expect_fail "lab/search-bench refuses a size that is not a power of two" \
	"-m wants a power of two from 8 to 1024, got '100'" \
	"$LAB_TOP/lab/search-bench" -m 100 -o "$tmp/bad"
check "make search-bench passes its knob as lab/search-bench's option" \
	sh -c "make -s -n -C '$LAB_TOP' search-bench MAX_CPUS=128 | grep -q 'lab/search-bench -m \"128\"'"

rc=0
"$LAB_TOP/lab/search-bench" -m 64 -o "$out" >"$tmp/log" 2>&1 || rc=$?
check "reduced lab/search-bench runs to its end (exit $rc)" [ "$rc" -eq 0 ]
if [ "$rc" -ne 0 ]; then
	tail -n 20 "$tmp/log" | sed 's/^/    /'
fi
check "the KUnit suite passed, its three cases run" \
	grep -q '^KUnit suite sched_energy_bench: passed (pass 3, fail 0, skip 0)' "$out/report.md"
check "the ports were checked against the Energy Model's rule before timing" \
	grep -q '^Checked before timing: on 176 landscapes' "$out/report.md"
# N = 8..64 with P = 1..N: 4 + 5 + 6 + 7 landscapes, and 7 state counts.
n=$(grep -c 'search_cost_[a-z]*: cost N=.*policy=\(6.12\|series\) ' "$out/boot/console.log" || true)
check "a cost line per landscape and policy (29 x 2: $n)" [ "$n" -eq 58 ]
check "every landscape has a positive cost per policy in the report (29)" \
	python3 -c "import sys
rows = [r.split('|')[1:6] for r in open(sys.argv[1]).read().split('## Every landscape')[1].splitlines()
        if r.startswith('| ') and r[2].isdigit()]
sys.exit(not (len(rows) == 29 and all(float(r[3]) > 0 and float(r[4]) > 0 for r in rows)))" "$out/report.md"
check "the joint fit of both policies is in the report" \
	sh -c "grep -c '^| \(6.12\|series\) | -\?[0-9]* | [0-9.]* | ' '$out/report.md' | grep -qx 2"
check "the plot was drawn" [ -s "$out/search-cost.png" ]
sed -n '/^## Joint fit/,/^## Every/p' "$out/report.md" | grep '^|' | sed 's/^/    /'
tests_done
