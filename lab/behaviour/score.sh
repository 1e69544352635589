#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# LISA's two scores of one behaviour-test run: the energy of the observed
# placement against the optimal placement on the platform's Energy Model
# (`emcost score` over lab/behaviour/segments.sh's output), and the share
# of late activations of each task (rt-app's slack < 0).
# Prints one line:
#   ratio R estimated_uj E optimal_uj O late_pct L late_task T activations N
# where L is the largest share of late activations among the tasks (T).
#
# Usage: lab/behaviour/score.sh PLATFILE EVENTS RUN_ID PROFILE RTAPP_LOGDIR
set -eu
LAB_TOP=$(CDPATH='' cd -- "$(dirname -- "$0")/../.." && pwd)
# shellcheck source=lab/lib.sh
. "$LAB_TOP/lab/lib.sh"

[ $# -eq 5 ] || die "usage: ${0##*/} PLATFILE EVENTS RUN_ID PROFILE RTAPP_LOGDIR"
plat=$(platform_file "$1")
EMCOST=${EMCOST:-$TOOLS_BIN/emcost}
[ -x "$EMCOST" ] || die "$EMCOST missing: run make tools"

# Not a pipeline: its status would be emcost's alone, and a run missing
# from the trace would be scored on no placement at all.
segments=$("$LAB_TOP/lab/behaviour/segments.sh" "$2" "$3" "$4") ||
	die "no placement of $3 in $2 (see above)"
[ -n "$segments" ] || die "no placement of $3 in $2: its tasks never ran with a util"
energy=$(printf '%s\n' "$segments" | "$EMCOST" score "$plat") ||
	die "cannot score $3 (see above)"
logs=$(find "$5" -name '*.log' 2>/dev/null | sort)
[ -n "$logs" ] || die "no rt-app logs in $5"
# rt-app 1.0's log: column 8 is the slack (us) of each activation.
# shellcheck disable=SC2086 # a list of files
slack=$(awk '
FNR == 1 { task = FILENAME; sub(/.*\//, "", task); sub(/\.log$/, "", task) }
/^#/ { next }
{ n[task]++; if ($8 < 0) late[task]++ }
END {
	worst = -1
	for (t in n) {
		pct = 100 * late[t] / n[t]
		if (pct > worst) { worst = pct; wt = t }
		all += n[t]
	}
	printf "late_pct %.1f late_task %s activations %d", worst, wt, all
}' $logs)
echo "$energy" | awk -v slack="$slack" '
{ v[$1] = $2 }
END {
	if (!("ratio" in v)) exit 1
	printf "ratio %s estimated_uj %s optimal_uj %s %s\n", v["ratio"], v["estimated_uj"], v["optimal_uj"], slack
}' || die "emcost score printed no ratio for $3"
