#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# make threshold, reduced: gs101 (two classes below the big CPUs), tasks at
# 84% of each class's capacity, one task, 2 s runs, 2 repetitions; checks
# that every scenario ran under every policy with the tasks it asked for and
# that the report states its verdicts.  Not the verdicts themselves: those
# are the full run's (docs/threshold.md).
set -eu
LAB_TOP=$(CDPATH='' cd -- "$(dirname -- "$0")/../.." && pwd)
# shellcheck source=tests/lib.sh
. "$LAB_TOP/tests/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
out=$tmp/threshold

expect_fail "lab/threshold refuses a utilization that is not a number" "-u wants whole numbers" \
	"$LAB_TOP/lab/threshold" -u '84 x' -o "$tmp/bad"
expect_fail "lab/threshold refuses a task count it does not know" "-c wants whole numbers > 0, got 'most'" \
	"$LAB_TOP/lab/threshold" -c 'half most' -o "$tmp/bad"
expect_fail "lab/threshold refuses a platform with one CPU class" "no CPU class smaller than the biggest" \
	"$LAB_TOP/lab/threshold" -p "$LAB_TOP/tests/host/good/symmetric.plat" -o "$tmp/bad"
check "make threshold passes its knobs as lab/threshold's options" \
	sh -c "make -s -n -C '$LAB_TOP' threshold PLATFORMS=gs101 PCTS='80 90' COUNTS=all REPS=3 | grep -q 'lab/threshold -p \"gs101\" -u \"80 90\" -c \"all\" *-r \"3\"'"

rc=0
"$LAB_TOP/lab/threshold" -p gs101 -u 84 -c 1 -d 2 -r 2 -o "$out" >"$tmp/log" 2>&1 || rc=$?
sed -e '/^## Targets/,$d' -e 's/^/    /' "$tmp/log"
check "reduced make threshold runs to its end (exit $rc)" [ "$rc" -eq 0 ]

# Every scenario (its tasks, work and period) x policy ran twice, metered.
want=$(awk '{ for (p = 0; p <= 2; p++) print $6, $7, $8, p }' "$out/scenarios" 2>/dev/null | sort)
# By name: fields are added at the end of the line (loops, late).
got=$(awk '$1 == "bench-energy" && $11 > 0 { for (i = 1; i < NF; i++) v[$i] = $(i + 1); print $3, v["run_us"], v["period_us"], $5 }' \
	"$out/gs101/experiment.log" 2>/dev/null | sort | uniq -c | awk '$1 == 2 { print $2, $3, $4, $5 }')
check "every scenario x policy ran twice with its own tasks, energy > 0 ($(echo "$want" | wc -l) wanted)" \
	sh -c "[ -n '$want' ] && [ '$want' = '$got' ]"
check "two scenarios: one per class below the big CPUs (little, mid)" \
	sh -c "[ \"\$(awk '{ print \$2 }' '$out/scenarios' | xargs)\" = 'little mid' ]"
t=$(grep -c -E '^- .* in every scenario: \*\*(met|missed)\*\*' "$out/report.md" 2>/dev/null || true)
check "report: the 3 targets stated met or missed ($t)" [ "$t" -eq 3 ]
check "report.json: 2 scenarios, each with the three policies' runs" \
	python3 -c "import json, sys; j = json.load(open(sys.argv[1]))
sys.exit(not (len(j['scenarios']) == 2 and all(len(s['policies']) == 3 and all(len(p['runs_j']) == 2 for p in s['policies'].values()) for s in j['scenarios'])))" "$out/report.json"
sed -n '/^## Targets/,$p' "$out/report.md" | sed 's/^/    /'
tests_done
