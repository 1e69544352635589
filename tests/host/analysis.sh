#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# lab/analysis, the host-side analysis in Python (standard library only):
# its unit tests, tests/host/analysis_test.py, on the runs recorded in
# tests/host/data (a real behaviour run on gs101 with what the shell
# analysis made of it, synthetic ones), one line per test; and pyflakes on
# its modules where Debian's python3-pyflakes is installed.
set -eu
LAB_TOP=$(CDPATH='' cd -- "$(dirname -- "$0")/../.." && pwd)
# shellcheck source=tests/lib.sh
. "$LAB_TOP/tests/lib.sh"
PYTHON=${PYTHON:-/usr/bin/python3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The tests score with emcost and read platforms with platgen.
make -s -C "$LAB_TOP" tools

rc=0
"$PYTHON" "$LAB_TOP/tests/host/analysis_test.py" >"$tmp/out" 2>&1 || rc=$?
cat "$tmp/out"
# A module that does not even import prints no test line: say so.
if ! grep -q '^ok - ' "$tmp/out" && ! grep -q '^not ok - ' "$tmp/out"; then
	not_ok "tests/host/analysis_test.py ran no test (status $rc)"
elif [ "$rc" -ne 0 ] && ! grep -q '^not ok - ' "$tmp/out"; then
	not_ok "tests/host/analysis_test.py: status $rc, yet no test failed"
fi
[ "$rc" -eq 0 ] || TESTS_FAILED=$((TESTS_FAILED + 1))

# The report of make bench (lab/bench-report.sh, lab/analysis/bench.py):
# tests/host/bench_report_test.py, the same files as the shell version it
# replaced on recorded runs, and its tables, pairs, targets and verdict.
rc=0
"$PYTHON" "$LAB_TOP/tests/host/bench_report_test.py" >"$tmp/bench.out" 2>&1 || rc=$?
cat "$tmp/bench.out"
if ! grep -q '^ok - ' "$tmp/bench.out" && ! grep -q '^not ok - ' "$tmp/bench.out"; then
	not_ok "tests/host/bench_report_test.py ran no test (status $rc)"
elif [ "$rc" -ne 0 ] && ! grep -q '^not ok - ' "$tmp/bench.out"; then
	not_ok "tests/host/bench_report_test.py: status $rc, yet no test failed"
fi
[ "$rc" -eq 0 ] || TESTS_FAILED=$((TESTS_FAILED + 1))

if command -v pyflakes3 >/dev/null 2>&1; then
	check "pyflakes3: lab/analysis and its tests are clean" \
		pyflakes3 "$LAB_TOP"/lab/analysis/*.py "$LAB_TOP/tests/host/analysis_test.py" \
		"$LAB_TOP/tests/host/bench_report_test.py"
else
	ok "pyflakes3: lab/analysis and its tests are clean # skip python3-pyflakes is not installed"
fi
tests_done
