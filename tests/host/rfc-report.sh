#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# lab/rfc (make rfc) on the host: its options and dry run, its report
# generator lab/rfc_report.py (unit tests, tests/host/rfc_report_test.py,
# on the recorded sample in tests/host/data/rfc-sample and on synthetic
# runs), and lab/bench-report.sh on bench.sh's lines with the fields and
# the policy (b) lab/rfc added: the same tables as on the old lines.
set -eu
LAB_TOP=$(CDPATH='' cd -- "$(dirname -- "$0")/../.." && pwd)
# shellcheck source=tests/lib.sh
. "$LAB_TOP/tests/lib.sh"
PYTHON=${PYTHON:-/usr/bin/python3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# --- lab/rfc's command line ---
rc=0
"$LAB_TOP/lab/rfc" --help >"$tmp/help" 2>"$tmp/help.err" || rc=$?
check "lab/rfc --help: usage on stdout, status 0" \
	sh -c "[ $rc -eq 0 ] && grep -q '^Usage: lab/rfc' '$tmp/help' && [ ! -s '$tmp/help.err' ]"
rc=0
"$LAB_TOP/lab/rfc" -h >"$tmp/h" 2>&1 || rc=$?
check "lab/rfc -h: the same, status 0" sh -c "[ $rc -eq 0 ] && cmp -s '$tmp/h' '$tmp/help'"
expect_fail "lab/rfc rejects a stray argument" "unexpected argument 'juno-r0'" "$LAB_TOP/lab/rfc" -n juno-r0
expect_fail "lab/rfc rejects an unknown option" "Try '.*--help'" "$LAB_TOP/lab/rfc" -x
expect_fail "lab/rfc rejects a task count that is not a number" "wants whole numbers > 0, got 'x'" \
	"$LAB_TOP/lab/rfc" -n -N '10 x'
expect_fail "lab/rfc rejects a zero duration" "duration (-d) wants whole numbers > 0, got '0'" \
	"$LAB_TOP/lab/rfc" -n -d 0
expect_fail "lab/rfc rejects an unknown platform" "no platform 'nosuch'" "$LAB_TOP/lab/rfc" -n -p nosuch
expect_fail "lab/rfc rejects an unknown schedutil mode" "is 4.16, 6.12 or 4.16su, got '5.10'" \
	"$LAB_TOP/lab/rfc" -n -s 5.10
expect_fail "lab/rfc rejects an unknown policy" "is b, 0, 1 or 2, got '3'" "$LAB_TOP/lab/rfc" -n -P b,3
expect_fail "lab/rfc rejects an unknown idle limit" "idle (-i) is all, cpu or wfi, got 'deep'" \
	"$LAB_TOP/lab/rfc" -n -i deep

rc=0
"$LAB_TOP/lab/rfc" -n -o "$tmp/dry" >"$tmp/dry.out" 2>&1 || rc=$?
check "lab/rfc -n: status 0, nothing written" sh -c "[ $rc -eq 0 ] && [ ! -e '$tmp/dry' ]"
check "lab/rfc -n: 4 boots by default (2 platforms x 2 schedutil modes), progress 'boot k of 4'" \
	sh -c "[ \$(grep -c '^# boot [1-4] of 4: ' '$tmp/dry.out') -eq 4 ]"
check "lab/rfc -n: a QEMU command line per boot, with the instruction clock" \
	sh -c "[ \$(grep -c '^qemu-system-aarch64 .* -icount shift=0,sleep=off ' '$tmp/dry.out') -eq 4 ]"
check "lab/rfc -n: bench.sh energy with policies b,0,1,2 under each schedutil mode" \
	sh -c "grep -q 'lab/run .* -p juno-r0 .*/bench.sh energy 10,20,30,40,50 5 3 b,0,1,2 4.16 all\$' '$tmp/dry.out' &&
		grep -q 'lab/run .* -p hikey960 .*/bench.sh energy 10,20,30,40,50 5 3 b,0,1,2 6.12 all\$' '$tmp/dry.out'"
"$LAB_TOP/lab/rfc" -n -p juno-r0 -N 10,20 -d 2 -r 1 -s 4.16su -P 'b 2' -i cpu >"$tmp/dry2.out" 2>&1 || true
check "lab/rfc -n: options reach the boot (-p -N -d -r -s -P -i)" \
	sh -c "grep -q 'bench.sh energy 10,20 2 1 b,2 4.16su cpu\$' '$tmp/dry2.out' && [ \$(grep -c '^qemu-system' '$tmp/dry2.out') -eq 1 ]"
check "make rfc passes PLATFORMS, N, DURATION and REPS as options" \
	sh -c "make -s -n -C '$LAB_TOP' rfc PLATFORMS=hikey960 N='10 20' DURATION=2 REPS=4 | grep -q 'lab/rfc -p \"hikey960\" -N \"10 20\" -d \"2\" -r \"4\"'"

# --- the report generator ---
rc=0
"$PYTHON" "$LAB_TOP/lab/rfc_report.py" --help >"$tmp/rhelp" 2>&1 || rc=$?
check "rfc_report.py --help: status 0" sh -c "[ $rc -eq 0 ] && grep -q '^usage: rfc_report.py' '$tmp/rhelp'"
"$PYTHON" "$LAB_TOP/tests/host/rfc_report_test.py" || true

cp -r "$LAB_TOP/tests/host/data/rfc-sample" "$tmp/sample"
rc=0
"$PYTHON" "$LAB_TOP/lab/rfc_report.py" -q "$tmp/sample" >"$tmp/q.out" 2>&1 || rc=$?
check "rfc_report.py on the sample: status 0, report.md and report.json written, -q quiet" \
	sh -c "[ $rc -eq 0 ] && [ -s '$tmp/sample/report.md' ] && [ ! -s '$tmp/q.out' ]"
check "report.json: a cell per platform, mode, N and policy (2 x 2 x 2 x 4)" \
	json_true "$tmp/sample/report.json" '(.cells | length) == 32 and (.missing | length) == 0'
check "report.json: the optimum per platform and N, > 0 J" \
	json_true "$tmp/sample/report.json" '(.optimum | length) == 4 and all(.optimum[]; .j30 > 0)'

# --- lab/bench-report.sh on bench.sh's new lines (su, clusters, policy b) ---
for kind in old new; do
	d=$tmp/bench-$kind
	mkdir -p "$d/juno-r0-energy" "$d/juno-r0-hackbench"
	printf 'command=test\nplatforms=juno-r0\nn=10 50\nduration=5\niter=3\nhb_loops=20\nhb_iter=1\ndate=now\n' >"$d/config"
	if [ "$kind" = new ]; then
		cat "$LAB_TOP/tests/host/data/rfc-sample/juno-r0-su4.16/experiment.log"
	else
		grep -v ' policy b ' "$LAB_TOP/tests/host/data/rfc-sample/juno-r0-su4.16/experiment.log" | sed 's/ su .*//'
	fi >"$d/juno-r0-energy/experiment.log"
	for p in b 0 1 2; do
		[ "$kind" = old ] && [ "$p" = b ] && continue
		echo "bench-hackbench g 1 policy $p rep 1 time_s 0.2$([ "$kind" = new ] && echo ' su 4.16')"
	done >"$d/juno-r0-hackbench/experiment.log"
	rc=0
	"$LAB_TOP/lab/bench-report.sh" "$d" >"$d.out" 2>&1 || rc=$?
	check "bench-report.sh on bench.sh's $kind lines: status 0" [ "$rc" -eq 0 ]
done
# The same runs read as old lines (no cluster channels: the Energy
# Model's meter) and as new ones (the board's): the policies' columns
# agree, policy b is left out of the tables, and each report prices its
# optimum on its own meter's model.
check "bench-report.sh: the same policy columns on the new lines (policy b left out) as on the old" \
	sh -c "columns() { grep '^| [0-9]' \"\$1\" | cut -d '|' -f 1-9; }
		[ -n \"\$(columns '$tmp/bench-new.out')\" ] &&
		[ \"\$(columns '$tmp/bench-old.out')\" = \"\$(columns '$tmp/bench-new.out')\" ]"
check "bench-report.sh: new lines (cluster channels) priced on the board model, old ones on the Energy Model" \
	sh -c "grep -q 'emcost -B -p 16000 optimum' '$tmp/bench-new.out' && grep -q 'charging the board' '$tmp/bench-new.out' &&
		grep -q 'emcost optimum -m 20' '$tmp/bench-old.out' && ! grep -q 'emcost -B' '$tmp/bench-old.out'"
check "bench-report.sh: policy b's runs get their bounds" \
	sh -c "grep -q '^bound n 10 policy b rep 1 ' '$tmp/bench-new/bounds-juno-r0.txt'"
check "bench-report.sh: energy rows N=10 and N=50 complete" \
	sh -c "[ \$(grep -c '^| [15]0 | [0-9.]* | [0-9.]*% | [0-9.]* (' '$tmp/bench-new/report.md') -eq 2 ]"
# shellcheck disable=SC2016 # jq's variables
check "bench-report.sh: verdict.json has each target of report.md, met or missed, with its evidence" \
	sh -c "n=\$(grep -c '^- .*: \*\*\(met\|missed\)\*\*' '$tmp/bench-new/report.md') && [ \"\$n\" -gt 0 ] &&
		jq -e --argjson n \"\$n\" '(.targets | length) == \$n and .met + .missed == \$n and
			all(.targets[]; (.met | type) == \"boolean\" and (.target | length) > 0)' '$tmp/bench-new/verdict.json' >/dev/null"
tests_done
