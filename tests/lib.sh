# SPDX-License-Identifier: GPL-2.0-only
# Helpers for test suites (sourced, POSIX sh).  The sourcing suite sets
# LAB_TOP first.
# shellcheck shell=sh
# shellcheck source=lab/lib.sh
. "$LAB_TOP/lab/lib.sh"

# Cases that failed so far in this shell (a case reported from a
# subshell, such as a piped loop, counts in make check's tally only).
TESTS_FAILED=0

ok() {
	echo "ok - $*"
}

not_ok() {
	echo "not ok - $*"
	TESTS_FAILED=$((TESTS_FAILED + 1))
}

# tests_done: the suite's status, 1 if a case failed: a suite run on its
# own says what make check would.
tests_done() {
	exit $((TESTS_FAILED > 0))
}

# check NAME COMMAND...: one case, passing when COMMAND succeeds.
check() {
	_check_name=$1
	shift
	if "$@"; then ok "$_check_name"; else not_ok "$_check_name"; fi
}

# wait_until SECONDS COMMAND...: poll COMMAND every 0.1 s until it
# succeeds or SECONDS pass; its last status.
wait_until() {
	_tenths=$(($1 * 10))
	shift
	until "$@"; do
		[ "$_tenths" -gt 0 ] || return 1
		sleep 0.1
		_tenths=$((_tenths - 1))
	done
}

# none_running PATTERN: no process has PATTERN in its command line (a
# run's results directory names its QEMU and its scripts).
none_running() {
	! pgrep -f -- "$1" >/dev/null
}

# json_true FILE FILTER: the jq FILTER holds on FILE.
json_true() {
	jq -e "$2" "$1" >/dev/null 2>&1
}

# expect_fail NAME PATTERN COMMAND...: one case, passing when COMMAND fails
# and its output matches PATTERN (the one clear message a user gets).  Its
# variables are _-prefixed: sh has no locals, and a suite's own $out,
# clobbered, once sent a later run's results to a removed temporary file's
# name, left behind in /tmp.
expect_fail() {
	_ef_name=$1 _ef_pattern=$2
	shift 2
	_ef_out=$(mktemp)
	if "$@" >"$_ef_out" 2>&1; then
		not_ok "$_ef_name: succeeded, expected a failure"
	elif grep -q -- "$_ef_pattern" "$_ef_out"; then
		ok "$_ef_name"
	else
		not_ok "$_ef_name: no '$_ef_pattern' in its output:"
		tail -n 10 "$_ef_out" | sed 's/^/    /'
	fi
	rm -f "$_ef_out"
}
