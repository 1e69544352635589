#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# make check: build what the tests need, run every suite, tally.
# A suite is an executable tests/*/NAME.sh printing one line per case,
# "ok - ..." or "not ok - ...", as TAP does.
set -eu
LAB_TOP=$(CDPATH='' cd -- "$(dirname -- "$0")/.." && pwd)
cd "$LAB_TOP"
start=$(date +%s)
log=$(mktemp)
trap 'rm -f "$log"' EXIT

pass=0
fail=0
tally() {
	p=$(grep -c '^ok ' "$log" || true)
	f=$(grep -c '^not ok ' "$log" || true)
	pass=$((pass + p))
	fail=$((fail + f))
}

echo "== build"
if make -s kernel initramfs tools; then
	echo "ok - build: kernel, initramfs, tools" | tee "$log"
else
	echo "not ok - build: kernel, initramfs or tools failed" | tee "$log"
fi
tally
if [ "$fail" -gt 0 ]; then
	echo "$pass passed, $fail failed"
	exit 1
fi

for suite in tests/host/*.sh tests/guest/*.sh; do
	[ -x "$suite" ] || continue
	echo "== $suite"
	t0=$(date +%s)
	rc=0
	"$suite" >"$log" 2>&1 || rc=$?
	cat "$log"
	if [ "$rc" != 0 ] && ! grep -q '^not ok ' "$log"; then
		echo "not ok - $suite exited $rc without reporting a failing case" | tee -a "$log"
	fi
	tally
	echo "   ($(( $(date +%s) - t0 ))s)"
done

elapsed=$(( $(date +%s) - start ))
echo "make check took $((elapsed / 60))m$((elapsed % 60))s"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
