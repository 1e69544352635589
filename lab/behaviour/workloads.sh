#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The behaviour tests' workloads for one platform, generated from its
# capacities (and, for the frequency-domain test, its Energy Model), as
# LISA's eas_behaviour.py builds them: rt-app tasks of 16 ms period whose
# duty cycles are a percentage of the little or big CPU's capacity.
#
# Usage: lab/behaviour/workloads.sh PLATFILE OUTDIR
#
# Writes into OUTDIR:
#   tests.list       one line per test: "NAME KIND THRESHOLD_PCT"
#                    (KIND lisa: scored against the optimum; ou: the
#                    over-utilization scenario; domain: frequency-domain cost)
#   NAME.json        the rt-app file (rt-app 1.0 grammar)
#   NAME.profile     "TASK DURATION_US UTIL" per phase, in order: the util
#                    each task is expected to have (0: not scored)
#   platform.env     LITTLES, BIGS (CPU lists), LITTLE_CAP, BIG_CAP, CLUSTERS
set -eu
LAB_TOP=$(CDPATH='' cd -- "$(dirname -- "$0")/../.." && pwd)
# shellcheck source=lab/lib.sh
. "$LAB_TOP/lab/lib.sh"

[ $# -eq 2 ] || die "usage: ${0##*/} PLATFILE OUTDIR"
plat=$(platform_file "$1")
out=$2
load_platform "$plat"
mkdir -p "$out"
EMCOST=${EMCOST:-$TOOLS_BIN/emcost}

PERIOD_US=16000
# LISA's TASK_PERIOD_MS is 16; its tests last 1 s, steps 2 s, ramps 0.5 s.
periods() { echo $(($1 / PERIOD_US)); }

"$PLATGEN" facts "$plat" >"$out/facts"
# The platform as platgen derives it (docs/platform-format.md): this
# script never reads the platform file itself.
model=$("$PLATGEN" model "$plat") || die "platgen model $plat failed"
# model_get KIND KEY: "ID VALUE" per KIND line of the model ("KIND ID" then
# "KEY VALUE" pairs).
model_get() {
	echo "$model" | awk -v kind="$1" -v key="$2" '
		$1 == kind { for (i = 3; i < NF; i += 2) if ($i == key) print $2, $(i + 1) }'
}
caps=$(model_get cpu capacity)
little_cap=$(echo "$caps" | awk 'NR == 1 || $2 < m { m = $2 } END { print m }')
big_cap=$(echo "$caps" | awk '$2 > m { m = $2 } END { print m }')
littles=$(echo "$caps" | awk -v c="$little_cap" '$2 == c { printf "%s%s", s, $1; s = " " }')
bigs=$(echo "$caps" | awk -v c="$big_cap" '$2 == c { printf "%s%s", s, $1; s = " " }')
clusters=$(model_get platform nr_clusters | awk '{ print $2 }')
[ "$little_cap" -lt "$big_cap" ] ||
	die "$plat: all CPUs have capacity $big_cap; the behaviour tests need big and little CPUs"
cat >"$out/platform.env" <<EOF
LITTLES='$littles'
BIGS='$bigs'
LITTLE_CAP=$little_cap
BIG_CAP=$big_cap
CLUSTERS=$clusters
EOF

# duty CAP PCT: LISA's unscaled_utilization(), PCT% of a CPU of capacity
# CAP as a duty cycle (percent) at capacity 1024.
duty() { echo $(($1 * $2 / 1024)); }
util_of() { awk -v d="$1" 'BEGIN { printf "%d", d * 1024 / 100 + 0.5 }'; }

# A test is written task by task: begin_test, then per task begin_task,
# phase..., end_task, then end_test.
begin_test() {
	test_name=$1
	printf '%s %s %s\n' "$1" "$2" "$3" >>"$out/tests.list"
	: >"$out/$test_name.profile"
	printf '{\n\t"tasks": {\n' >"$out/$test_name.json"
	task_sep=''
}

# begin_task NAME [DELAY_US [CPU...]]: CPUs pin the task.  The first
# SKIP_US of its life (delay included) is left out of the scores.
SKIP_US=0
begin_task() {
	task=$1 delay=${2:-0}
	shift $(($# < 2 ? $# : 2))
	{
		printf '%s\t\t"%s": { "loop": 1' "$task_sep" "$task"
		[ "$delay" -eq 0 ] || printf ', "delay": %d' "$delay"
		[ $# -eq 0 ] || printf ', "cpus": [%s]' "$(echo "$*" | tr ' ' ',')"
		printf ', "phases": {'
	} >>"$out/$test_name.json"
	skip=$((delay + SKIP_US))
	[ "$skip" -eq 0 ] || echo "$task $skip 0" >>"$out/$test_name.profile"
	skip=$SKIP_US
	task_sep=',
' phase_sep='' nphase=0
}

# phase DUTY_PCT DURATION_US: periodic, DUTY_PCT of each period busy
# with work at speed 1024 (rt-app "run"), so the util is the same on
# every CPU and OPP.
phase() {
	printf '%s\n\t\t\t"p%d": { "loop": %d, "run": %d, "timer": { "ref": "unique", "period": %d } }' \
		"$phase_sep" "$nphase" "$(periods "$2")" $(($1 * PERIOD_US / 100)) "$PERIOD_US" \
		>>"$out/$test_name.json"
	echo "$task $(($(periods "$2") * PERIOD_US - skip)) $(util_of "$1")" >>"$out/$test_name.profile"
	skip=0 phase_sep=',' nphase=$((nphase + 1))
}

# busy_phase DURATION_US: never sleeps.
busy_phase() {
	printf '%s\n\t\t\t"p%d": { "loop": %d, "run": 100000 }' \
		"$phase_sep" "$nphase" $(($1 / 100000)) >>"$out/$test_name.json"
	phase_sep=',' nphase=$((nphase + 1))
}

end_task() {
	printf ' }\n\t\t}' >>"$out/$test_name.json"
}

end_test() {
	cat >>"$out/$test_name.json" <<EOF

	},
	"global": { "calibration": "CPU0", "logdir": "/tmp/behaviour-logs",
		"log_basename": "$test_name" }
}
EOF
}

# periodic_tasks PREFIX COUNT DUTY DURATION_US [DELAY_US]
periodic_tasks() {
	i=0
	while [ "$i" -lt "$2" ]; do
		begin_task "$1$i" "${5:-0}"
		phase "$3" "$4"
		end_task
		i=$((i + 1))
	done
}

small=$(duty "$little_cap" 50)
: >"$out/tests.list"

begin_test OneSmallTask lisa 5
periodic_tasks small 1 "$small" 1000000
end_test

# LISA: "just avoid the bigs", hence the loose threshold.
begin_test ThreeSmallTasks lisa 20
periodic_tasks small 3 "$small" 1000000
end_test

begin_test TwoBigTasks lisa 5
periodic_tasks big 2 "$(duty "$big_cap" 80)" 1000000
end_test

# 70% of the big CPU, as LISA since 07f29e8.
begin_test TwoBigThreeSmall lisa 5
periodic_tasks small 3 "$small" 1000000
periodic_tasks big 2 "$(duty "$big_cap" 70)" 1000000
end_test

begin_test EnergyModelWakeMigration lisa 5
low=$(duty "$little_cap" 20) high=$(duty "$big_cap" 70)
i=0
for cpu in $bigs; do
	begin_task "migr$i"
	for step in $low $high $low $high; do
		phase "$step" 2000000
	done
	end_task
	i=$((i + 1))
done
end_test

# ramp FROM TO STEP: FROM, FROM+STEP, ... up to TO included.
ramp() {
	begin_task ramp0
	d=$1
	while { [ "$3" -gt 0 ] && [ "$d" -le "$2" ]; } || { [ "$3" -lt 0 ] && [ "$d" -ge "$2" ]; }; do
		phase "$d" 500000
		d=$((d + $3))
	done
	end_task
}

begin_test RampUp lisa 15
ramp "$(duty "$little_cap" 10)" "$(duty "$big_cap" 70)" 5
end_test

# LISA tuned 18% on Juno r0/r2, HiKey960 and TC2.
begin_test RampDown lisa 18
ramp "$(duty "$big_cap" 70)" "$(duty "$little_cap" 10)" -5
end_test

# Over-utilization per domain: one never-sleeping task pinned to each big
# CPU for OU_LOAD_US; after OU_SMALL_DELAY_US, three small tasks for
# OU_SMALL_US.  Only meaningful where bigs and littles are separate
# clusters, i.e. separate lowest sched domains.
if [ "$clusters" -gt 1 ]; then
	begin_test OverutilizedBigs ou 0
	for cpu in $bigs; do
		begin_task "heavy$cpu" 0 "$cpu"
		busy_phase 4000000
		end_task
	done
	# The first 0.5 s of the small tasks is left out of the checks
	# (profile util 0): new tasks start with a guessed util and a fork
	# placement that is not EAS's.
	SKIP_US=500000
	periodic_tasks small 3 "$small" 2000000 1000000
	SKIP_US=0
	end_test
fi

# Frequency-domain costs (three domains or more, as gs101): per domain, a
# task whose util makes that domain the cheapest, by at least
# DOMAIN_MARGIN_PCT, among the domains it fits (util < 80% of capacity),
# at the middle of the longest run of such duty cycles, so that PELT's
# ripple does not change the answer.
DOMAIN_MARGIN_PCT=10
ndomains=$(echo "$FREQ_DOMAINS" | wc -w)
if [ "$ndomains" -ge 3 ]; then
	[ -x "$EMCOST" ] || die "$EMCOST missing: run make tools"
	# "DOMAIN CPU" per domain, CPU its first (lowest) one.
	dom_cpus=$(model_get domain first_cpu)
	table=$(d=3; while [ "$d" -lt 80 ]; do
		u=$(util_of "$d")
		echo "$dom_cpus" | while read -r dom cpu; do
			cap=$(echo "$caps" | awk -v c="$cpu" '$1 == c { print $2 }')
			[ $((u * 1280)) -lt $((cap * 1024)) ] || continue
			p=$("$EMCOST" estimate "$plat" "$cpu:$u" | awk '$1 == "power_uw" { print $2 }')
			[ -n "$p" ] || die "emcost estimate $plat $cpu:$u printed no power_uw"
			echo "$d $dom $p"
		done
		d=$((d + 1))
	done)
	echo "$table" >"$out/domain-costs"
	# Per duty cycle: the cheapest domain, if it beats the next one by the margin.
	best=$(echo "$table" | sort -k1,1n -k3,3n | awk -v m="$DOMAIN_MARGIN_PCT" '
		$1 != d { d = $1; dom = $2; p = $3; next }
		$1 == d && dom != "" { if ($3 > p * (1 + m / 100)) print d, dom; dom = "" }')
	for dom in $FREQ_DOMAINS; do
		pick=$(echo "$best" | awk -v dom="$dom" '
			$2 == dom { if ($1 == last + 1 && run) len++; else { start = $1; len = 1 }
				    run = 1; last = $1; if (len > bl) { bl = len; bs = start } }
			$2 != dom { run = 0 }
			END { if (bl) printf "%d", bs + (bl - 1) / 2 }')
		[ -n "$pick" ] || continue
		begin_test "DomainCost-$dom" domain 5
		periodic_tasks "dom" 1 "$pick" 2000000
		end_test
	done
fi
