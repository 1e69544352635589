#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Placement over time of one behaviour-test run, as LISA's
# test_task_placement sees it: for each task of the rt-app profile, the CPU
# it last ran on (sleeping or not), with the util the profile expects of it
# at that time.  A task's life starts when it first runs under its name;
# its phases follow from there.  Prints one line per distinct placement,
# "DURATION_US CPU:UTIL CPU:UTIL ..." (durations of identical placements
# summed), the input of `emcost score`.
#
# Usage: lab/behaviour/segments.sh EVENTS RUN_ID PROFILE
#   EVENTS    lab/behaviour/extract.sh's output for the test's trace
#   RUN_ID    the run's markers, "behaviour: begin|end RUN_ID"
#   PROFILE   "TASK DURATION_US UTIL" per phase (lab/behaviour/workloads.sh)
set -eu
LAB_TOP=$(CDPATH='' cd -- "$(dirname -- "$0")/../.." && pwd)
# shellcheck source=lab/lib.sh
. "$LAB_TOP/lab/lib.sh"

[ $# -eq 3 ] || die "usage: ${0##*/} EVENTS RUN_ID PROFILE"
for f in "$1" "$3"; do
	[ -f "$f" ] || die "no such file: $f"
done
tasks=$(awk '!seen[$1]++ { printf "%s ", $1 }' "$3")
[ -n "$tasks" ] || die "$3: an empty profile"

changes=$(mktemp)
trap 'rm -f "$changes"' EXIT
# Every change of a task's CPU or expected util, "T KIND TASK VALUE".
awk -v id="$2" -v err="${0##*/}" '
FNR == NR { n = ++nph[$1]; dur[$1, n] = $2; util[$1, n] = $3; next }
$1 == "mark" && $3 == "begin" && $4 == id { inwin = 1; next }
$1 == "mark" && $3 == "end" && $4 == id && inwin { inwin = 0; wend = $2; done = 1; next }
inwin && $1 == "switch" && ($4 in nph) {
	if (!($4 in start))
		start[$4] = $2
	if (!($4 in cpu) || cpu[$4] != $3) {
		print $2, "cpu", $4, $3
		cpu[$4] = $3
	}
}
END {
	if (!done) {
		printf "%s: no run %s in the trace\n", err, id > "/dev/stderr"
		exit 2
	}
	for (task in nph) {
		if (!(task in start)) {
			printf "%s: task %s never ran in %s\n", err, task, id > "/dev/stderr"
			exit 3
		}
		t = start[task]
		for (i = 1; i <= nph[task]; i++) {
			print t, "util", task, util[task, i]
			t += dur[task, i]
		}
		print (t < wend ? t : wend), "util", task, 0
	}
	print wend, "stop", "-", 0
}' "$3" "$1" >"$changes"

sort -s -n -k1,1 "$changes" | awk -v tasks="$tasks" '
BEGIN { ntask = split(tasks, order, " ") }
function placement(   i, s, task) {
	s = ""
	for (i = 1; i <= ntask; i++) {
		task = order[i]
		if ((task in cpu) && util[task] > 0)
			s = s " " cpu[task] ":" util[task]
	}
	return s
}
{
	if (seen && $1 > last && (p = placement()) != "")
		total[p] += $1 - last
	last = $1
	seen = 1
	if ($2 == "cpu")
		cpu[$3] = $4
	else if ($2 == "util")
		util[$3] = $4
	else
		exit
}
END { for (p in total) print total[p] p }'
