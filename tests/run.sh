#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# make check: build what the tests need, run every suite, tally.
# A suite is an executable tests/*/NAME.sh printing one line per case,
# "ok - ..." or "not ok - ...", as TAP does; its lines show as they come.
#
# Usage: tests/run.sh [SUITE...]
#   SUITE       a suite's name (runner, tests/guest/runner.sh): only these
#               (default: every suite, host ones first)
#   -h, --help  this help
# Results: results/check-<date>-<time>/results.tap (every case),
# verdict.json and seconds.txt (the build's and each suite's wall time,
# "NAME SECONDS", for whoever makes make check faster).  Exit status: 0 when every case passes, 1 otherwise.
set -eu
LAB_TOP=$(CDPATH='' cd -- "$(dirname -- "$0")/.." && pwd)
cd "$LAB_TOP"
# shellcheck source=lab/lib.sh
. "$LAB_TOP/lab/lib.sh"

help_only_options "$@"
shift $((OPTIND - 1))
all_suites() {
	for f in tests/host/*.sh tests/guest/*.sh; do
		[ -x "$f" ] && echo "$f"
	done
}
suites=''
for s in "$@"; do
	f=''
	for c in "$s" "tests/host/${s%.sh}.sh" "tests/guest/${s%.sh}.sh"; do
		case $c in */*) [ -x "$c" ] && f=$c && break ;; esac
	done
	[ -n "$f" ] || usage_error "no suite '$s' (suites: $(all_suites | sed 's|.*/||; s/\.sh$//' | xargs))"
	suites="$suites $f"
done
[ -n "$suites" ] || suites=$(all_suites)

start=$(date +%s)
outdir=$LAB_TOP/results/check-$(date +%Y%m%d-%H%M%S)
mkdir -p "$outdir"
mark_latest "$outdir"
all=$outdir/results.tap
: >"$all"
log=$(mktemp)
trap 'rm -f "$log" "$log.rc"' EXIT

pass=0
fail=0
tally() {
	grep -E '^(not )?ok ' "$log" >>"$all" || true
	p=$(grep -c '^ok ' "$log" || true)
	f=$(grep -c '^not ok ' "$log" || true)
	pass=$((pass + p))
	fail=$((fail + f))
}

echo "== build"
t0=$(date +%s)
if make -s kernel initramfs tools; then
	echo "ok - build: kernel, initramfs, tools" | tee "$log"
else
	echo "not ok - build: kernel, initramfs or tools failed" | tee "$log"
fi
tally
echo "build $(( $(date +%s) - t0 ))" >"$outdir/seconds.txt"
if [ "$fail" -gt 0 ]; then
	echo "$pass passed, $fail failed"
	verdict_json "$all" >"$outdir/verdict.json"
	exit 1
fi

for suite in $suites; do
	echo "== $suite"
	t0=$(date +%s)
	# Each line as it comes (a suite can take minutes), and the status
	# past the pipe.
	{
		rc=0
		"$suite" 2>&1 || rc=$?
		echo "$rc" >"$log.rc"
	} | tee "$log"
	rc=$(cat "$log.rc")
	if [ "$rc" != 0 ] && ! grep -q '^not ok ' "$log"; then
		echo "not ok - $suite exited $rc without reporting a failing case" | tee -a "$log"
	fi
	tally
	echo "   ($(( $(date +%s) - t0 ))s)"
	echo "${suite#tests/} $(( $(date +%s) - t0 ))" >>"$outdir/seconds.txt"
done

elapsed=$(( $(date +%s) - start ))
echo "make check took $((elapsed / 60))m$((elapsed % 60))s"
verdict_json "$all" >"$outdir/verdict.json"
echo "results: ${outdir#"$LAB_TOP"/}/results.tap, verdict.json, seconds.txt"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
