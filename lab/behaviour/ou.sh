#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The over-utilization scenario of one run (workload OverutilizedBigs: a
# never-sleeping task pinned to each big CPU, small periodic tasks free to
# go anywhere), from its trace events:
#   bigs_marked       the bigs' own domain was flagged overutilized (0/1)
#   parent_marked     a domain spanning littles and bigs was flagged (0/1)
#   littles_flagged_pct  share of the steady window (the small tasks'
#                     scored phase) during which the littles' domain was
#                     flagged
#   eaw_pct           sched_energy_wakeup events of the small tasks in the
#                     steady window per activation, in percent
#   little_share_pct  share of the small tasks' time (where they last ran)
#                     on little CPUs in the steady window
#   clear_ms          from the load's end (the last of the heavy tasks'
#                     last switch-outs: the load is gone) to the last
#                     flag clearing after it; 0 if every flag was down by
#                     then, -1 if one still stood at the end
# Prints them on one line, "NAME VALUE ...".
#
# Usage: lab/behaviour/ou.sh EVENTS RUN_ID PROFILE 'LITTLES' 'BIGS'
set -eu
LAB_TOP=$(CDPATH='' cd -- "$(dirname -- "$0")/../.." && pwd)
# shellcheck source=lab/lib.sh
. "$LAB_TOP/lab/lib.sh"

[ $# -eq 5 ] || die "usage: ${0##*/} EVENTS RUN_ID PROFILE 'LITTLES' 'BIGS'"
events=$1 id=$2 profile=$3 littles=$4

# The steady window, from the run's start: the small tasks' unscored
# phase, then their scored one (the profile's first task).
skip_us=$(awk 'NR == 1 { print $2 }' "$profile")
steady_us=$(awk 'NR == 2 { print $2 }' "$profile")
period_us=16000
nsmall=$(awk '!seen[$1]++' "$profile" | wc -l)

share=$("$LAB_TOP/lab/behaviour/segments.sh" "$events" "$id" "$profile" |
	awk -v littles=" $littles " '
	{ for (i = 2; i <= NF; i++) { split($i, c, ":"); all += $1
	  if (index(littles, " " c[1] " ")) little += $1 } }
	END { printf "%.1f", all ? 100 * little / all : 0 }')

awk -v id="$id" -v littles=" $littles " -v bigs=" $5 " -v skip="$skip_us" \
	-v steady="$steady_us" -v period="$period_us" -v nsmall="$nsmall" -v share="$share" '
# expand a cpulist ("0,3-5") into " 0 3 4 5 "
function expand(list,   n, i, r, a, b, s) {
	s = " "
	n = split(list, r, ",")
	for (i = 1; i <= n; i++) {
		if (split(r[i], a, "-") == 2) { for (b = a[1]; b <= a[2]; b++) s = s b " " }
		else s = s r[i] " "
	}
	return s
}
# every CPU of span S is in SET
function within(s, set,   n, i, c) {
	n = split(s, c, " ")
	for (i = 1; i <= n; i++) if (!index(set, " " c[i] " ")) return 0
	return 1
}
# time the littles domain has been flagged, up to T, within the window
function account(t,   a, b) {
	a = lastt > w0 ? lastt : w0
	b = t < w1 ? t : w1
	if (lflag > 0 && b > a) flagged += b - a
	lastt = t
}
$1 == "mark" && $3 == "begin" && $4 == id { t0 = $2; w0 = t0 + skip; w1 = w0 + steady; lastt = t0; on = 1; next }
$1 == "mark" && $3 == "load-end" && $4 == id && on { tl = $2; next }
$1 == "switch" && on {
	if (cur[$3] ~ /^heavy/) hend[cur[$3]] = $2
	cur[$3] = $4
	next
}
$1 == "mark" && $3 == "end" && $4 == id && on { account($2); te = $2; on = 0; done = 1; next }
!on { next }
$1 == "ou" {
	span = expand($5)
	key = $4 " " $5
	if (within(span, littles)) kind = "little"
	else if (within(span, bigs)) kind = "big"
	else kind = "parent"
	account($2)
	if (kind == "little") lflag += ($6 == 1 && !state[key]) - ($6 == 0 && state[key])
	if ($6 == 1 && !tl) marked[kind] = 1
	if (state[key] && $6 == 0) cleared = $2
	state[key] = $6 + 0
}
$1 == "eaw" && $3 ~ /^small/ && $2 >= w0 && $2 < w1 { eaw++ }
END {
	if (!done || !tl) { print "ou.sh: no complete run " id " in the trace" > "/dev/stderr"; exit 2 }
	for (k in hend) if (hend[k] > lend) lend = hend[k]
	clear = cleared > lend ? (cleared - lend) / 1000 : 0
	for (k in state) if (state[k]) clear = -1
	printf "bigs_marked %d parent_marked %d littles_flagged_pct %.1f eaw_pct %.0f little_share_pct %s clear_ms %.1f\n",
		marked["big"], marked["parent"], 100 * flagged / steady,
		100 * eaw / (nsmall * steady / period), share, clear
}' "$events"
