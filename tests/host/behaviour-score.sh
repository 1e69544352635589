#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# lab/behaviour/score.sh, the verdict behind every behaviour test, on a
# recorded run (tests/host/data/behaviour-run: two tasks of util 100 on
# Juno r0's big CPUs for 1 s, one of three activations late): the run is
# scored, and a run the trace lacks fails rather than scoring 1.0.
set -eu
LAB_TOP=$(CDPATH='' cd -- "$(dirname -- "$0")/../.." && pwd)
# shellcheck source=tests/lib.sh
. "$LAB_TOP/tests/lib.sh"
cd "$LAB_TOP"

make -s tools
score=lab/behaviour/score.sh
d=tests/host/data/behaviour-run
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

rc=0
"$score" juno-r0 "$d/events" ThreeSmallTasks-p2-r1 "$d/profile" "$d/rtapp" >"$tmp/out" 2>&1 || rc=$?
# Two util-100 tasks on the bigs cost more than on the littles, where the
# optimum puts them; small-0 was late once in its two activations.
# shellcheck disable=SC2016 # awk's fields
check "a recorded run is scored: $(cat "$tmp/out")" \
	awk -v rc="$rc" '$1 == "ratio" && $2 > 1.0 && $8 == "50.0" && $10 == "small-0" && $12 == 3 { ok = 1 }
		END { exit !(ok && rc == 0) }' "$tmp/out"
expect_fail "a run missing from the trace fails, naming the run" 'no run NoSuch-p2-r1 in the trace' \
	"$score" juno-r0 "$d/events" NoSuch-p2-r1 "$d/profile" "$d/rtapp"
: >"$tmp/empty"
expect_fail "an empty trace fails" 'no placement of ThreeSmallTasks-p2-r1' \
	"$score" juno-r0 "$tmp/empty" ThreeSmallTasks-p2-r1 "$d/profile" "$d/rtapp"
grep -v small-1 "$d/events" >"$tmp/one-task"
expect_fail "a task of the profile that never ran fails, naming it" 'task small-1 never ran' \
	"$score" juno-r0 "$tmp/one-task" ThreeSmallTasks-p2-r1 "$d/profile" "$d/rtapp"
expect_fail "a run without rt-app logs fails" 'no rt-app logs' \
	"$score" juno-r0 "$d/events" ThreeSmallTasks-p2-r1 "$d/profile" "$tmp"
tests_done
