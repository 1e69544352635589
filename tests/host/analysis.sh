#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# lab/analysis, the host-side analysis in Python (standard library only):
# its unit tests on the runs recorded in tests/host/data (real ones with
# what the shell analysis made of them, synthetic ones), one line per
# test.
set -eu
LAB_TOP=$(CDPATH='' cd -- "$(dirname -- "$0")/../.." && pwd)
# shellcheck source=tests/lib.sh
. "$LAB_TOP/tests/lib.sh"
PYTHON=${PYTHON:-/usr/bin/python3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The tests score with emcost and read platforms with platgen.
make -s -C "$LAB_TOP" tools

# Each module prints one "ok - " or "not ok - " line per test and exits 1
# when one fails:
#   analysis_test.py      trace reader, statistics, platform model and the
#                         behaviour tests' analysis, against what the awk it
#                         replaced made of a recorded gs101 run
#   bench_report_test.py  make bench's report (lab/analysis/bench.py), the
#                         same files as the shell version on recorded runs
#   placement_test.py     where tasks ran (lab/trace-placement.sh), the same
#                         output as the awk on recorded trace reports
#   migrations_test.py    how tasks moved and why (lab/trace-migrations.sh) on
#                         synthetic trace reports of known moves
#   publish_test.py       lab/publish: a report between a page's markers
#   search_bench_test.py  lab/search-bench's report (lab/analysis/search_bench.py)
#                         on synthetic consoles of known cost
#   wakeup_cost_test.py   make scale's report (lab/analysis/wakeup_cost.py) on
#                         synthetic runs of known cost
#   threshold_report_test.py  make threshold's report (lab/analysis/threshold.py)
#                         on synthetic runs of known energy
#   wakeup_latency_test.py  how long wake-ups take to land
#                         (lab/trace-wakeup-latency.sh) on synthetic trace reports
# (tests/host/rfc-report.sh runs rfc_report_test.py.  pyflakes runs on
# every Python file in tests/host/code-quality.sh.)
for t in analysis_test bench_report_test migrations_test placement_test publish_test search_bench_test threshold_report_test wakeup_cost_test wakeup_latency_test; do
	rc=0
	"$PYTHON" "$LAB_TOP/tests/host/$t.py" >"$tmp/$t.out" 2>&1 || rc=$?
	cat "$tmp/$t.out"
	# A module that does not even import prints no test line: say so.
	if ! grep -q -e '^ok - ' -e '^not ok - ' "$tmp/$t.out"; then
		not_ok "tests/host/$t.py ran no test (status $rc)"
	elif [ "$rc" -ne 0 ] && ! grep -q '^not ok - ' "$tmp/$t.out"; then
		not_ok "tests/host/$t.py: status $rc, yet no test failed"
	fi
	[ "$rc" -eq 0 ] || TESTS_FAILED=$((TESTS_FAILED + 1))
done
tests_done
