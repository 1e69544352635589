#!/bin/sh
# The seed's benchmarks (issue 5), guest side, each placement policy
# switched through kernel.sched_energy_policy in this one boot, the
# policies interleaved and their order rotating every iteration, so that
# drift and position in the sequence hit every policy alike.
#
# energy: for each task count N, N periodic rt-app tasks (16 ms period,
# 800 us of work at speed 1024, i.e. util 51.2 of 1024) for DURATION
# seconds, energy from the lab's meter.  One line per run:
#   bench-energy n N policy P rep R window_us W total_uj E domains_uj D cpus C
# W is the metered window (rt-app's start to its exit), E the meter's total
# over it, D the sum of its frequency-domain channels (the same energy read
# channel by channel: a consistency check), C "cpuK:uJ,..." (where the
# energy went: the placement, at a glance).
#
# hackbench: hackbench --pipe --threads -g G -l LOOPS for each group count
# G.  One line per run: "bench-hackbench g G policy P rep R time_s T",
# T being hackbench's own "Time:" figure.
#
# Usage (guest): bench.sh energy NS DURATION ITER [POLICIES]
#                bench.sh hackbench GROUPS LOOPS ITER [POLICIES]
#   NS, GROUPS, POLICIES: comma separated (POLICIES default 0,1,2)
set -eu
usage="usage: bench.sh energy NS DURATION ITER [POLICIES] | hackbench GROUPS LOOPS ITER [POLICIES]"
[ $# -ge 4 ] || { echo "$usage" >&2; exit 2; }
mode=$1 sizes=$(echo "$2" | tr ',' ' ') arg=$3 iter=$4
policies=$(echo "${5:-0,1,2}" | tr ',' ' ')
sysctl=/proc/sys/kernel/sched_energy_policy
logdir=/tmp/bench-rtapp

[ -w "$sysctl" ] || { echo "no $sysctl: not the series' kernel" >&2; exit 1; }

# now_us: CLOCK_MONOTONIC, from the lab's work device (busybox date has no
# sub-second clock).
now_us() {
	read -r ns_now _ </dev/lab-work
	echo $((ns_now / 1000))
}

# energy N POLICY REP (DURATION is arg)
energy() {
	n=$1 p=$2 r=$3
	cat >/tmp/bench.json <<JSON
{
	"tasks": { "small": { "instance": $n, "loop": -1, "run": 800,
		"timer": { "ref": "unique", "period": 16000 } } },
	"global": { "duration": $arg, "calibration": "CPU0",
		"default_policy": "SCHED_OTHER",
		"logdir": "$logdir", "log_basename": "bench" }
}
JSON
	rm -rf "$logdir" && mkdir -p "$logdir"
	lab-energy >/tmp/e0
	t0=$(now_us)
	rt-app /tmp/bench.json >/tmp/rt-app.out 2>&1 ||
		{ echo "rt-app failed (N=$n policy $p):" >&2; tail -n 5 /tmp/rt-app.out >&2; exit 1; }
	t1=$(now_us)
	lab-energy >/tmp/e1
	awk -v n="$n" -v p="$p" -v r="$r" -v w=$((t1 - t0)) '
		NR == FNR { e0[$1] = $2; next }
		{ d = $2 - e0[$1] }
		$1 == "total" { total = d; next }
		$1 ~ /^policy/ { dom += d; next }
		$1 ~ /^cpu/ { cpus = cpus sep $1 ":" d; sep = "," }
		END {
			printf "bench-energy n %d policy %d rep %d window_us %d total_uj %d domains_uj %d cpus %s\n",
				n, p, r, w, total, dom, cpus
		}' /tmp/e0 /tmp/e1
}

# hackbench G POLICY REP (LOOPS is arg)
hackbench_run() {
	t=$(hackbench --pipe --threads -g "$1" -l "$arg" 2>&1 | sed -n 's/^Time: *//p')
	[ -n "$t" ] || { echo "hackbench -g $1 -l $arg printed no time" >&2; exit 1; }
	echo "bench-hackbench g $1 policy $2 rep $3 time_s $t"
}

case $mode in
energy)
	[ -n "$(lab-energy)" ] || { echo "no energy meter (lab_energy hwmon)" >&2; exit 1; }
	run=energy
	;;
hackbench) run=hackbench_run ;;
*) echo "$usage" >&2; exit 2 ;;
esac

# rotated R: the policies, starting R-1 places further on (iteration R).
rotated() {
	echo "$policies" | awk -v r="$1" '{ for (i = 0; i < NF; i++) print $((i + r - 1) % NF + 1) }'
}

r=1
while [ "$r" -le "$iter" ]; do
	for size in $sizes; do
		for p in $(rotated "$r"); do
			echo "$p" >"$sysctl"
			# Let the previous run's tasks die and their PELT signals decay.
			sleep 1
			"$run" "$size" "$p" "$r"
		done
	done
	r=$((r + 1))
done
echo 2 >"$sysctl"
rm -rf "$logdir"
