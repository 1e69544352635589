#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Trace extraction for the behaviour tests: the events of a trace.dat
# that the analysis needs, one per line, times in microseconds:
#   mark T TEXT...                        a "behaviour: TEXT" marker
#   switch T CPU COMM                     COMM starts running on CPU
#   ou T CPU LEVEL SPAN 0|1               sched_overutilized_sd
#   eaw T COMM PREV_CPU DST_CPU LEVEL     sched_energy_wakeup
#
# Usage: lab/behaviour/extract.sh TRACE.dat >EVENTS
set -eu
LAB_TOP=$(CDPATH='' cd -- "$(dirname -- "$0")/../.." && pwd)
# shellcheck source=lab/lib.sh
. "$LAB_TOP/lab/lib.sh"

[ $# -eq 1 ] || die "usage: ${0##*/} TRACE.dat"
[ -s "$1" ] || die "no trace at $1 (the guest did not record it)"
command -v trace-cmd >/dev/null || die "trace-cmd is not installed on the host"

report=$(mktemp)
trap 'rm -f "$report"' EXIT
trace-cmd report -i "$1" >"$report" 2>/dev/null || die "trace-cmd report cannot read $1"

awk '
function us(t) { return sprintf("%.0f", t * 1000000) }
# value of KEY=... in the event text
function field(key,   i, n, w) {
	n = split(body, w, " ")
	for (i = 1; i <= n; i++)
		if (index(w[i], key "=") == 1)
			return substr(w[i], length(key) + 2)
	return ""
}
{
	if (!match($0, /\[[0-9]+\] +[0-9]+\.[0-9]+: [a-z_]+:/))
		next
	head = substr($0, RSTART, RLENGTH)
	body = substr($0, RSTART + RLENGTH)
	sub(/^ +/, "", body)
	split(head, h, /[^0-9a-z_.]+/)
	cpu = h[2] + 0
	t = us(h[3])
	ev = h[4]
	if (ev == "sched_switch") {
		# compact form "prev:pid [prio] S ==> next:pid [prio]",
		# or the raw one "... next_comm=next next_pid=pid ..."
		if ((n = index(body, "==> ")) > 0) {
			next_task = substr(body, n + 4)
			sub(/ \[-?[0-9]+\] *$/, "", next_task)
			sub(/:[0-9]+$/, "", next_task)
		} else
			next_task = field("next_comm")
		if (next_task != "swapper/" cpu && next_task != "<idle>")
			print "switch", t, cpu, next_task
	} else if (ev == "print") {
		if ((n = index(body, "behaviour: ")) > 0)
			print "mark", t, substr(body, n + 11)
	} else if (ev == "sched_overutilized_sd") {
		print "ou", t, field("cpu"), field("level"), field("span"), field("overutilized")
	} else if (ev == "sched_energy_wakeup") {
		print "eaw", t, field("comm"), field("prev_cpu"), field("dst_cpu"), field("level")
	}
}' "$report"
