#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Where the tasks of one name ran, from a trace-cmd trace with
# sched_switch (lab/run -t): per CPU, the time they ran and how many of
# them ran there; with the series' sched_overutilized_sd events, the share
# of the trace each sched domain spent overutilized.  Evidence for a
# placement decision (e.g. a benchmark target missed), shorter than the
# raw trace.
#
# Usage: lab/trace-placement.sh TRACE.DAT [COMM]   (COMM default: small,
#        the name of the benchmark's rt-app tasks)
set -eu
LAB_TOP=$(CDPATH='' cd -- "$(dirname -- "$0")/.." && pwd)
# shellcheck source=lab/lib.sh
. "$LAB_TOP/lab/lib.sh"

case $# in 1 | 2) ;; *) die "usage: $0 TRACE.DAT [COMM]"; esac
[ -f "$1" ] || die "no trace at $1"
comm=${2:-small}
report=$(mktemp)
trap 'rm -f "$report"' EXIT
trace-cmd report -i "$1" >"$report" 2>/dev/null || die "trace-cmd cannot read $1"
awk -v comm="$comm" '
	/ sched_switch: / {
		cpu = $2; gsub(/[^0-9]/, "", cpu); cpu += 0
		ts = $3; sub(/:$/, "", ts)
		if (first == "") first = ts
		last = ts
		split(substr($0, index($0, "==>") + 3), next_, " "); q = next_[1]
		if (cur[cpu] != "" && start[cpu] != "") {
			split(cur[cpu], f, ":")
			if (f[1] == comm) { run[cpu] += ts - start[cpu]; if (!((cpu, f[2]) in seen)) { seen[cpu, f[2]] = 1; tasks[cpu]++ } }
		}
		cur[cpu] = q; start[cpu] = ts; cpus[cpu] = 1
	}
	END {
		if (first == "") { print "no sched_switch event in the trace" > "/dev/stderr"; exit 1 }
		printf "trace %.3f s; tasks named %s:\n", last - first, comm
		for (c = 0; c < 64; c++)
			if (c in cpus) printf "cpu %d ran %.1f ms (%.1f%% of the trace), %d tasks\n", c, 1000 * run[c], 100 * run[c] / (last - first), tasks[c]
	}' "$report"

# The flag is shared by the domain's CPUs: the last event of a span holds.
awk '
	/ sched_overutilized_sd: / {
		ts = $3; sub(/:$/, "", ts)
		for (i = 1; i <= NF; i++) {
			split($i, kv, "=")
			if (kv[1] == "level") l = kv[2]
			if (kv[1] == "span") s = kv[2]
			if (kv[1] == "overutilized") o = kv[2]
		}
		k = "level " l " span " s
		if (state[k] == 1) ou[k] += ts - since[k]
		state[k] = o; since[k] = ts
	}
	/ sched_switch: / { ts = $3; sub(/:$/, "", ts); if (first == "") first = ts; last = ts }
	END {
		for (k in state) {
			if (state[k] == 1) ou[k] += last - since[k]
			printf "sched domain %s overutilized %.1f%% of the trace\n", k, 100 * ou[k] / (last - first)
		}
	}' "$report"
