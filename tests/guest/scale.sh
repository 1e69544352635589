#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# make scale, reduced: Juno r0, the frozen workload, 3 runs (one boot,
# about 10 s).  Checks that every run timed the same tasks under every
# policy in each of the six orders, that each run's landscape was made
# under another policy, and that the report pairs the series with 6.12
# task by task and states its verdict.
# Not the figures themselves: those are the full run's (docs/scale.md).
set -eu
LAB_TOP=$(CDPATH='' cd -- "$(dirname -- "$0")/../.." && pwd)
# shellcheck source=tests/lib.sh
. "$LAB_TOP/tests/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
out=$tmp/scale

expect_fail "lab/scale refuses a workload it does not know" \
	"-w: unknown workload 'idle'" \
	"$LAB_TOP/lab/scale" -w idle -o "$tmp/bad"

rc=0
"$LAB_TOP/lab/scale" -p juno-r0 -w frozen -g 0 -r 3 -o "$out" >"$tmp/log" 2>&1 || rc=$?
check "reduced make scale runs to its end (exit $rc)" [ "$rc" -eq 0 ]
[ "$rc" -eq 0 ] || tail -n 20 "$tmp/log" | sed 's/^/    /'

log=$out/juno-r0/experiment.log
# 6 tasks x 200 calls, two lines a call (the call and the empty interval).
n=$(awk '$2 == "workload" && $3 == "frozen:6" && $9 == 2400 && $11 == 0' \
	"$log" 2>/dev/null | wc -l)
check "3 runs x 3 policies, each 6 tasks x 200 calls, nothing lost ($n)" [ "$n" -eq 9 ]
# The policy that made each run's landscape is the first one the run lists.
firsts=$(awk '$2 == "workload" && $7 != r { r = $7; printf "%s ", $5 }' \
	"$log" 2>/dev/null)
check "each run's landscape made under another policy (first policies: $firsts)" \
	[ "$firsts" = "0 1 2 " ]
# Each run: 6 tasks, each timed under the three policies in another of
# the 6 orders, so that on each landscape each policy precedes each other
# as often.
tasks=$(awk '$2 == "frozen" && $3 == "run" {
	order = $8 $9 $10
	if (NF != 10 || $7 != "policies" || order !~ /^(012|021|102|120|201|210)$/)
		bad++
	n[$4]++
	if (seen[$4, order]++)
		bad++
	orders[order] = 1
} END {
	for (r in n)
		if (n[r] != 6)
			bad++
	print length(n) + 0, length(orders) + 0, bad + 0
}' "$log" 2>/dev/null)
check "each run timed 6 tasks under every policy, each in another order (runs, orders, faults: $tasks)" \
	[ "$tasks" = "3 6 0" ]
same=1
for r in 1 2 3; do
	for p in 0 1 2; do
		f=$out/juno-r0/wakeup-cost/frozen-6-p$p-r$r.txt
		[ "$(grep -c '^select_task_rq_fair [0-9]* 0$' "$f" 2>/dev/null)" = 1200 ] ||
			same=0
	done
done
check "every policy timed 1200 selections in every run" [ "$same" -eq 1 ]
check "report: the series paired with 6.12 task by task on juno-r0's frozen runs, verdict stated" \
	grep -q -E '^- juno-r0, frozen:6: series - 6.12 = [-+][0-9]+ \+-[0-9]+ instructions per call, each task.s mean paired over [0-9]+ tasks.*; by order: 6.12 first .* \((met|MISSED)' \
	"$out/report.md"
check "no QEMU left running" none_running "$out/"
tests_done
